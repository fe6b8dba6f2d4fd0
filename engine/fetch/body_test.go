package fetch

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func gzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodedHandler(encoding string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if encoding != "" {
			w.Header().Set("Content-Encoding", encoding)
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		_, _ = w.Write(body)
	}
}

func TestCompression(t *testing.T) {
	plain := []byte(strings.Repeat("<item>compressible</item>", 200))
	var br, zl bytes.Buffer
	bw := brotli.NewWriter(&br)
	_, _ = bw.Write(plain)
	_ = bw.Close()
	zw := zlib.NewWriter(&zl)
	_, _ = zw.Write(plain)
	_ = zw.Close()
	gz := gzipBytes(t, plain)

	cases := []struct {
		name, encoding string
		wire           []byte
	}{
		{"gzip", "gzip", gz},
		{"x-gzip", "x-gzip", gz},
		{"brotli", "br", br.Bytes()},
		{"deflate (zlib)", "deflate", zl.Bytes()},
		{"identity", "", plain},
		{"double gzip", "gzip, gzip", gzipBytes(t, gz)},
		// A body labelled gzip that is not: passed through, not failed.
		{"mislabelled plain body", "gzip", plain},
	}
	c := newClient(t, Options{}, false)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := newServer(t, encodedHandler(tc.encoding, tc.wire))
			res := c.Fetch(context.Background(), Request{URL: srv.URL})
			if res.Outcome != OK || !bytes.Equal(res.Body, plain) {
				t.Fatalf("%v %v, body %d bytes, want %d decoded bytes", res.Outcome, res.Err, len(res.Body), len(plain))
			}
			if res.BytesRead != int64(len(tc.wire)) {
				t.Fatalf("BytesRead = %d, want the %d bytes on the wire", res.BytesRead, len(tc.wire))
			}
		})
	}

	srv, _ := newServer(t, encodedHandler("zstd", plain))
	res := c.Fetch(context.Background(), Request{URL: srv.URL})
	if res.Outcome != NetworkError || res.Err == nil || !strings.Contains(res.Err.Error(), `unsupported content encoding "zstd"`) {
		t.Fatalf("unknown encoding: %v %v", res.Outcome, res.Err)
	}
	srv, _ = newServer(t, encodedHandler("gzip", append([]byte{0x1f, 0x8b}, "broken"...)))
	if res := c.Fetch(context.Background(), Request{URL: srv.URL}); res.Outcome != NetworkError {
		t.Fatalf("corrupt gzip: %v %v", res.Outcome, res.Err)
	}
}

// A gzip bomb stops at the decoded limit: 64 MiB of zeros compress to
// about 64 KiB, and the client gives up after decoding 16 MiB, well before
// the end of the compressed stream.
func TestGzipBombStopsAtLimit(t *testing.T) {
	bomb := gzipBytes(t, make([]byte, 64<<20))
	srv, _ := newServer(t, encodedHandler("gzip", bomb))
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL})
	if res.Outcome != Refused || res.Err == nil || res.Err.Error() != "fetch: response larger than 16 MiB" {
		t.Fatalf("bomb: %v %v", res.Outcome, res.Err)
	}
	var tl *TooLargeError
	if !errors.As(res.Err, &tl) || tl.Limit != DefaultMaxBytes {
		t.Fatalf("err is not a *TooLargeError with the limit: %v", res.Err)
	}
	if res.Body != nil {
		t.Fatal("a refused body must not be returned")
	}
	if res.BytesRead >= int64(len(bomb))/2 {
		t.Fatalf("read %d of %d compressed bytes; decoding must stop at the limit", res.BytesRead, len(bomb))
	}
}

func TestSizeLimits(t *testing.T) {
	const limit = 1 << 10
	c := newClient(t, Options{MaxBytes: limit, MediaMaxBytes: 4 << 10}, false)
	ctx := context.Background()
	sized := func(n int, declare bool) string {
		srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if declare {
				w.Header().Set("Content-Length", strconv.Itoa(n))
			}
			body := bytes.Repeat([]byte("a"), n)
			for len(body) > 0 { // several writes: chunked when undeclared
				k := min(len(body), 300)
				_, _ = w.Write(body[:k])
				w.(http.Flusher).Flush()
				body = body[k:]
			}
		}))
		return srv.URL
	}
	cases := []struct {
		name    string
		url     string
		media   bool
		outcome Outcome
		err     string
	}{
		{"exactly the limit", sized(limit, true), false, OK, ""},
		{"declared over the limit", sized(limit+1, true), false, Refused, "fetch: response larger than 1 KiB"},
		{"streamed over the limit", sized(2*limit, false), false, Refused, "fetch: response larger than 1 KiB"},
		{"media has its own limit", sized(2*limit, false), true, OK, ""},
		{"over the media limit", sized(5*limit, true), true, Refused, "fetch: response larger than 4 KiB"},
	}
	for _, tc := range cases {
		res := c.Fetch(ctx, Request{URL: tc.url, Media: tc.media})
		if res.Outcome != tc.outcome || (tc.err != "" && (res.Err == nil || res.Err.Error() != tc.err)) {
			t.Errorf("%s: %v %v, want %v %q", tc.name, res.Outcome, res.Err, tc.outcome, tc.err)
		}
	}
}

// A body declared too large is refused from Content-Length alone.
func TestDeclaredLengthRefusedBeforeReading(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(17<<20))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("only the start"))
	}))
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL})
	if res.Outcome != Refused || res.BytesRead != 0 {
		t.Fatalf("%v %v after reading %d bytes", res.Outcome, res.Err, res.BytesRead)
	}
}

func TestPeekBytes(t *testing.T) {
	srv, _ := newServer(t, encodedHandler("gzip", gzipBytes(t, bytes.Repeat([]byte("0123456789"), 1000))))
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL, PeekBytes: 25})
	if res.Outcome != OK || !res.Truncated || string(res.Body) != "0123456789012345678901234" {
		t.Fatalf("%v %v truncated=%v %q", res.Outcome, res.Err, res.Truncated, res.Body)
	}
	res = newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL, PeekBytes: 1 << 20})
	if res.Outcome != OK || res.Truncated || len(res.Body) != 10000 {
		t.Fatalf("peek larger than body: %v truncated=%v len=%d", res.Outcome, res.Truncated, len(res.Body))
	}
}

func TestFormatSize(t *testing.T) {
	cases := map[int64]string{
		16 << 20: "16 MiB", 20 << 20: "20 MiB", 1 << 10: "1 KiB", 1536: "1536 bytes",
		3 << 19: "1536 KiB", 1000: "1000 bytes", 1: "1 byte",
	}
	for n, want := range cases {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
