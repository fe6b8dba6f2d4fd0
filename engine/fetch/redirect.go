package fetch

import (
	"fmt"
	"net/http"
	"net/url"
)

// chain is the state carried from one redirect hop to the next.
type chain struct {
	u        *url.URL
	origin   origin
	creds    *Credentials
	onOrigin bool     // still on the requested origin: credentials and headers go out
	visited  []string // URLs requested so far, to reject loops
	// permanent is the target of the leading run of 301/308; inRun turns
	// false at the first other redirect.
	permanent string
	inRun     bool
}

// follow vets a redirect and moves the chain to its target, or says why
// the chain stops there.
func (st *chain) follow(code int, loc string, hop int, noRedirects bool) (Result, bool) {
	next, err := st.u.Parse(loc)
	if err != nil {
		return Result{Outcome: ServerError, Err: fmt.Errorf("fetch: HTTP %d with invalid Location: %w", code, redactURLError(err))}, true
	}
	next.User = nil // a redirect never brings credentials of its own
	next.Fragment, next.RawFragment = "", ""
	switch {
	case noRedirects:
		return refused(fmt.Errorf("%w: HTTP %d to %s", ErrRedirectNotFollowed, code, next.Redacted())), true
	case !httpScheme(next) || next.Host == "":
		return refused(fmt.Errorf("%w: redirect to %q", ErrScheme, next.Scheme+":")), true
	case hop >= MaxRedirects:
		return refused(fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, MaxRedirects)), true
	}
	target := next.String()
	for _, seen := range st.visited {
		if seen == target {
			return refused(fmt.Errorf("%w: %s", ErrRedirectLoop, target)), true
		}
	}
	st.visited = append(st.visited, target)
	if st.inRun && (code == http.StatusMovedPermanently || code == http.StatusPermanentRedirect) {
		st.permanent = target
	} else {
		st.inRun = false
	}
	if originOf(next) != st.origin {
		// Once off the origin, the rest of the chain is untrusted even if
		// it comes back.
		st.onOrigin = false
	}
	st.u = next
	return Result{}, false
}

// redirectLocation reports whether resp is a redirect to follow, and
// where. A redirect status without Location is an answer in its own right.
func redirectLocation(resp *http.Response) (string, bool) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		loc := resp.Header.Get("Location")
		return loc, loc != ""
	}
	return "", false
}
