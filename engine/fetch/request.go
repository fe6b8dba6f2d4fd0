package fetch

// Credentials authenticate a feed to its own origin: HTTP basic auth when
// Username or Password is set, a bearer token when BearerToken is set (the
// token wins when both are). They are sent only over HTTPS, only to the
// scheme, host and port of the requested URL, and never appear in logs or
// error texts.
type Credentials struct {
	Username    string
	Password    string
	BearerToken string
}

// String hides the secrets so that printing Credentials by mistake leaks
// nothing.
func (Credentials) String() string { return "fetch.Credentials{…}" }

// GoString hides the secrets from %#v as well.
func (c Credentials) GoString() string { return c.String() }

// Request describes one fetch.
type Request struct {
	// URL is the absolute http or https URL to get. User information in it
	// ("https://user:pass@host/") is treated as Credentials.
	URL string
	// ETag and LastModified are the validators of the last complete
	// successful fetch; they go out as If-None-Match and If-Modified-Since.
	ETag, LastModified string
	// Fresh asks for an unconditional request: the validators are ignored.
	Fresh bool
	// UserAgent overrides the client's User-Agent for this request (a
	// per-feed setting for sites that block bots).
	UserAgent string
	// Headers are per-feed extra request headers (a cookie, say). Like
	// credentials they go only to the requested origin; hop-by-hop and
	// encoding headers the client manages itself are ignored.
	Headers map[string]string
	// Credentials authenticate to the requested origin; see Credentials.
	Credentials *Credentials
	// Media applies MediaMaxBytes instead of MaxBytes and accepts any type.
	Media bool
	// NoRedirects reports a redirect as Refused instead of following it;
	// discovery uses it to probe well-known paths.
	NoRedirects bool
	// PeekBytes, when positive, reads at most that many decoded bytes and
	// stops without error, setting Result.Truncated; enough to sniff a
	// format without downloading a whole body.
	PeekBytes int64
}
