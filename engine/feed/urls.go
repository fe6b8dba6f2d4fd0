package feed

import (
	"net/url"
	"strings"
)

// resolver turns references found in a feed into absolute URLs against the
// document's base URL (the final fetch URL). xml:base has already been
// applied by the XML parser where the document declares it.
type resolver struct {
	base *url.URL
}

func newResolver(baseURL string) resolver {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || !u.IsAbs() {
		return resolver{}
	}
	return resolver{base: u}
}

// resolve returns ref as an absolute URL when a base is known; a reference
// that cannot be parsed is returned trimmed, unchanged.
func (r resolver) resolve(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "data:") {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	if u.IsAbs() {
		return ref
	}
	if r.base == nil {
		return ref
	}
	return r.base.ResolveReference(u).String()
}
