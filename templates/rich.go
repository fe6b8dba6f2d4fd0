package templates

import (
	"sort"
	"strings"
)

// richText is formatted text in the shape Telegram itself keeps it: the text
// the recipient reads, and formatting spans over it. Everything that changes
// rendered content (replacements, tidying, shortening, splitting) edits this
// form and serializes it again, so tags always stay balanced and lengths are
// counted on exactly the characters Telegram counts.
type richText struct {
	text  string
	spans []span // see normalize for the invariant
}

// span is one formatting range over richText.text, [start, end) in bytes.
type span struct {
	start, end int
	tag        string // b, i, u, s, tg-spoiler, code, pre, a, blockquote, tg-emoji, tg-time
	arg        string // a: href; pre: language; blockquote: "expandable"; tg-emoji: id; tg-time: unix
	arg2       string // tg-time: format
}

// isStyle reports whether a span is one Telegram lets nest anywhere but in
// code and pre.
func (s span) isStyle() bool {
	switch s.tag {
	case "b", "i", "u", "s", "tg-spoiler":
		return true
	}
	return false
}

// normalize establishes the invariant every other method relies on: spans
// are non-empty, inside the text, sorted by start and then outer first, and
// properly nested (a span that would cross its parent's end is clipped).
// The sort is stable, so of two spans with one range the one opened first
// stays outside.
func (r richText) normalize() richText {
	kept := r.spans[:0:0]
	for _, s := range r.spans {
		s.start, s.end = max(s.start, 0), min(s.end, len(r.text))
		if s.start < s.end {
			kept = append(kept, s)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].start != kept[j].start {
			return kept[i].start < kept[j].start
		}
		return kept[i].end > kept[j].end
	})
	var stack []int
	out := kept[:0]
	for _, s := range kept {
		for len(stack) > 0 && out[stack[len(stack)-1]].end <= s.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			s.end = min(s.end, out[stack[len(stack)-1]].end)
		}
		out = append(out, s)
		stack = append(stack, len(out)-1)
	}
	return richText{text: r.text, spans: out}
}

// html serializes the text as Telegram HTML. The spans must be normalized.
func (r richText) html() string {
	var b strings.Builder
	b.Grow(len(r.text) + len(r.spans)*16)
	var stack []span
	pos, next := 0, 0
	for {
		end := len(r.text)
		if next < len(r.spans) {
			end = min(end, r.spans[next].start)
		}
		if len(stack) > 0 {
			end = min(end, stack[len(stack)-1].end)
		}
		writeEscaped(&b, r.text[pos:end])
		pos = end
		for len(stack) > 0 && stack[len(stack)-1].end <= pos {
			writeClose(&b, stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		for next < len(r.spans) && r.spans[next].start <= pos {
			writeOpen(&b, r.spans[next])
			stack = append(stack, r.spans[next])
			next++
		}
		if pos >= len(r.text) && len(stack) == 0 && next >= len(r.spans) {
			return b.String()
		}
	}
}

func writeOpen(b *strings.Builder, s span) {
	switch s.tag {
	case "a":
		b.WriteString(`<a href="`)
		writeAttr(b, s.arg)
		b.WriteString(`">`)
	case "pre":
		b.WriteString("<pre>")
		if s.arg != "" {
			b.WriteString(`<code class="language-`)
			writeAttr(b, s.arg)
			b.WriteString(`">`)
		}
	case "blockquote":
		if s.arg == "expandable" {
			b.WriteString("<blockquote expandable>")
		} else {
			b.WriteString("<blockquote>")
		}
	case "tg-emoji":
		b.WriteString(`<tg-emoji emoji-id="`)
		writeAttr(b, s.arg)
		b.WriteString(`">`)
	case "tg-time":
		b.WriteString(`<tg-time unix="`)
		writeAttr(b, s.arg)
		if s.arg2 != "" {
			b.WriteString(`" format="`)
			writeAttr(b, s.arg2)
		}
		b.WriteString(`">`)
	default:
		b.WriteString("<" + s.tag + ">")
	}
}

func writeClose(b *strings.Builder, s span) {
	if s.tag == "pre" && s.arg != "" {
		b.WriteString("</code>")
	}
	b.WriteString("</" + s.tag + ">")
}

// writeEscaped escapes text as Telegram wants it: only &, < and > need it.
func writeEscaped(b *strings.Builder, s string) {
	for {
		i := strings.IndexAny(s, "&<>")
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		switch s[i] {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		}
		s = s[i+1:]
	}
}

// writeAttr escapes an attribute value, which Telegram reads up to the quote.
func writeAttr(b *strings.Builder, s string) {
	for {
		i := strings.IndexAny(s, `&<>"`)
		if i < 0 {
			b.WriteString(s)
			return
		}
		writeEscaped(b, s[:i])
		if s[i] == '"' {
			b.WriteString("&quot;")
		} else {
			writeEscaped(b, s[i:i+1])
		}
		s = s[i+1:]
	}
}

// EscapeHTML escapes plain text for Telegram's HTML parse mode, with the
// entities Telegram knows (&lt; &gt; &amp; &quot;).
func EscapeHTML(s string) string {
	var b strings.Builder
	writeAttr(&b, s)
	return b.String()
}

// slice returns the part [from, to) of r (byte offsets on rune boundaries),
// with the spans clipped to it.
func (r richText) slice(from, to int) richText {
	out := richText{text: r.text[from:to]}
	for _, s := range r.spans {
		s.start, s.end = max(s.start, from)-from, min(s.end, to)-from
		if s.start < s.end {
			out.spans = append(out.spans, s)
		}
	}
	return out
}

// edit replaces text[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// apply makes edits (sorted, not overlapping) and moves the spans with the
// text: a span keeps what survives of its text, and one whose text was
// replaced exactly covers the replacement.
func (r richText) apply(edits []edit) richText {
	if len(edits) == 0 {
		return r
	}
	var b strings.Builder
	b.Grow(len(r.text))
	// shift[i] is how far text after edits[:i] moved.
	shift := make([]int, len(edits)+1)
	pos := 0
	for i, e := range edits {
		b.WriteString(r.text[pos:e.start])
		b.WriteString(e.repl)
		pos = e.end
		shift[i+1] = shift[i] + len(e.repl) - (e.end - e.start)
	}
	b.WriteString(r.text[pos:])
	move := func(p int, isStart bool) int {
		i := sort.Search(len(edits), func(i int) bool { return edits[i].end > p })
		if i < len(edits) && edits[i].start < p { // inside a replaced range
			at := edits[i].start + shift[i]
			if isStart {
				return at + len(edits[i].repl)
			}
			return at
		}
		return p + shift[i]
	}
	out := richText{text: b.String(), spans: make([]span, 0, len(r.spans))}
	for _, s := range r.spans {
		start, end := s.start, s.end
		if i := sort.Search(len(edits), func(i int) bool { return edits[i].end >= end }); i < len(edits) &&
			edits[i].start == start && edits[i].end == end {
			// Exactly the span's text was replaced: it covers the replacement.
			s.start, s.end = edits[i].start+shift[i], edits[i].start+shift[i]+len(edits[i].repl)
		} else {
			s.start, s.end = move(start, true), move(end, false)
		}
		if s.start < s.end {
			out.spans = append(out.spans, s)
		}
	}
	return out.normalize()
}
