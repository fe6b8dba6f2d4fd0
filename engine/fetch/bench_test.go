package fetch

import (
	"context"
	"net/http"
	"testing"
)

// BenchmarkConditional304 measures the steady state of polling: a
// conditional request answered 304 by a local server over a kept-alive
// connection. Run the 10,000 requests with
// `go test -bench Conditional304 -benchmem -benchtime 10000x ./engine/fetch`.
func BenchmarkConditional304(b *testing.B) {
	const etag = `"abc"`
	srv, _ := newServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		_, _ = w.Write([]byte("<rss/>"))
	}))
	c := newClient(b, Options{}, false)
	req := Request{URL: srv.URL + "/feed", ETag: etag, LastModified: "Tue, 03 Mar 2026 10:00:00 GMT"}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if res := c.Fetch(ctx, req); res.Outcome != NotModified {
			b.Fatalf("outcome %v: %v", res.Outcome, res.Err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}
