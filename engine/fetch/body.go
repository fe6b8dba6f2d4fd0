package fetch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
)

// maxEncodings bounds stacked Content-Encodings ("gzip, gzip, …"), each
// of which costs a decoder.
const maxEncodings = 3

// drainLimit is how much of an unwanted body (a redirect, an error page) is
// read so the connection can be reused; beyond it closing is cheaper.
const drainLimit = 64 << 10

// countingReader counts the bytes that pass through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// bodyRead is what reading a response body produced.
type bodyRead struct {
	body      []byte
	wire      int64 // bytes received, before decoding
	truncated bool
}

// readBody reads and decodes resp.Body up to limit decoded bytes. With peek
// it stops quietly at the limit; otherwise a longer body is a
// *TooLargeError, caught from Content-Length before reading when the body
// is not encoded, and while streaming in every case, so a compression bomb
// stops at the limit.
func readBody(resp *http.Response, limit int64, peek bool) (bodyRead, error) {
	encodings := contentEncodings(resp.Header)
	if !peek && len(encodings) == 0 && resp.ContentLength > limit {
		return bodyRead{}, &TooLargeError{Limit: limit}
	}
	wire := &countingReader{r: resp.Body}
	decoded, err := decodeBody(wire, encodings)
	if err != nil {
		return bodyRead{wire: wire.n}, err
	}
	var buf bytes.Buffer
	if len(encodings) == 0 && resp.ContentLength > 0 {
		buf.Grow(int(min(resp.ContentLength, limit)) + bytes.MinRead)
	}
	_, err = buf.ReadFrom(io.LimitReader(decoded, limit+1))
	out := bodyRead{body: buf.Bytes(), wire: wire.n}
	if int64(len(out.body)) > limit {
		if !peek {
			return bodyRead{wire: wire.n}, &TooLargeError{Limit: limit}
		}
		out.body, out.truncated, err = out.body[:limit], true, nil
	}
	if err != nil {
		return bodyRead{wire: wire.n}, fmt.Errorf("fetch: reading body: %w", err)
	}
	return out, nil
}

// contentEncodings lists the codings applied to the body, in the order
// they were applied, without "identity".
func contentEncodings(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Content-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			part = strings.ToLower(strings.TrimSpace(part))
			if part != "" && part != "identity" {
				out = append(out, part)
			}
		}
	}
	return out
}

// decodeBody stacks decoders in reverse order of application.
func decodeBody(r io.Reader, encodings []string) (io.Reader, error) {
	if len(encodings) > maxEncodings {
		return nil, fmt.Errorf("fetch: %d stacked content encodings", len(encodings))
	}
	for i := len(encodings) - 1; i >= 0; i-- {
		var err error
		switch encodings[i] {
		case "gzip", "x-gzip":
			r, err = gunzip(r)
		case "br":
			r = brotli.NewReader(r)
		case "deflate":
			// HTTP "deflate" is the zlib format.
			r, err = zlib.NewReader(r)
		default:
			return nil, fmt.Errorf("fetch: unsupported content encoding %q", encodings[i])
		}
		if err != nil {
			return nil, fmt.Errorf("fetch: decoding %s body: %w", encodings[i], err)
		}
	}
	return r, nil
}

// gunzip decodes gzip, but passes the body through when it does not start
// with the gzip magic: some servers label plain bodies gzip, and the
// content is still good.
func gunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil && len(magic) < 2 {
		return br, nil // empty or one byte: not gzip whatever the label says
	}
	if magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil
	}
	return gzip.NewReader(br)
}

// discard drains a little of an unwanted body so the connection can be
// reused, then closes it.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, drainLimit))
	_ = resp.Body.Close()
}
