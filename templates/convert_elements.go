package templates

import (
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// node writes one node of the sanitized tree and its children.
func (w *richWriter) node(n *xhtml.Node) {
	switch n.Type {
	case xhtml.TextNode:
		w.text(n.Data)
	case xhtml.ElementNode:
		w.element(n)
	case xhtml.DocumentNode:
		w.children(n)
	}
}

func (w *richWriter) children(n *xhtml.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// wrapped writes n's children inside a span (when Telegram allows it there).
func (w *richWriter) wrapped(n *xhtml.Node, tag, arg string) {
	i := w.open(tag, arg)
	w.children(n)
	w.close(i)
}

// element maps an HTML element to Telegram's few: the mapping the README's
// "Templates" section describes.
func (w *richWriter) element(n *xhtml.Node) {
	if w.verbatim > 0 {
		w.verbatimElement(n)
		return
	}
	switch n.DataAtom {
	case atom.Br:
		if w.cell > 0 {
			w.space = true
		} else {
			w.brk = min(w.brk+1, 2)
		}
	case atom.Img:
		w.image(n)
	case atom.Hr:
		w.block(2)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.block(2)
		w.wrapped(n, "b", "")
		w.block(2)
	case atom.Ul, atom.Ol:
		w.list(n)
	case atom.Li:
		w.listItem(n)
	case atom.Dt, atom.Caption:
		w.block(1)
		w.children(n)
		w.block(1)
	case atom.Dd:
		w.block(1)
		w.marker = "   "
		w.children(n)
		w.marker = ""
		w.block(1)
	case atom.Blockquote:
		w.block(2)
		w.wrapped(n, "blockquote", "")
		w.block(2)
	case atom.Pre:
		w.preformatted(n)
	case atom.Table:
		w.block(2)
		w.children(n)
		w.block(2)
	case atom.Tr:
		w.row(n)
	case atom.Td, atom.Th:
		w.tableCell(n)
	case atom.A:
		if href := w.resolve(attr(n, "href"), "http", "https", "tg", "mailto"); href != "" {
			w.wrapped(n, "a", href)
		} else {
			w.children(n)
		}
	default:
		w.inline(n)
	}
}

// inline handles the formatting elements and the blocks that are only
// paragraphs; everything else is unwrapped.
func (w *richWriter) inline(n *xhtml.Node) {
	switch n.DataAtom {
	case atom.B, atom.Strong:
		w.wrapped(n, "b", "")
	case atom.I, atom.Em, atom.Cite, atom.Dfn, atom.Var:
		w.wrapped(n, "i", "")
	case atom.U, atom.Ins:
		w.wrapped(n, "u", "")
	case atom.S, atom.Strike, atom.Del:
		w.wrapped(n, "s", "")
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		w.wrapped(n, "code", "")
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Aside,
		atom.Main, atom.Nav, atom.Figure, atom.Figcaption, atom.Address, atom.Details,
		atom.Summary, atom.Hgroup, atom.Center, atom.Fieldset, atom.Legend, atom.Dl:
		w.block(2)
		w.children(n)
		w.block(2)
	default:
		w.children(n)
	}
}

// list writes ul and ol; nested lists are indented by their items.
func (w *richWriter) list(n *xhtml.Node) {
	w.block(2)
	f := listFrame{ordered: n.DataAtom == atom.Ol, next: 1}
	if v, err := strconv.Atoi(strings.TrimSpace(attr(n, "start"))); err == nil && f.ordered {
		f.next = v
	}
	w.lists = append(w.lists, f)
	w.children(n)
	w.lists = w.lists[:len(w.lists)-1]
	w.block(2)
}

// listItem starts a line with "• " or "N. ", indented by the list's depth.
func (w *richWriter) listItem(n *xhtml.Node) {
	w.block(1)
	marker := "• "
	if d := len(w.lists); d > 0 {
		f := &w.lists[d-1]
		if f.ordered {
			marker = strconv.Itoa(f.next) + ". "
			f.next++
		}
		marker = strings.Repeat("   ", d-1) + marker
	}
	w.marker = marker
	w.children(n)
	w.marker = ""
	w.block(1)
}

// row writes one table row as one line.
func (w *richWriter) row(n *xhtml.Node) {
	if w.cell > 0 { // a table inside a cell: its rows run on
		w.space = true
		w.children(n)
		return
	}
	w.brk = max(w.brk, 1)
	saved := w.sep
	w.sep = ""
	cells := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
			if cells > 0 && w.brk == 0 {
				w.sep = " | "
			}
			cells++
			w.tableCell(c)
			continue
		}
		w.node(c)
	}
	w.sep = saved
	w.brk = max(w.brk, 1)
}

func (w *richWriter) tableCell(n *xhtml.Node) {
	w.cell++
	w.children(n)
	w.cell--
}

// preformatted writes pre as a pre span with its code language, keeping
// its white space.
func (w *richWriter) preformatted(n *xhtml.Node) {
	w.block(2)
	i := w.open("pre", codeLanguage(n))
	w.verbatim++
	w.children(n)
	w.verbatim--
	if i >= 0 && w.spans[i].start >= 0 {
		end := len(w.out)
		for end > w.spans[i].start && strings.IndexByte(" \t\n", w.out[end-1]) >= 0 {
			end--
		}
		w.out = w.out[:end]
	}
	w.close(i)
	w.block(2)
}

// verbatimElement handles elements inside pre: line breaks and images
// count, everything else is unwrapped.
func (w *richWriter) verbatimElement(n *xhtml.Node) {
	switch n.DataAtom {
	case atom.Br:
		w.verbatimText("\n")
	case atom.Img:
		w.image(n)
	default:
		w.children(n)
	}
}

// codeLanguage finds a language in the class of pre or of its code child
// ("language-go", "lang-go").
func codeLanguage(pre *xhtml.Node) string {
	nodes := []*xhtml.Node{pre}
	for c := pre.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.ElementNode && c.DataAtom == atom.Code {
			nodes = append(nodes, c)
			break
		}
	}
	for _, n := range nodes {
		for _, class := range strings.Fields(attr(n, "class")) {
			for _, prefix := range []string{"language-", "lang-"} {
				if lang, ok := strings.CutPrefix(class, prefix); ok && validLanguage(lang) {
					return lang
				}
			}
		}
	}
	return ""
}

func validLanguage(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_+#.-", c) >= 0) {
			return false
		}
	}
	return true
}
