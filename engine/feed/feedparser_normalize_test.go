package feed

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fieldKind says how a feedparser field is compared with ours.
type fieldKind int

const (
	// kindExact compares values as they are (links, ids, dates, names).
	kindExact fieldKind = iota
	// kindHTML compares two HTML fragments after normalizeHTML.
	kindHTML
	// kindText compares the text a reader sees, after normalizeText.
	kindText
)

// feedparserKind classifies a key path (indexes already replaced by "#").
// Titles are plain text in our model, while feedparser returns a title as
// HTML when the feed typed it html or xhtml (or it looked like HTML);
// summaries, content and feed descriptions are HTML on both sides.
func feedparserKind(joined string) fieldKind {
	switch joined {
	case "feed.title", "feed.title_detail.value", "entries.#.title", "entries.#.title_detail.value":
		return kindText
	case "feed.subtitle", "feed.tagline", "feed.description", "feed.subtitle_detail.value", "feed.tagline_detail.value",
		"entries.#.description", "entries.#.summary", "entries.#.summary_detail.value", "entries.#.content.#.value":
		return kindHTML
	}
	return kindExact
}

// sameValue compares our value with feedparser's after the field's
// normalisation, which is applied to BOTH sides and never chosen per file.
// For titles each side is first written as HTML: feedparser's already is
// (or is text without markup), ours is text, so it is escaped exactly as
// a template escapes it; then both are reduced to the text they show.
func sameValue(kind fieldKind, ours, theirs string) bool {
	switch kind {
	case kindHTML:
		return normalizeHTML(ours) == normalizeHTML(theirs)
	case kindText:
		return normalizeText(html.EscapeString(ours)) == normalizeText(theirs)
	}
	return ours == theirs
}

// normalizeHTML parses s as an HTML fragment (body context, as an HTML5
// reader would) and renders it back, so that two spellings of the same
// HTML compare equal: attribute quoting, "<br/>" and "<br />", character
// references ("&#X61;", "&#x61;" and "a"; C1 references such as "&#146;"
// map to the characters HTML5 assigns them), implied end tags, and the
// case of SVG and MathML attribute names. Three further rules hold for
// HTML in general: attribute order carries no meaning, so attributes are
// sorted; namespace declarations (xmlns, xmlns:*) do not affect how an
// HTML parser places elements, so they are dropped; and non-ASCII
// characters in href and src are percent-encoded, the IRI-to-URI mapping
// of RFC 3987 section 3.1, which names the same resource.
func normalizeHTML(s string) string {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(s), body)
	if err != nil {
		return s
	}
	var b strings.Builder
	for _, n := range nodes {
		canonicalAttrs(n)
		if err := html.Render(&b, n); err != nil {
			return s
		}
	}
	return b.String()
}

func canonicalAttrs(n *html.Node) {
	if n.Type == html.ElementNode {
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			if a.Key == "xmlns" || a.Namespace == "xmlns" || strings.HasPrefix(a.Key, "xmlns:") {
				continue
			}
			if a.Key == "href" || a.Key == "src" {
				a.Val = iriToURI(a.Val)
			}
			kept = append(kept, a)
		}
		sort.Slice(kept, func(i, j int) bool {
			if kept[i].Namespace != kept[j].Namespace {
				return kept[i].Namespace < kept[j].Namespace
			}
			return kept[i].Key < kept[j].Key
		})
		n.Attr = kept
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		canonicalAttrs(c)
	}
}

// iriToURI percent-encodes the bytes of non-ASCII characters.
func iriToURI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// normalizeText returns the text a reader sees in s read as HTML: the
// text nodes (character references decoded), with a space where a line
// break or block element separates words, and runs of white space folded.
func normalizeText(s string) string {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(s), body)
	if err != nil {
		return s
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Br, atom.P, atom.Div, atom.Li, atom.Hr:
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
