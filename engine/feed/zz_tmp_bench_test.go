package feed

import (
	"math/bits"
	"testing"

	"github.com/emersion/go-ical"
)

func BenchmarkTmpScan(b *testing.B) {
	body := corpusFile(b, largeICal)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scanICal(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTmpDecodeOnly(b *testing.B) {
	body := corpusFile(b, largeICal)
	chunks, _ := scanICal(body)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := decodeICal(body, chunks, func(c *ical.Component) { n++ }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTmpLines(b *testing.B) {
	body := corpusFile(b, largeICal)
	for b.Loop() {
		n := 0
		for pos := 0; pos < len(body); {
			pos = lineEnd(body, pos)
			n++
		}
	}
}

func BenchmarkTmpLinesLoop(b *testing.B) {
	body := corpusFile(b, largeICal)
	for b.Loop() {
		n := 0
		for _, c := range body {
			if c == '\n' {
				n++
			}
		}
	}
}

func BenchmarkTmpConvert(b *testing.B) {
	body := corpusFile(b, largeICal)
	chunks, _ := scanICal(body)
	var cals []*ical.Component
	if err := decodeICal(body, chunks, func(c *ical.Component) { cals = append(cals, c) }); err != nil {
		b.Fatal(err)
	}
	c := converter{res: newResolver("https://example.com/feed"), doc: newResolver("https://example.com/feed")}
	b.ReportAllocs()
	for b.Loop() {
		zones := newZoneResolver()
		kept := 0
		for _, comp := range cals {
			if comp.Name == ical.CompEvent {
				if err := c.eventEntry(&Entry{}, comp, zones); err == nil {
					kept++
				}
				continue
			}
			zones.addDefinitions(comp)
			for _, ch := range comp.Children {
				if ch.Name == ical.CompEvent {
					if err := c.eventEntry(&Entry{}, ch, zones); err == nil {
						kept++
					}
				}
			}
		}
	}
}

func BenchmarkTmpScanDecode(b *testing.B) {
	body := corpusFile(b, largeICal)
	b.ReportAllocs()
	for b.Loop() {
		chunks, _ := scanICal(body)
		n := 0
		if err := decodeICal(body, chunks, func(c *ical.Component) { n++ }); err != nil {
			b.Fatal(err)
		}
	}
}

func swarLineEnd(body []byte, pos int) int {
	const lo = 0x0101010101010101
	const hi = 0x8080808080808080
	const nl = lo * '\n'
	for pos+8 <= len(body) {
		w := uint64(body[pos]) | uint64(body[pos+1])<<8 | uint64(body[pos+2])<<16 | uint64(body[pos+3])<<24 |
			uint64(body[pos+4])<<32 | uint64(body[pos+5])<<40 | uint64(body[pos+6])<<48 | uint64(body[pos+7])<<56
		x := w ^ nl
		if m := (x - lo) &^ x & hi; m != 0 {
			return pos + bitsTrailing(m)/8 + 1
		}
		pos += 8
	}
	for ; pos < len(body); pos++ {
		if body[pos] == '\n' {
			return pos + 1
		}
	}
	return len(body)
}

func bitsTrailing(m uint64) int {
	return bits.TrailingZeros64(m)
}

func bitsTrailingOld(m uint64) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

func BenchmarkTmpLinesSWAR(b *testing.B) {
	body := corpusFile(b, largeICal)
	for b.Loop() {
		n := 0
		for pos := 0; pos < len(body); {
			pos = swarLineEnd(body, pos)
			n++
		}
	}
}
