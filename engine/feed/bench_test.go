package feed

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
	"github.com/mmcdole/gofeed"
)

// The benchmarks compare Parse with the libraries' own parse of the same
// bytes: gofeed's universal parser for feeds, go-ical's decoder for the
// calendar. Run: go test -run '^$' -bench . ./engine/feed

const (
	largeRSS  = "miniflux/internal/reader/parser/testdata/large_rss.xml"
	largeAtom = "miniflux/internal/reader/parser/testdata/large_atom.xml"
	largeICal = "libical/test-data/large.ics"
)

func benchParse(b *testing.B, file, contentType string) {
	body := corpusFile(b, file)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body, contentType, "https://example.com/feed"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchGofeed(b *testing.B, file string) {
	body := corpusFile(b, file)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gofeed.NewParser().Parse(bytes.NewReader(body)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseLargeRSS(b *testing.B)   { benchParse(b, largeRSS, "application/rss+xml") }
func BenchmarkGofeedLargeRSS(b *testing.B)  { benchGofeed(b, largeRSS) }
func BenchmarkParseLargeAtom(b *testing.B)  { benchParse(b, largeAtom, "application/atom+xml") }
func BenchmarkGofeedLargeAtom(b *testing.B) { benchGofeed(b, largeAtom) }
func BenchmarkParseLargeICal(b *testing.B)  { benchParse(b, largeICal, "text/calendar") }

// BenchmarkGoICalLargeICal decodes the same bytes with go-ical alone, all
// of them, as Parse must. large.ics is a stream of 1,788 calendars and 528
// bare top-level components (VEVENT, VTODO, VTIMEZONE…). go-ical decodes
// a bare component completely, every property and child, before it
// rejects its name, so decoding goes on to EOF and does the same work as
// Parse's decoding (which wraps each bare component in a VCALENDAR to get
// it back); only the 99 bare VEVENTs go uncounted. Any other error would
// mean the decoder lost its place and skipped input, making the baseline
// cheaper than it should be, so the benchmark checks that every top-level
// component found by scanICal came out as a calendar or that rejection.
func BenchmarkGoICalLargeICal(b *testing.B) {
	body := corpusFile(b, largeICal)
	chunks, err := scanICal(body)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		dec := ical.NewDecoder(bytes.NewReader(body))
		components, events := 0, 0
		for {
			cal, err := dec.Decode()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil && !strings.Contains(err.Error(), "invalid toplevel component name") {
				b.Fatalf("go-ical lost its place: %v", err)
			}
			components++
			if err != nil {
				continue
			}
			for _, child := range cal.Children { // cal.Events would allocate
				if child.Name == ical.CompEvent {
					events++
				}
			}
		}
		if components != len(chunks) || events == 0 {
			b.Fatalf("decoded %d top-level components (%d events), want %d", components, events, len(chunks))
		}
	}
}
