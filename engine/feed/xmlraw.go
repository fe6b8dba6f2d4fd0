package feed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"strings"
)

// Namespaces the raw reader maps to HTML.
const (
	nsXHTML  = "http://www.w3.org/1999/xhtml"
	nsSVG    = "http://www.w3.org/2000/svg"
	nsMathML = "http://www.w3.org/1998/Math/MathML"
	nsXLink  = "http://www.w3.org/1999/xlink"
	nsXML    = "http://www.w3.org/XML/1998/namespace"
	nsAtom10 = "http://www.w3.org/2005/Atom"
	nsAtom03 = "http://purl.org/atom/ns#"
)

// rawText is one element read straight from the XML, for the cases where
// gofeed's flattened string loses what we need: the Atom 0.3 mode
// attribute, namespace prefixes inside inline XHTML (gofeed keeps
// "svg:svg" and "xhtml:p", which HTML does not know), and markup inside an
// RSS item's xhtml:body, which gofeed keeps as text only.
type rawText struct {
	typ, mode string
	// markup holds the children re-serialised as HTML: names without
	// namespace prefixes, namespace declarations dropped, URL attributes
	// resolved against the xml:base in scope.
	markup string
	// chars holds the character data alone (escaped and base64 modes).
	chars string
	// inner is the markup inside the single XHTML div child, when the
	// element holds exactly that (the Atom 1.0 wrapper, RFC 4287 3.1.1.3).
	inner    string
	hasInner bool
	// elements counts the element children.
	elements int
	// res resolves against the xml:base in scope at the element.
	res resolver
}

// rawScope holds the first element of each wanted name in one scope (the
// feed, or one entry).
type rawScope map[string]*rawText

// rawDoc is what rereadXML collects: feed-level elements and, per entry
// in document order, the entry's elements.
type rawDoc struct {
	feed    rawScope
	entries []rawScope
}

// rawQuery says what rereadXML collects. entry is the local name of an
// entry element (entries nested in entries are not entries); names are the
// wanted local names of direct children of the root (or of an RSS
// channel) and of an entry; inNS accepts an element's namespace.
type rawQuery struct {
	entry      string
	feedNames  []string
	entryNames []string
	inNS       func(space string) bool
}

// errRawTooDeep stops a document nested deeper than any feed needs.
var errRawTooDeep = errors.New("feed: XML nested too deeply")

// rawMaxDepth bounds nesting so a hostile document cannot grow the stack.
const rawMaxDepth = 512

// rereadXML walks a UTF-8 document once with encoding/xml (namespaces
// resolved, xml:base tracked) and collects what q asks for. It is used
// only for documents that need it, so the common feed pays nothing.
func rereadXML(body []byte, docRes resolver, q rawQuery) (*rawDoc, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	// toUTF8 has already converted the body and rewritten the prolog.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	doc := &rawDoc{feed: rawScope{}}
	type frame struct {
		local string
		res   resolver
	}
	stack := []frame{{res: docRes}}
	entryDepth := 0 // depth of the open entry element, 0 when none
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return doc, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > rawMaxDepth {
				return nil, errRawTooDeep
			}
			parent := stack[len(stack)-1]
			res := withXMLBase(parent.res, t.Attr)
			depth := len(stack) // depth of this element; the root is 1
			var scope rawScope
			var names []string
			switch {
			case entryDepth == 0 && t.Name.Local == q.entry && (depth == 2 || depth == 3 && parent.local == "channel"):
				entryDepth = depth
				doc.entries = append(doc.entries, rawScope{})
			case entryDepth > 0 && depth == entryDepth+1:
				scope, names = doc.entries[len(doc.entries)-1], q.entryNames
			case entryDepth == 0 && (depth == 2 || depth == 3 && parent.local == "channel"):
				scope, names = doc.feed, q.feedNames
			}
			if scope != nil && containsString(names, t.Name.Local) && q.inNS(t.Name.Space) && scope[t.Name.Local] == nil {
				rt, err := readRawText(d, t, res)
				if err != nil {
					return nil, err
				}
				scope[t.Name.Local] = rt
				continue // the element's end has been consumed
			}
			stack = append(stack, frame{local: t.Name.Local, res: res})
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) <= entryDepth {
				entryDepth = 0 // the entry itself ended
			}
		}
	}
}

// withXMLBase applies an xml:base attribute, if any, to the base in scope.
func withXMLBase(res resolver, attrs []xml.Attr) resolver {
	for _, a := range attrs {
		if a.Name.Space == nsXML && a.Name.Local == "base" {
			if abs := res.resolve(a.Value); hasScheme(abs) {
				return newResolver(abs)
			}
		}
	}
	return res
}

// attr records the type and mode attributes of the construct's element.
func (rt *rawText) attr(start xml.StartElement) {
	for _, a := range start.Attr {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "type":
			rt.typ = strings.ToLower(strings.TrimSpace(a.Value))
		case "mode":
			rt.mode = strings.ToLower(strings.TrimSpace(a.Value))
		}
	}
}

// readRawText consumes the element that start opened, up to its end, and
// serialises its children.
func readRawText(d *xml.Decoder, start xml.StartElement, res resolver) (*rawText, error) {
	rt := &rawText{res: res}
	rt.attr(start)
	var markup, chars strings.Builder
	ress := []resolver{res}
	depth := 0
	elements, divStart, divEnd := 0, -1, -1
	strayText := false
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth >= rawMaxDepth {
				return nil, errRawTooDeep
			}
			r := withXMLBase(ress[len(ress)-1], t.Attr)
			ress = append(ress, r)
			depth++
			writeRawStart(&markup, t, r)
			if depth == 1 {
				elements++
				if elements == 1 && t.Name.Space == nsXHTML && t.Name.Local == "div" {
					divStart = markup.Len()
				}
			}
		case xml.EndElement:
			if depth == 0 {
				rt.markup, rt.chars, rt.elements = markup.String(), chars.String(), elements
				if elements == 1 && divStart >= 0 && divEnd >= 0 && !strayText {
					rt.inner, rt.hasInner = rt.markup[divStart:divEnd], true
				}
				return rt, nil
			}
			if depth == 1 && divStart >= 0 && divEnd < 0 {
				divEnd = markup.Len()
			}
			ress = ress[:len(ress)-1]
			depth--
			if !isVoidRaw(t.Name) {
				markup.WriteString("</")
				markup.WriteString(t.Name.Local)
				markup.WriteByte('>')
			}
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				strayText = true
			}
			chars.Write(t)
			markup.WriteString(html.EscapeString(string(t)))
		}
	}
}

// writeRawStart writes a start tag as HTML: the local name (HTML, SVG and
// MathML parsers place elements by name, not by prefix), no namespace
// declarations, xlink attributes with their conventional prefix, URL
// attributes resolved.
func writeRawStart(b *strings.Builder, t xml.StartElement, res resolver) {
	b.WriteByte('<')
	b.WriteString(t.Name.Local)
	for _, a := range t.Attr {
		name := a.Name.Local
		switch {
		case a.Name.Space == "xmlns" || a.Name.Space == "" && name == "xmlns", a.Name.Space == nsXML:
			continue
		case a.Name.Space == nsXLink:
			name = "xlink:" + name
		}
		val := a.Value
		if a.Name.Space == "" || a.Name.Space == nsXLink {
			if isURLAttr(name) || name == "xlink:href" {
				if isRelativeRef(val) {
					val = res.resolve(val)
				}
			} else if name == "srcset" {
				val = res.resolveSrcset(val)
			}
		}
		b.WriteByte(' ')
		b.WriteString(name)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(val))
		b.WriteByte('"')
	}
	if isVoidRaw(t.Name) {
		b.WriteByte('/')
	}
	b.WriteByte('>')
}

// isVoidRaw reports an HTML void element, which has no end tag.
func isVoidRaw(n xml.Name) bool {
	if n.Space != "" && n.Space != nsXHTML {
		return false
	}
	switch n.Local {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}
