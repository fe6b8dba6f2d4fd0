package feed

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits that keep go-ical's recursive, string-concatenating decoder away
// from pathological input: it recurses once per nested BEGIN and copies a
// parameter value once per byte.
const (
	maxICalDepth      = 8
	maxICalParamBytes = 8 << 10
)

// errICalCutShort reports a calendar without its END line; go-ical returns
// a bare io.EOF for it.
var errICalCutShort = errors.New("feed: iCalendar: calendar cut short (no END:VCALENDAR)")

// icalChunk is one top-level component of an iCalendar body.
type icalChunk struct {
	calendar   bool // a VCALENDAR; anything else is a bare component
	start, end int  // byte range, END line included
}

// scanICal checks the BEGIN/END structure of an iCalendar body and splits
// it into top-level components. libical's test data (and some servers)
// concatenate calendars or write bare VEVENTs after one; those are kept.
// A mismatched or missing END, excessive nesting or an oversized parameter
// section make the whole body malformed; stray property lines between or
// after top-level components are ignored.
//
// It runs over every line before go-ical does, so it looks closely only at
// what can matter: lines that can be BEGIN or END, and lines long enough
// to hold an oversized parameter section.
func scanICal(body []byte) ([]icalChunk, error) {
	var s icalScanner
	for pos := 0; pos < len(body); {
		// The content line and its continuation lines (written out here:
		// this loop runs once per line of the body).
		start := pos
		firstEnd := len(body)
		if i := bytes.IndexByte(body[pos:], '\n'); i >= 0 {
			firstEnd = pos + i + 1
		}
		pos = firstEnd
		for pos < len(body) && (body[pos] == ' ' || body[pos] == '\t') {
			pos = lineEnd(body, pos)
		}
		// Most lines are properties inside a component: a visible first
		// byte that cannot start BEGIN or END, and too short to hold an
		// oversized parameter section. Nothing else about them matters.
		if c := body[start]; c > ' ' && c < utf8.RuneSelf && c|0x20 != 'b' && c|0x20 != 'e' &&
			pos-start <= maxICalParamBytes && (s.depth > 0 || len(s.chunks) > 0) {
			continue
		}
		if err := s.contentLine(trimLineBreak(body[start:firstEnd]), start, pos); err != nil {
			return nil, err
		}
	}
	if s.depth > 0 {
		return nil, errICalCutShort
	}
	if len(s.chunks) == 0 || !s.chunks[0].calendar {
		return nil, errors.New("feed: iCalendar: malformed: no VCALENDAR")
	}
	return s.chunks, nil
}

// icalScanner is scanICal's state: the top-level components so far and
// the names of the open components, as slices of the body.
type icalScanner struct {
	chunks []icalChunk
	stack  [maxICalDepth][]byte
	depth  int
}

// contentLine checks one content line: line is its first physical line
// without the line break, start and next the offsets of the content line
// and of the one after it (past continuation lines).
func (s *icalScanner) contentLine(line []byte, start, next int) error {
	if blankLine(line) {
		return nil
	}
	// The parameters are part of the logical line, so a short line
	// cannot have too many.
	if next-start > maxICalParamBytes {
		_, value, paramLen := splitContentLine(line)
		if value == nil {
			// The parameters run on into continuation lines.
			paramLen = next - start
		}
		if paramLen > maxICalParamBytes {
			return fmt.Errorf("feed: iCalendar: malformed: parameters longer than %d bytes", maxICalParamBytes)
		}
	}
	switch kind, value := beginOrEnd(line); {
	case kind == beginLine:
		comp := bytes.TrimSpace(value)
		if len(comp) == 0 {
			return errors.New("feed: iCalendar: malformed: BEGIN without a component name")
		}
		if s.depth == 0 {
			s.chunks = append(s.chunks, icalChunk{calendar: sameComponent(comp, []byte("VCALENDAR")), start: start})
		}
		if s.depth == maxICalDepth {
			return fmt.Errorf("feed: iCalendar: malformed: components nested deeper than %d", maxICalDepth)
		}
		s.stack[s.depth] = comp
		s.depth++
	case kind == endLine:
		comp := bytes.TrimSpace(value)
		if s.depth == 0 || !sameComponent(comp, s.stack[s.depth-1]) {
			return fmt.Errorf("feed: iCalendar: malformed: unexpected END:%.40q", comp)
		}
		s.depth--
		if s.depth == 0 {
			s.chunks[len(s.chunks)-1].end = next
		}
	case s.depth == 0 && len(s.chunks) == 0:
		return errors.New("feed: iCalendar: malformed: content before BEGIN:VCALENDAR")
	case s.depth == 0:
		// A property after a complete calendar (some exporters append a
		// cache note) belongs to nothing and is ignored.
	}
	return nil
}

// Kinds of content line that matter to the structure.
const (
	otherLine = iota
	beginLine
	endLine
)

// beginOrEnd tells a BEGIN or END line (name compared without regard to
// case, parameters allowed) from any other, and returns its value. Only
// an ASCII b or e can start such a name: no other rune folds to either,
// so the other lines need not be split.
func beginOrEnd(line []byte) (kind int, value []byte) {
	if len(line) == 0 || line[0]|0x20 != 'b' && line[0]|0x20 != 'e' {
		return otherLine, nil
	}
	// The usual spellings, BEGIN: and END: with no parameters, split
	// where splitContentLine would.
	if len(line) >= 6 && line[5] == ':' && sameComponent(line[:5], []byte("BEGIN")) {
		return beginLine, line[6:]
	}
	if len(line) >= 4 && line[3] == ':' && sameComponent(line[:3], []byte("END")) {
		return endLine, line[4:]
	}
	name, value, _ := splitContentLine(line)
	switch {
	case bytes.EqualFold(name, []byte("BEGIN")):
		return beginLine, value
	case bytes.EqualFold(name, []byte("END")):
		return endLine, value
	}
	return otherLine, nil
}

// sameComponent reports whether an END (or a wanted) name matches a BEGIN
// name the way go-ical compares them: the BEGIN name upper-cased, then
// compared without regard to case (so a Kelvin sign matches k). ASCII
// names of equal length are compared here without allocating; the rest
// take the general path.
func sameComponent(name, begin []byte) bool {
	if len(name) == len(begin) {
		i := 0
		for ; i < len(name); i++ {
			a, b := name[i], begin[i]
			if a >= utf8.RuneSelf || b >= utf8.RuneSelf {
				break
			}
			if a != b && (a|0x20 != b|0x20 || a|0x20 < 'a' || a|0x20 > 'z') {
				return false
			}
		}
		if i == len(name) {
			return true
		}
	}
	if isASCII(begin) {
		// Upper-casing ASCII changes nothing a case-insensitive
		// comparison would see.
		return bytes.EqualFold(name, begin)
	}
	return bytes.EqualFold(name, []byte(strings.ToUpper(string(begin))))
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// blankLine reports whether a line holds only white space. A line that
// starts with a visible ASCII byte cannot, which saves trimming nearly
// every line.
func blankLine(line []byte) bool {
	if len(line) == 0 {
		return true
	}
	if c := line[0]; c > ' ' && c < utf8.RuneSelf {
		return false
	}
	return len(bytes.TrimSpace(line)) == 0
}

// trimLineBreak drops the line break from a physical line. Only BEGIN/END
// and the parameter length are read from a content line, so continuation
// lines are not joined to the first.
func trimLineBreak(line []byte) []byte {
	end := len(line)
	for end > 0 && (line[end-1] == '\n' || line[end-1] == '\r') {
		end--
	}
	return line[:end]
}

func lineEnd(body []byte, pos int) int {
	i := bytes.IndexByte(body[pos:], '\n')
	if i < 0 {
		return len(body)
	}
	return pos + i + 1
}

// splitContentLine splits "NAME;PARAMS:VALUE" at the first colon outside
// double quotes and returns the name, the value and the parameter length.
func splitContentLine(line []byte) (name, value []byte, paramLen int) {
	quoted := false
	for i, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ':' && !quoted:
			head := line[:i]
			name = head
			if j := bytes.IndexByte(head, ';'); j >= 0 {
				name = head[:j]
			}
			return name, line[i+1:], len(head) - len(name)
		}
	}
	return line, nil, len(line)
}
