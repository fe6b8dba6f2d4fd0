package fetch

import (
	"net/http"
	"net/textproto"
)

const (
	// feedAccept prefers every feed format, then pages (for discovery),
	// then anything.
	feedAccept = "application/rss+xml, application/atom+xml, application/feed+json, " +
		"application/json, text/calendar, application/xml, text/xml, " +
		"text/html;q=0.8, */*;q=0.5"
	mediaAccept = "*/*"
	// acceptEncoding lists what decodeBody understands.
	acceptEncoding = "gzip, br"
)

// managedHeader reports the request headers the client sets or the
// transport owns, which per-feed extra headers may not override: encoding
// (the size limit depends on decoding ourselves), framing and hop-by-hop
// fields.
func managedHeader(canonical string) bool {
	switch canonical {
	case "Accept-Encoding", "Connection", "Content-Length", "Host", "Keep-Alive",
		"Proxy-Authorization", "Proxy-Connection", "Te", "Trailer",
		"Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}

// requestHeaders builds the headers of one hop. sameOrigin says whether the
// hop still targets the requested origin, which gates the per-feed extra
// headers (they may carry a session cookie).
func (c *Client) requestHeaders(req *Request, originHeaders bool) http.Header {
	h := make(http.Header, 8)
	ua := req.UserAgent
	if ua == "" {
		ua = c.opts.UserAgent
	}
	h["User-Agent"] = []string{ua}
	if req.Media {
		h["Accept"] = []string{mediaAccept}
	} else {
		h["Accept"] = []string{feedAccept}
	}
	h["Accept-Encoding"] = []string{acceptEncoding}
	if !req.Fresh {
		if req.ETag != "" {
			h["If-None-Match"] = []string{req.ETag}
		}
		if req.LastModified != "" {
			h["If-Modified-Since"] = []string{req.LastModified}
		}
	}
	if originHeaders {
		for k, v := range req.Headers {
			k = textproto.CanonicalMIMEHeaderKey(k)
			if !managedHeader(k) {
				h[k] = []string{v}
			}
		}
	}
	return h
}
