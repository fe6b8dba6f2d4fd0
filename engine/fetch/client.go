package fetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// Client is the one HTTP client for feeds, pages and media. It is safe for
// concurrent use and should be shared: it holds the connection pool.
type Client struct {
	opts      Options
	guard     *guard
	transport *http.Transport
	http      *http.Client
	log       *slog.Logger
	now       func() time.Time
}

// New returns a Client configured by opts (zero fields get defaults). The
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY environment variables are read
// once, here.
func New(opts Options) *Client {
	opts = opts.withDefaults()
	t, g := newTransport(opts, httpproxy.FromEnvironment())
	return &Client{
		opts:      opts,
		guard:     g,
		transport: t,
		http: &http.Client{
			Transport: t,
			// Redirects are followed by hand so that every hop is vetted
			// and the permanent URL can be worked out.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		log: opts.Logger,
		now: time.Now,
	}
}

// CloseIdleConnections closes the pooled connections that are idle.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Fetch performs one GET, following redirects by hand, and says what came
// of it. It never panics on bad input and always returns a Result whose
// Outcome is set; Err explains every outcome but OK and NotModified. The
// caller's ctx cancels; Options.Timeout bounds the whole fetch.
func (c *Client) Fetch(ctx context.Context, req Request) Result {
	start := c.now()
	limited, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	res := c.fetch(limited, &req)
	res.Duration = c.now().Sub(start)
	if res.Outcome == NetworkError && errors.Is(limited.Err(), context.DeadlineExceeded) {
		res.Err = timeoutError(ctx, c.opts.Timeout, res.Err)
	}
	c.logResult(req.URL, &res)
	return res
}

func (c *Client) fetch(ctx context.Context, req *Request) Result {
	u, err := url.Parse(req.URL)
	if err != nil {
		if strings.Contains(req.URL, "@") {
			// The parser's message may quote part of a password.
			return refused(errors.New("fetch: invalid URL"))
		}
		return refused(fmt.Errorf("fetch: invalid URL: %w", err))
	}
	if !httpScheme(u) || u.Host == "" {
		return refused(ErrScheme)
	}
	u.Fragment, u.RawFragment = "", ""
	st := &chain{u: u, origin: originOf(u), onOrigin: true, inRun: true}
	st.creds = takeUserinfo(u, req.Credentials)
	if st.creds != nil && st.creds.authorization() != "" && u.Scheme != "https" {
		return refused(ErrCredentialsOverHTTP)
	}
	st.visited = append(st.visited, u.String())
	for hop := 0; ; hop++ {
		resp, err := c.roundTrip(ctx, req, st)
		if err != nil {
			return transportFailure(err, st.u)
		}
		loc, isRedirect := redirectLocation(resp)
		if !isRedirect {
			return c.finish(resp, req, st)
		}
		discard(resp)
		if res, stop := st.follow(resp.StatusCode, loc, hop, req.NoRedirects); stop {
			res.StatusCode = resp.StatusCode
			res.FinalURL = st.u.String()
			return res
		}
	}
}

// roundTrip sends one hop.
func (c *Client) roundTrip(ctx context.Context, req *Request, st *chain) (*http.Response, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, st.u.String(), nil)
	if err != nil {
		return nil, err
	}
	hr.Header = c.requestHeaders(req, st.onOrigin)
	if st.onOrigin {
		setAuthorization(hr.Header, st.u, st.creds)
	}
	return c.http.Do(hr)
}

func httpScheme(u *url.URL) bool {
	return u.Scheme == "http" || u.Scheme == "https"
}

func refused(err error) Result {
	return Result{Outcome: Refused, Err: err}
}

// transportFailure turns an error from the round trip into a Result: the
// guard's refusal as itself, anything else as a network error.
func transportFailure(err error, u *url.URL) Result {
	res := Result{FinalURL: u.String()}
	var private *PrivateAddressError
	if errors.As(err, &private) {
		res.Outcome, res.Err = Refused, private
		return res
	}
	res.Outcome, res.Err = NetworkError, fmt.Errorf("fetch: %w", redactURLError(err))
	return res
}

// timeoutError restates a failure caused by a deadline so the text says so
// plainly, naming the limit when it was ours rather than the caller's. The
// original error stays wrapped.
func timeoutError(parent context.Context, limit time.Duration, err error) error {
	prefix := "fetch: timed out: "
	if parent.Err() == nil {
		prefix = fmt.Sprintf("fetch: timed out after %s: ", limit)
	}
	return &wrappedError{msg: prefix + strings.TrimPrefix(err.Error(), "fetch: "), err: err}
}

// wrappedError is an error with its own text around a cause.
type wrappedError struct {
	msg string
	err error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.err }

// redactURLError strips passwords from a *url.Error's URL; our URLs carry
// none once takeUserinfo ran, but a parse error can echo the raw input.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			ue.URL = u.Redacted()
		} else {
			ue.URL = "(unparsable URL)"
		}
	}
	return err
}

func (c *Client) logResult(rawURL string, res *Result) {
	if !c.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	host, _ := HostOf(rawURL)
	attrs := []any{"host", host, "outcome", res.Outcome.String(), "status", res.StatusCode,
		"bytes", res.BytesRead, "duration", res.Duration}
	if res.Err != nil {
		attrs = append(attrs, "error", res.Err)
	}
	c.log.Debug("fetch: done", attrs...)
}
