package feed

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
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
	name       string // upper-cased component name
	start, end int    // byte range, END line included
}

// scanICal checks the BEGIN/END structure of an iCalendar body and splits
// it into top-level components. libical's test data (and some servers)
// concatenate calendars or write bare VEVENTs after one; those are kept.
// A mismatched or missing END, excessive nesting or an oversized parameter
// section make the whole body malformed; stray property lines between or
// after top-level components are ignored.
func scanICal(body []byte) ([]icalChunk, error) {
	var chunks []icalChunk
	var stack []string
	for pos := 0; pos < len(body); {
		lineStart := pos
		line, next := logicalLine(body, pos)
		pos = next
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		name, value, paramLen := splitContentLine(line)
		if value == nil {
			// The parameters run on into continuation lines.
			paramLen = pos - lineStart
		}
		if paramLen > maxICalParamBytes {
			return nil, fmt.Errorf("feed: iCalendar: malformed: parameters longer than %d bytes", maxICalParamBytes)
		}
		switch {
		case bytes.EqualFold(name, []byte("BEGIN")):
			comp := strings.ToUpper(string(bytes.TrimSpace(value)))
			if comp == "" {
				return nil, errors.New("feed: iCalendar: malformed: BEGIN without a component name")
			}
			if len(stack) == 0 {
				chunks = append(chunks, icalChunk{name: comp, start: lineStart})
			}
			if len(stack) == maxICalDepth {
				return nil, fmt.Errorf("feed: iCalendar: malformed: components nested deeper than %d", maxICalDepth)
			}
			stack = append(stack, comp)
		case bytes.EqualFold(name, []byte("END")):
			comp := bytes.TrimSpace(value)
			if len(stack) == 0 || !bytes.EqualFold(comp, []byte(stack[len(stack)-1])) {
				return nil, fmt.Errorf("feed: iCalendar: malformed: unexpected END:%.40q", comp)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				chunks[len(chunks)-1].end = pos
			}
		case len(stack) == 0 && len(chunks) == 0:
			return nil, errors.New("feed: iCalendar: malformed: content before BEGIN:VCALENDAR")
		case len(stack) == 0:
			// A property after a complete calendar (some exporters append a
			// cache note) belongs to nothing and is ignored.
		}
	}
	if len(stack) > 0 {
		return nil, errICalCutShort
	}
	if len(chunks) == 0 || chunks[0].name != "VCALENDAR" {
		return nil, errors.New("feed: iCalendar: malformed: no VCALENDAR")
	}
	return chunks, nil
}

// logicalLine returns the unfolded content line starting at pos (only
// needed for BEGIN/END and the parameter length, so continuation lines are
// not joined, just skipped) and the offset after it.
func logicalLine(body []byte, pos int) (line []byte, next int) {
	end := lineEnd(body, pos)
	line = bytes.TrimRight(body[pos:end], "\r\n")
	next = end
	for next < len(body) && (body[next] == ' ' || body[next] == '\t') {
		next = lineEnd(body, next)
	}
	return line, next
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
