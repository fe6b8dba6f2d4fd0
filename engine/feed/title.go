package feed

import (
	"html"
	"strings"

	xhtml "golang.org/x/net/html"
)

// plainTitle returns a title as the plain text a reader sees; Entry.Title
// and Feed.Title are text, and templates escape them. Feeds put HTML in
// titles: Atom type="html" and "xhtml", and RSS titles with escaped markup
// or character references (WordPress writes "Foo &#8211; Bar" inside
// CDATA). A title counts as HTML only when it holds an end tag or a
// self-closing tag, so a plain "vector<int>" survives; otherwise only
// complete character references (with their ";") are decoded, so
// "AT&T" and "a &notation;" stay as written.
func plainTitle(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return cleanText(s)
	}
	if looksLikeHTML(s) {
		return htmlText(s)
	}
	return cleanText(decodeReferences(s))
}

// looksLikeHTML reports an end tag ("</b") or a self-closing tag ("<br/>").
func looksLikeHTML(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0 && i+1 < len(s); {
		c := s[i+1]
		if c == '/' && i+2 < len(s) && isASCIILetter(s[i+2]) {
			return true
		}
		if isASCIILetter(c) {
			end := strings.IndexByte(s[i:], '>')
			if end > 0 && s[i+end-1] == '/' {
				return true
			}
		}
		next := strings.IndexByte(s[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// htmlText returns the text of an HTML fragment: tags and comments
// dropped, references decoded, whitespace folded.
func htmlText(s string) string {
	z := xhtml.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(len(s))
	skip := 0 // inside script or style
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return cleanText(b.String())
		case xhtml.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case xhtml.StartTagToken:
			name, _ := z.TagName()
			if string(name) == "script" || string(name) == "style" {
				skip++
			}
			if breaksWords(string(name)) {
				b.WriteByte(' ') // "a<br>b" reads as two words
			}
		case xhtml.EndTagToken:
			if name, _ := z.TagName(); (string(name) == "script" || string(name) == "style") && skip > 0 {
				skip--
			}
		case xhtml.SelfClosingTagToken:
			if name, _ := z.TagName(); breaksWords(string(name)) {
				b.WriteByte(' ')
			}
		}
	}
}

// decodeReferences decodes complete character references ("&amp;",
// "&#8211;", "&#x41;"). HTML's legacy rule that decodes some names
// without ";" ("&copy" in "&copy=2") is not applied: in a text title that
// is more often a literal ampersand.
func decodeReferences(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexByte(s, ';')
		if end < 2 || end > 40 || strings.ContainsAny(s[1:end], " \t\r\n&<") {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		span := s[:end+1]
		dec := html.UnescapeString(span)
		if dec == span || dec == html.UnescapeString(span[:end])+";" {
			b.WriteByte('&') // not a reference, or only its prefix is one
			s = s[1:]
			continue
		}
		b.WriteString(dec)
		s = s[end+1:]
	}
}

// breaksWords reports elements that separate the words around them.
func breaksWords(name string) bool {
	switch name {
	case "br", "hr", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "img":
		return true
	}
	return false
}
