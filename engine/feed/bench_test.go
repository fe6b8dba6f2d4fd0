package feed

import (
	"bytes"
	"errors"
	"io"
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

// BenchmarkGoICalLargeICal decodes the same bytes with go-ical alone. The
// file is a stream of calendars and bare components; go-ical returns an
// error for each bare one after consuming it, so decoding goes on to EOF.
func BenchmarkGoICalLargeICal(b *testing.B) {
	body := corpusFile(b, largeICal)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		dec := ical.NewDecoder(bytes.NewReader(body))
		events := 0
		for {
			cal, err := dec.Decode()
			if errors.Is(err, io.EOF) {
				break
			}
			if err == nil {
				events += len(cal.Events())
			}
		}
		if events == 0 {
			b.Fatal("no events decoded")
		}
	}
}
