package templates

import (
	"html"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlConverter turns feed HTML into Telegram HTML: bluemonday first, then
// a walk over the parsed tree that writes only what Telegram understands.
// It is safe for concurrent use.
type htmlConverter struct {
	policy *bluemonday.Policy
}

func newHTMLConverter() *htmlConverter {
	return &htmlConverter{policy: newSanitizer()}
}

// converted is an HTML fragment turned into rich text, with the images it
// contained (resolved URLs, document order, tracking pixels left out).
type converted struct {
	rich   richText
	images []string
}

var bodyContext = &xhtml.Node{Type: xhtml.ElementNode, Data: "body", DataAtom: atom.Body}

// convert converts an HTML fragment; relative URLs resolve against base.
// A fragment without any tag is taken as plain text whose line breaks
// count.
func (h *htmlConverter) convert(fragment, base string) converted {
	fragment = strings.ToValidUTF8(fragment, "\uFFFD")
	w := newRichWriter(base)
	if !strings.Contains(fragment, "<") {
		w.plain(html.UnescapeString(fragment))
		return w.result()
	}
	nodes, err := xhtml.ParseFragment(strings.NewReader(h.policy.Sanitize(fragment)), bodyContext)
	if err != nil { // only a failing reader can cause this; a strings.Reader never fails
		w.plain(fragment)
		return w.result()
	}
	for _, n := range nodes {
		w.node(n)
	}
	return w.result()
}

// listFrame is an open ul or ol.
type listFrame struct {
	ordered bool
	next    int
}

// richWriter accumulates rich text while walking a tree. White space is
// written lazily: a break, space or separator is only put down when visible
// text follows, so nothing dangles at the end of a block, and a span starts
// at its first visible character, so breaks stay outside it.
type richWriter struct {
	base    *url.URL
	out     []byte
	spans   []span // in the order they were opened; start -1 until text arrives
	pending []int  // spans opened that have no text yet
	brk     int    // line breaks wanted before the next text (at most 2)
	space   bool   // a space wanted before the next text
	sep     string // a table cell separator wanted before the next text
	marker  string // a list marker wanted at the start of the next line
	lists   []listFrame
	// Nesting counts that decide which spans Telegram allows.
	verbatim, pre, code, link, quote, cell int
	images                                 []string
	seen                                   map[string]bool
}

func newRichWriter(base string) *richWriter {
	w := &richWriter{seen: map[string]bool{}}
	if u, err := url.Parse(base); err == nil && u.IsAbs() {
		w.base = u
	}
	return w
}

func (w *richWriter) result() converted {
	r := richText{text: string(w.out)}
	for _, s := range w.spans {
		if s.start >= 0 && s.end > s.start {
			r.spans = append(r.spans, s)
		}
	}
	return converted{rich: r.normalize().tidy(), images: w.images}
}

// flush puts down the pending white space before visible text.
func (w *richWriter) flush() {
	if len(w.out) > 0 {
		switch {
		case w.brk > 0:
			for n := w.brk - trailingNewlines(w.out); n > 0; n-- {
				w.out = append(w.out, '\n')
			}
		case w.sep != "":
			w.out = append(w.out, w.sep...)
		case w.space:
			w.out = append(w.out, ' ')
		}
	}
	if w.marker != "" && (len(w.out) == 0 || w.out[len(w.out)-1] == '\n') {
		w.out = append(w.out, w.marker...)
	}
	w.brk, w.space, w.sep, w.marker = 0, false, "", ""
	for _, i := range w.pending {
		w.spans[i].start = len(w.out)
	}
	w.pending = w.pending[:0]
}

func trailingNewlines(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\n'; i-- {
		n++
	}
	return n
}

// text writes HTML text: runs of white space fold into one space.
func (w *richWriter) text(s string) {
	if w.verbatim > 0 {
		w.verbatimText(s)
		return
	}
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\u00a0':
			w.space = true
		case invisible(r):
		default:
			if w.brk > 0 || w.space || w.sep != "" || w.marker != "" || len(w.pending) > 0 {
				w.flush()
			}
			w.out = utf8.AppendRune(w.out, r)
		}
	}
}

// verbatimText writes preformatted text as it is, line breaks and all.
func (w *richWriter) verbatimText(s string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		if r != '\n' && r != '\t' && invisible(r) {
			continue
		}
		if w.brk > 0 || w.space || w.sep != "" || w.marker != "" || len(w.pending) > 0 {
			w.flush()
		}
		w.out = utf8.AppendRune(w.out, r)
	}
}

// plain writes plain text whose line breaks count: one newline breaks the
// line, two or more make a paragraph.
func (w *richWriter) plain(s string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			w.brk = min(w.brk+1, 2)
		}
		w.text(line)
	}
}

// invisible reports control characters and soft hyphens, which are dropped.
func invisible(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u00ad'
}

// block asks for a break of n lines (1: line, 2: paragraph) around a block.
// Inside list items paragraphs become lines; inside table cells, spaces.
func (w *richWriter) block(n int) {
	if w.cell > 0 {
		w.space = true
		return
	}
	if len(w.lists) > 0 {
		n = 1
	}
	w.brk = max(w.brk, n)
}

// open starts a span unless Telegram would not allow it here; it returns
// the span's index, or -1.
func (w *richWriter) open(tag, arg string) int {
	s := span{start: -1, end: -1, tag: tag, arg: arg}
	inCode := w.pre > 0 || w.code > 0
	switch {
	case s.isStyle() && inCode:
		return -1
	case tag == "blockquote" && (inCode || w.link > 0 || w.quote > 0):
		return -1
	case (tag == "a" || tag == "code" || tag == "pre") && (inCode || w.link > 0):
		return -1
	}
	w.counter(tag, 1)
	w.spans = append(w.spans, s)
	w.pending = append(w.pending, len(w.spans)-1)
	return len(w.spans) - 1
}

// close ends the span open returned; a span that got no text is dropped.
func (w *richWriter) close(i int) {
	if i < 0 {
		return
	}
	w.counter(w.spans[i].tag, -1)
	if w.spans[i].start < 0 {
		for k, p := range w.pending {
			if p == i {
				w.pending = append(w.pending[:k], w.pending[k+1:]...)
				break
			}
		}
		return
	}
	w.spans[i].end = len(w.out)
}

func (w *richWriter) counter(tag string, d int) {
	switch tag {
	case "pre":
		w.pre += d
	case "code":
		w.code += d
	case "a":
		w.link += d
	case "blockquote":
		w.quote += d
	}
}

// image collects an image's source as media.
func (w *richWriter) image(n *xhtml.Node) {
	if isPixel(attr(n, "width")) || isPixel(attr(n, "height")) {
		return
	}
	src := strings.TrimSpace(attr(n, "src"))
	if len(src) > 5 && strings.EqualFold(src[:5], "data:") {
		if !strings.HasPrefix(strings.ToLower(src[5:]), "image/") {
			return
		}
	} else if src = w.resolve(src, "http", "https"); src == "" {
		return
	}
	if !w.seen[src] {
		w.seen[src] = true
		w.images = append(w.images, src)
	}
}

// resolve makes ref absolute against the base and returns it if its scheme
// is one of schemes ("" otherwise).
func (w *richWriter) resolve(ref string, schemes ...string) string {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil || ref == "" {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	scheme := strings.ToLower(u.Scheme)
	for _, s := range schemes {
		if scheme != s {
			continue
		}
		switch scheme {
		case "http", "https":
			if u.Host == "" {
				return ""
			}
		case "mailto":
			if u.Opaque == "" {
				return ""
			}
		}
		return u.String()
	}
	return ""
}

func attr(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// isPixel reports a width or height of at most one pixel: a tracker.
func isPixel(v string) bool {
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "px"))
	return v == "0" || v == "1"
}
