package feed

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

func TestTmpPhases(t *testing.T) {
	body := corpusFile(t, largeICal)
	variants := []struct {
		name string
		f    func()
	}{
		{"base", func() {
			dec := ical.NewDecoder(bytes.NewReader(body))
			for {
				if _, err := dec.Decode(); errors.Is(err, io.EOF) {
					break
				}
			}
		}},
		{"scan", func() { scanICal(body) }},
		{"scan+decode", func() {
			chunks, _ := scanICal(body)
			decodeICal(body, chunks, func(*ical.Component) {})
		}},
		{"parseICal", func() {
			c := converter{res: newResolver("https://example.com/feed"), doc: newResolver("https://example.com/feed")}
			c.parseICal(body)
		}},
		{"Parse", func() { Parse(body, "text/calendar", "https://example.com/feed") }},
	}
	res := make([][]float64, len(variants))
	for r := 0; r < 30; r++ {
		for i, v := range variants {
			start := time.Now()
			for k := 0; k < 4; k++ {
				v.f()
			}
			res[i] = append(res[i], float64(time.Since(start).Microseconds())/4000)
		}
	}
	for i, v := range variants {
		sort.Float64s(res[i])
		t.Logf("%-12s %.3f ms", v.name, res[i][len(res[i])/2])
	}
}
