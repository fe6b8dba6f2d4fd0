package templates

import "strings"

// tidy folds white space the way the converter writes it, after edits
// (replacements) may have disturbed it: runs of spaces become one space, a
// line loses its trailing spaces, at most one blank line separates
// paragraphs, and the ends are trimmed. Indentation after a line break is
// kept (nested list items), and so is everything inside pre and code.
func (r richText) tidy() richText {
	guard := rangeCursor{ranges: r.protectedRanges()}
	var edits []edit
	text := r.text
	for i := 0; i < len(text); {
		if !isFoldSpace(text[i]) {
			i++
			continue
		}
		if end, ok := guard.inside(i); ok {
			i = end
			continue
		}
		j := i
		for j < len(text) && isFoldSpace(text[j]) {
			if _, ok := guard.inside(j); ok {
				break
			}
			j++
		}
		if e, changed := foldRun(text, i, j); changed {
			edits = append(edits, e)
		}
		i = j
	}
	return r.apply(edits).trim()
}

// foldRun decides what the white space run text[i:j] becomes.
func foldRun(text string, i, j int) (edit, bool) {
	run := text[i:j]
	var want string
	switch nl := strings.Count(run, "\n"); {
	case i == 0 || j == len(text):
		want = ""
	case nl == 0:
		want = " "
	default:
		indent := run[strings.LastIndexByte(run, '\n')+1:]
		want = strings.Repeat("\n", min(nl, 2)) + strings.ReplaceAll(indent, "\t", " ")
	}
	return edit{start: i, end: j, repl: want}, want != run
}

func isFoldSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// protectedRanges are the byte ranges of pre and code spans, sorted.
func (r richText) protectedRanges() [][2]int {
	var out [][2]int
	for _, s := range r.spans {
		if s.tag != "pre" && s.tag != "code" {
			continue
		}
		if n := len(out); n > 0 && s.start < out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s.end)
			continue
		}
		out = append(out, [2]int{s.start, s.end})
	}
	return out
}

// rangeCursor answers "is offset i protected?" for offsets asked in
// increasing order, in linear time overall.
type rangeCursor struct {
	ranges [][2]int
	k      int
}

// inside reports whether i lies in a range, and where that range ends.
func (c *rangeCursor) inside(i int) (int, bool) {
	for c.k < len(c.ranges) && c.ranges[c.k][1] <= i {
		c.k++
	}
	if c.k < len(c.ranges) && c.ranges[c.k][0] <= i {
		return c.ranges[c.k][1], true
	}
	return 0, false
}
