package feed

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

func TestTmpRatio(t *testing.T) {
	body := corpusFile(t, largeICal)
	rounds, _ := strconv.Atoi(os.Getenv("ROUNDS"))
	if rounds == 0 {
		rounds = 40
	}
	time1 := func(f func()) float64 {
		start := time.Now()
		for i := 0; i < 5; i++ {
			f()
		}
		return float64(time.Since(start).Microseconds()) / 5000
	}
	parse := func() { Parse(body, "text/calendar", "https://example.com/feed") }
	base := func() {
		dec := ical.NewDecoder(bytes.NewReader(body))
		for {
			if _, err := dec.Decode(); errors.Is(err, io.EOF) {
				break
			}
		}
	}
	var ps, bs, rs []float64
	for i := 0; i < rounds; i++ {
		p := time1(parse)
		b := time1(base)
		ps, bs, rs = append(ps, p), append(bs, b), append(rs, p/b)
	}
	med := func(x []float64) float64 { sort.Float64s(x); return x[len(x)/2] }
	t.Logf("parse %.2f ms, base %.2f ms, ratio of medians %.3f, median ratio %.3f", med(ps), med(bs), med(ps)/med(bs), med(rs))
}
