package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// postAnswerLimit bounds how much of an answer to a POST is kept: hubs
// answer with a short reason at most.
const postAnswerLimit = 4096

// PostAnswer is what a server said to a POST.
type PostAnswer struct {
	StatusCode int
	// Body is the start of the answer (at most 4 KiB), for error messages.
	Body string
}

// PostForm sends form as application/x-www-form-urlencoded to rawURL, as a
// WebSub subscriber does to a hub. It goes through the same guarded
// transport as every fetch (a hub on a private address is refused unless
// private networks are allowed), with the client's User-Agent and time
// limit. Redirects are not followed: a hub answers a subscription request
// itself. The error is set only when no answer came; any status is an
// answer.
func (c *Client) PostForm(ctx context.Context, rawURL string, form url.Values) (PostAnswer, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return PostAnswer{}, fmt.Errorf("fetch: post: invalid URL")
	}
	if !httpScheme(u) || u.Host == "" {
		return PostAnswer{}, fmt.Errorf("fetch: post: %w", ErrScheme)
	}
	if u.User != nil {
		// Credentials in a hub URL would go out in clear on every request.
		return PostAnswer{}, fmt.Errorf("fetch: post: credentials in a hub URL are not sent")
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return PostAnswer{}, fmt.Errorf("fetch: post: %w", err)
	}
	hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hr.Header.Set("User-Agent", c.opts.UserAgent)
	resp, err := c.http.Do(hr)
	if err != nil {
		return PostAnswer{}, fmt.Errorf("fetch: post %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, postAnswerLimit))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	return PostAnswer{StatusCode: resp.StatusCode, Body: string(b)}, nil
}
