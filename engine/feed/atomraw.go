package feed

import (
	"bytes"
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mmcdole/gofeed/atom"
)

// atomNeedsReread reports whether gofeed's strings lose something in this
// Atom document that rereadXML recovers: Atom 0.3 text constructs (their
// mode attribute, and no wrapper-div rule) or inline XHTML whose elements
// carry namespace prefixes. Ordinary Atom 1.0 feeds are not read twice.
func atomNeedsReread(af *atom.Feed) bool {
	if strings.HasPrefix(af.Version, "0.") {
		return true
	}
	if hasPrefixedTag(af.Title) || hasPrefixedTag(af.Subtitle) {
		return true
	}
	for _, e := range af.Entries {
		if hasPrefixedTag(e.Title) || hasPrefixedTag(e.Summary) ||
			e.Content != nil && strings.Contains(strings.ToLower(e.Content.Type), "xhtml") && hasPrefixedTag(e.Content.Value) {
			return true
		}
	}
	return false
}

// hasPrefixedTag reports a start tag with a namespace prefix ("<svg:svg").
func hasPrefixedTag(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		j := i + 1
		for j < len(s) && (isASCIILetter(s[j]) || j > i+1 && (s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '_' || s[j] == '.')) {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == ':' {
			return true
		}
		next := strings.IndexByte(s[j:], '<')
		if next < 0 {
			return false
		}
		i = j + next
	}
	return false
}

func isAtomNS(space string) bool {
	return space == "" || space == nsAtom10 || space == nsAtom03
}

// rereadAtom collects the text constructs of an Atom document, or nil
// when the document cannot be read or its entries do not line up with
// gofeed's.
func (c *converter) rereadAtom(body []byte, entries int) *rawDoc {
	doc, err := rereadXML(body, c.doc, rawQuery{
		entry:      "entry",
		feedNames:  []string{"title", "subtitle", "tagline"},
		entryNames: []string{"title", "summary", "content"},
		inNS:       isAtomNS,
	})
	if err != nil || len(doc.entries) != entries {
		return nil
	}
	return doc
}

// applyAtomFeedRaw replaces the feed's title and subtitle where the raw
// construct says more than gofeed's string.
func applyAtomFeedRaw(f *Feed, doc *rawDoc, v03 bool) {
	if v, ok := doc.feed["title"].atomHTML(v03); ok {
		f.Title = htmlText(v)
	}
	for _, name := range []string{"subtitle", "tagline"} {
		if v, ok := doc.feed[name].atomHTML(v03); ok {
			f.Description = v
			break
		}
	}
}

// applyAtomEntryRaw does the same for one entry.
func applyAtomEntryRaw(e *Entry, scope rawScope, v03 bool) {
	if v, ok := scope["title"].atomHTML(v03); ok {
		e.Title = htmlText(v)
	}
	if v, ok := scope["summary"].atomHTML(v03); ok {
		e.Summary = v
	}
	if v, ok := scope["content"].atomHTML(v03); ok {
		e.ContentHTML = v
	}
}

// atomHTML returns a text construct as HTML, or false when gofeed's value
// should stand. Atom 1.0 (RFC 4287 3.1): only type="xhtml" is reread, and
// its wrapper div is not part of the content (3.1.1.3). Atom 0.3 (section
// 3.1 of the 0.3 draft): type is a MIME type (default text/plain) and mode
// says how it is written: "xml" (default) inline, "escaped" as character
// data, "base64" encoded; 0.3 has no wrapper rule, so a div is content.
func (rt *rawText) atomHTML(v03 bool) (string, bool) {
	if rt == nil {
		return "", false
	}
	if !v03 {
		if rt.typ != "xhtml" {
			return "", false
		}
		if rt.hasInner {
			return strings.TrimSpace(rt.inner), true
		}
		return strings.TrimSpace(rt.markup), true
	}
	isHTML := strings.Contains(rt.typ, "html")
	if !isTextualType(rt.typ) {
		return "", false // binary media: parseAtom keeps it only if it is text
	}
	var s string
	switch rt.mode {
	case "base64":
		decoded, err := base64.StdEncoding.DecodeString(stripSpace(rt.chars))
		if err != nil {
			return "", false
		}
		s = string(decoded)
	case "escaped":
		s = rt.chars
	default:
		s = rt.chars
		if isHTML || rt.typ == "" && rt.elements > 0 {
			s, isHTML = rt.markup, true
		}
	}
	s = strings.TrimSpace(s)
	// Atom 0.3 feeds often left type out (text/plain by the draft) around
	// HTML; markup that looks like HTML is read as HTML, as readers did.
	if rt.typ == "" && looksLikeHTML(s) {
		isHTML = true
	}
	if !isHTML {
		return html.EscapeString(s), true
	}
	return rt.res.resolveHTMLURLs(s), true
}

// isTextualType reports an Atom content type that holds text or markup:
// text, html, xhtml, any text/* type and any XML or HTML media type.
func isTextualType(t string) bool {
	t = strings.ToLower(strings.TrimSpace(t))
	switch {
	case t == "", t == "text", t == "html", t == "xhtml", strings.HasPrefix(t, "text/"),
		strings.Contains(t, "xml"), strings.Contains(t, "html"):
		return true
	}
	return false
}

// isText reports valid UTF-8 without control characters other than
// white space: decoded bytes that can be shown.
func isText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F {
			return false
		}
	}
	return true
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

// xmlnsDefault matches the default namespace declaration in a start tag.
var xmlnsDefault = regexp.MustCompile(`\sxmlns\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// versionZero matches version="0.x" in a start tag.
var versionZero = regexp.MustCompile(`\sversion\s*=\s*["']0\.`)

// rebindAtomRoot gives an unprefixed feed root whose default namespace is
// not Atom's the Atom namespace (0.3 for version="0.x", else 1.0). Drafts
// before Atom 0.3 ("pie", "echo") used other namespaces, and gofeed reads
// only elements in Atom's. Other documents are returned unchanged.
func rebindAtomRoot(body []byte) []byte {
	root := rootElement(body)
	end := bytes.IndexByte(root, '>')
	if end < 0 || !bytes.HasPrefix(root, []byte("<feed")) || len(root) < 6 || !isNameEnd(root[5]) {
		return body
	}
	tag := root[:end]
	m := xmlnsDefault.FindSubmatchIndex(tag)
	if m == nil {
		return body
	}
	lo, hi := m[2], m[3]
	if lo < 0 {
		lo, hi = m[4], m[5]
	}
	switch ns := string(tag[lo:hi]); ns {
	case nsAtom10, nsAtom03:
		return body
	}
	ns := nsAtom10
	if versionZero.Match(tag) {
		ns = nsAtom03
	}
	off := cap(body) - cap(root) // root is a slice of body
	out := make([]byte, 0, len(body)+len(ns))
	out = append(out, body[:off+lo]...)
	out = append(out, ns...)
	return append(out, body[off+hi:]...)
}
