package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// finish turns the last response of the chain into a Result, reading the
// body only for a success.
func (c *Client) finish(resp *http.Response, req *Request, st *chain) Result {
	h := resp.Header
	res := Result{
		StatusCode:   resp.StatusCode,
		ContentType:  h.Get("Content-Type"),
		FinalURL:     st.u.String(),
		ETag:         h.Get("ETag"),
		LastModified: h.Get("Last-Modified"),
		Links:        ParseLinkHeader(h.Values("Link"), st.u),
	}
	res.RetryAfter, res.HasRetryAfter = ParseRetryAfter(h.Values("Retry-After"), c.now())
	if cc := h.Values("Cache-Control"); len(cc) > 0 {
		res.MaxAge, res.HasMaxAge = ParseMaxAge(strings.Join(cc, ", "))
	}
	if st.permanent != "" && (resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNotModified) {
		res.PermanentURL = st.permanent
	}
	res.Outcome = outcomeOf(resp.StatusCode)
	if res.Outcome != OK {
		discard(resp)
		if res.Outcome != NotModified {
			res.Err = statusError(resp)
		}
		return res
	}
	defer resp.Body.Close()
	limit, peek := c.opts.MaxBytes, false
	if req.Media {
		limit = c.opts.MediaMaxBytes
	}
	if req.PeekBytes > 0 && req.PeekBytes < limit {
		limit, peek = req.PeekBytes, true
	}
	read, err := readBody(resp, limit, peek)
	res.BytesRead = read.wire
	if err != nil {
		var tooLarge *TooLargeError
		if errors.As(err, &tooLarge) {
			res.Outcome = Refused
		} else {
			res.Outcome = NetworkError
		}
		res.Err = err
		return res
	}
	res.Body, res.Truncated = read.body, read.truncated
	return res
}

// outcomeOf classifies a final (non-redirect) status code.
func outcomeOf(code int) Outcome {
	switch {
	case code >= 200 && code < 300:
		return OK
	case code == http.StatusNotModified:
		return NotModified
	case code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		return RateLimited
	case code == http.StatusGone:
		return Gone
	case code == http.StatusNotFound:
		return NotFound
	case code >= 400 && code < 500:
		return ClientError
	}
	// 5xx, and the odd 1xx/3xx that is not a followable redirect: the
	// server did not give a usable answer.
	return ServerError
}

func statusError(resp *http.Response) error {
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return fmt.Errorf("%w without a usable Location", &StatusError{Code: resp.StatusCode})
	}
	return &StatusError{Code: resp.StatusCode}
}
