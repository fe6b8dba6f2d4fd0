package feed

import (
	"errors"
	"fmt"
	"io"

	"github.com/emersion/go-ical"
)

// go-ical only accepts a VCALENDAR at the top, so a bare component is fed
// to it inside these lines and unwrapped again. The closing line starts
// with a line break for a component that ends the body without one.
const (
	icalWrapOpen  = "BEGIN:VCALENDAR\r\n"
	icalWrapClose = "\r\nEND:VCALENDAR\r\n"
)

// icalStream is the reader go-ical decodes: the top-level components found
// by scanICal, straight from the body, bare ones wrapped, the lines between
// them left out. Each Read fills as much of the buffer as it can across
// component boundaries, so go-ical's bufio.Reader refills as seldom as on
// the plain body.
type icalStream struct {
	body   []byte
	chunks []icalChunk
	next   int       // the chunk after the one being served
	segs   [3][]byte // the current chunk: the body's bytes, maybe wrapped
	seg    int       // the segment being served
	nsegs  int       // how many of segs are in use
	open   []byte    // icalWrapOpen, converted once per stream
	finish []byte    // icalWrapClose
}

func newICalStream(body []byte, chunks []icalChunk) *icalStream {
	return &icalStream{body: body, chunks: chunks, open: []byte(icalWrapOpen), finish: []byte(icalWrapClose)}
}

// Read implements io.Reader.
func (s *icalStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if s.seg == s.nsegs {
			if !s.advance() {
				break
			}
			continue
		}
		c := copy(p[n:], s.segs[s.seg])
		s.segs[s.seg] = s.segs[s.seg][c:]
		n += c
		if len(s.segs[s.seg]) == 0 {
			s.seg++
		}
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// advance moves on to the next chunk; false at the end.
func (s *icalStream) advance() bool {
	if s.next == len(s.chunks) {
		return false
	}
	ch := s.chunks[s.next]
	s.next++
	text := s.body[ch.start:ch.end]
	if ch.calendar {
		s.segs[0], s.nsegs = text, 1
	} else {
		s.segs[0], s.segs[1], s.segs[2], s.nsegs = s.open, text, s.finish, 3
		if text[len(text)-1] == '\n' {
			// The END line has its line break: no empty line for go-ical
			// to read and skip.
			s.segs[2] = s.finish[len("\r\n"):]
		}
	}
	s.seg = 0
	return true
}

// decodeICal decodes the top-level components found by scanICal with one
// go-ical decoder and hands each to visit. go-ical panics on some
// malformed parameter syntax; that is reported as a malformed calendar
// like its errors are.
func decodeICal(body []byte, chunks []icalChunk, visit func(*ical.Component)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("feed: iCalendar: malformed (go-ical: %v)", r)
		}
	}()
	dec := ical.NewDecoder(newICalStream(body, chunks))
	for _, ch := range chunks {
		cal, err := dec.Decode()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errICalCutShort
		}
		if err != nil {
			return fmt.Errorf("feed: iCalendar: malformed: %w", err)
		}
		if ch.calendar {
			visit(cal.Component)
			continue
		}
		if len(cal.Children) != 1 {
			return errors.New("feed: iCalendar: malformed: stray component")
		}
		visit(cal.Children[0])
	}
	return nil
}
