package feed

import (
	"html"
	"strings"

	xhtml "golang.org/x/net/html"
)

// urlAttrs are the HTML attributes whose value is a URL that a reader
// outside the publisher's site needs absolute.
var urlAttrs = [...]string{"href", "src", "poster", "cite", "background", "longdesc", "action"}

// resolveHTMLURLs makes relative URLs in an HTML fragment absolute (feeds
// written for the publisher's own pages use "/img/x.png"). gofeed already
// applies an in-scope xml:base; this handles the document URL. Most
// fragments hold only absolute URLs, so a byte scan decides first whether
// the tokenizer is needed at all; the rewrite copies untouched tokens
// verbatim.
func (r resolver) resolveHTMLURLs(doc string) string {
	if r.base == nil || !hasRelativeURLAttr(doc) {
		return doc
	}
	z := xhtml.NewTokenizer(strings.NewReader(doc))
	var b strings.Builder
	b.Grow(len(doc) + 64)
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return b.String()
		}
		raw := z.Raw()
		if tt != xhtml.StartTagToken && tt != xhtml.SelfClosingTagToken {
			b.Write(raw)
			continue
		}
		tok := z.Token()
		changed := false
		for i, a := range tok.Attr {
			if a.Namespace == "" && isURLAttr(a.Key) && isRelativeRef(a.Val) {
				tok.Attr[i].Val = r.resolve(a.Val)
				changed = true
			} else if a.Key == "srcset" {
				if v := r.resolveSrcset(a.Val); v != a.Val {
					tok.Attr[i].Val = v
					changed = true
				}
			}
		}
		if !changed {
			b.Write(raw)
			continue
		}
		writeTag(&b, tok, tt == xhtml.SelfClosingTagToken)
	}
}

// writeTag serialises a start tag with double-quoted, escaped values.
func writeTag(b *strings.Builder, tok xhtml.Token, selfClosing bool) {
	b.WriteByte('<')
	b.WriteString(tok.Data)
	for _, a := range tok.Attr {
		b.WriteByte(' ')
		if a.Namespace != "" {
			b.WriteString(a.Namespace)
			b.WriteByte(':')
		}
		b.WriteString(a.Key)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(a.Val))
		b.WriteByte('"')
	}
	if selfClosing {
		b.WriteString(" /")
	}
	b.WriteByte('>')
}

func (r resolver) resolveSrcset(v string) string {
	cands := parseSrcset(v)
	changed := false
	parts := make([]string, len(cands))
	for i, c := range cands {
		u := c.url
		if isRelativeRef(u) {
			u = r.resolve(u)
			changed = true
		}
		parts[i] = strings.TrimSpace(u + " " + c.desc)
	}
	if !changed {
		return v
	}
	return strings.Join(parts, ", ")
}

func isURLAttr(key string) bool {
	for _, a := range urlAttrs {
		if key == a {
			return true
		}
	}
	return false
}

// isRelativeRef reports whether a URL attribute value needs the base:
// no scheme, and not a same-document fragment.
func isRelativeRef(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || v[0] == '#' {
		return false
	}
	return !hasScheme(v)
}

// hasScheme reports whether s starts with an RFC 3986 scheme and colon.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// hasRelativeURLAttr is the cheap pre-check: does any URL attribute
// (or srcset) in doc hold a relative reference?
func hasRelativeURLAttr(doc string) bool {
	for i := 0; i < len(doc); i++ {
		if doc[i] != '=' {
			continue
		}
		name := attrNameBefore(doc, i)
		if name == "" || (!isURLAttr(name) && name != "srcset") {
			continue
		}
		val := doc[i+1:]
		val = strings.TrimLeft(val, " \t\r\n")
		if val != "" && (val[0] == '"' || val[0] == '\'') {
			if end := strings.IndexByte(val[1:], val[0]); end >= 0 {
				val = val[1 : 1+end]
			} else {
				val = val[1:]
			}
		}
		if name == "srcset" {
			for _, c := range parseSrcset(val) {
				if isRelativeRef(c.url) {
					return true
				}
			}
			continue
		}
		if isRelativeRef(val) {
			return true
		}
	}
	return false
}

// attrNameBefore returns the lower-cased attribute name ending just before
// doc[eq] (spaces allowed), or "".
func attrNameBefore(doc string, eq int) string {
	end := eq
	for end > 0 && (doc[end-1] == ' ' || doc[end-1] == '\t' || doc[end-1] == '\n') {
		end--
	}
	start := end
	for start > 0 {
		c := doc[start-1]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			start--
			continue
		}
		break
	}
	if start == end || end-start > 10 {
		return ""
	}
	return strings.ToLower(doc[start:end])
}
