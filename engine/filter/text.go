package filter

import (
	"strings"

	"golang.org/x/net/html"
)

// PlainText returns the text of an HTML fragment: tags dropped, entities
// decoded, runs of white space collapsed, so that a keyword never matches
// inside markup and "a <b>word</b>" matches "a word". Text without markup
// comes back with its white space collapsed.
func PlainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return strings.Join(strings.Fields(s), " ")
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0 // inside <script> or <style>
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.Join(strings.Fields(b.String()), " ")
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			if n := string(name); n == "script" || n == "style" {
				skip++
			}
			b.WriteByte(' ')
		case html.EndTagToken:
			name, _ := z.TagName()
			if n := string(name); (n == "script" || n == "style") && skip > 0 {
				skip--
			}
			b.WriteByte(' ')
		case html.SelfClosingTagToken:
			b.WriteByte(' ')
		}
	}
}
