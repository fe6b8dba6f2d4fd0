package fetch

import "time"

// Outcome is the small closed set of things a fetch can come to. The zero
// value is not a valid outcome, so a forgotten Result never reads as OK.
type Outcome int

// The outcomes of a fetch.
const (
	// OK: a 2xx answer; Body holds the decoded content.
	OK Outcome = iota + 1
	// NotModified: 304, the validators still match; no body.
	NotModified
	// RateLimited: 429 or 503; not a failure of the feed. See RetryAfter.
	RateLimited
	// Gone: 410, the publisher retired the feed.
	Gone
	// NotFound: 404.
	NotFound
	// ClientError: any other 4xx.
	ClientError
	// ServerError: 5xx other than 503, or a redirect without a location.
	ServerError
	// NetworkError: DNS, connect, TLS, timeout, a broken or undecodable
	// body, or the caller's context ending.
	NetworkError
	// Refused: the client would not go on: a private address, a scheme
	// other than http(s), too many redirects or a loop, credentials over
	// plain http, a body over the size limit. Permanent for this attempt:
	// retrying at once would be refused the same way.
	Refused
)

// String gives the snake_case name used in logs, metrics and storage.
func (o Outcome) String() string {
	switch o {
	case OK:
		return "ok"
	case NotModified:
		return "not_modified"
	case RateLimited:
		return "rate_limited"
	case Gone:
		return "gone"
	case NotFound:
		return "not_found"
	case ClientError:
		return "client_error"
	case ServerError:
		return "server_error"
	case NetworkError:
		return "network_error"
	case Refused:
		return "refused"
	}
	return "unknown"
}

// Link is one target of an HTTP Link header (RFC 8288), one per relation
// type: a header naming rel="alternate hub" yields two Links.
type Link struct {
	URL   string // resolved against the response's URL
	Rel   string // lower-cased relation type
	Type  string // lower-cased media type hint, as given; may be empty
	Title string // title, or the decoded title* when present
}

// Result says what a fetch came to. Every field describes the last
// response of the redirect chain unless it says otherwise.
type Result struct {
	Outcome    Outcome
	StatusCode int // 0 when no response arrived
	// Body is the decoded content of an OK answer; nil otherwise.
	Body []byte
	// Truncated reports that Request.PeekBytes cut Body short.
	Truncated   bool
	ContentType string
	// FinalURL is the URL that gave the last response, after redirects.
	FinalURL string
	// PermanentURL is the URL reached by the unbroken leading run of 301
	// and 308 redirects, set only when the final answer is 200 or 304:
	// the feed has moved and its stored URL should follow.
	PermanentURL string
	// ETag and LastModified are the response's validators.
	ETag, LastModified string
	// RetryAfter is the server's requested delay (see ParseRetryAfter).
	RetryAfter    time.Duration
	HasRetryAfter bool
	// MaxAge is Cache-Control max-age, a hint for the scheduler.
	MaxAge    time.Duration
	HasMaxAge bool
	// Links are the parsed HTTP Link headers.
	Links []Link
	// BytesRead counts body bytes received on the wire for the last
	// response, before decompression; len(Body) is the decoded size.
	BytesRead int64
	// Duration is the wall time of the whole fetch, redirects included.
	Duration time.Duration
	// Err says what went wrong; nil for OK and NotModified. It never
	// contains credentials or extra header values.
	Err error
}
