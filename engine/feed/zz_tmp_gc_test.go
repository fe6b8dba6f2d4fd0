package feed

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/emersion/go-ical"
)

func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}

func TestTmpGC(t *testing.T) {
	body := corpusFile(t, largeICal)
	run := func(name string, f func()) {
		runtime.GC()
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		g0 := gcCPU()
		start := time.Now()
		const n = 100
		for i := 0; i < n; i++ {
			f()
		}
		el := time.Since(start)
		runtime.ReadMemStats(&ms1)
		t.Logf("%s: %.2f ms/op, gc cpu %.2f ms/op, %.1f GCs/op", name, float64(el.Microseconds())/1000/n, (gcCPU()-g0)*1000/n, float64(ms1.NumGC-ms0.NumGC)/n)
	}
	for k := 0; k < 2; k++ {
		run("parse", func() { Parse(body, "text/calendar", "https://example.com/feed") })
		run("goical", func() {
			dec := ical.NewDecoder(bytes.NewReader(body))
			for {
				_, err := dec.Decode()
				if errors.Is(err, io.EOF) {
					break
				}
			}
		})
	}
}
