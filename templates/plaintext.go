package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// PlainText turns an HTML fragment into tidy plain text: tags removed,
// entities decoded, runs of white space folded, paragraphs kept apart.
func PlainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return tidy(s)
	}
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // inside script/style
	for {
		switch z.Next() {
		case html.ErrorToken:
			return tidy(b.String())
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				if z.Token().Type == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			case "br":
				b.WriteByte('\n')
			case "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article":
				b.WriteString("\n\n")
			}
		}
	}
}

// tidy folds white space within lines and keeps at most one blank line.
func tidy(s string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.FieldsFunc(line, unicode.IsSpace), " ")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// Truncate shortens s to at most n characters (code points), at a word
// boundary when one is near, ending in "…".
func Truncate(n int, s string) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	cut := n - 1
	for i := cut; i > cut*3/4; i-- {
		if unicode.IsSpace(runes[i]) {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace) + "…"
}
