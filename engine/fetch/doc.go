// Package fetch is rssbot's one HTTP client: every feed, web page and media
// file is downloaded through it, so politeness and safety are decided in
// one place.
//
// A Client sends conditional GETs (If-None-Match, If-Modified-Since) and
// reports 304 as NotModified. It asks for gzip and brotli and decodes them
// itself, so that the size limit (Options.MaxBytes for feeds and pages,
// Options.MediaMaxBytes for media) applies to decoded bytes: a compression
// bomb stops at the limit. One request, redirects and body included, is
// bounded by Options.Timeout, connecting by Options.ConnectTimeout, and the
// caller's context cancels.
//
// Redirects are followed by hand, at most MaxRedirects, with loops and
// non-http(s) targets refused. The URL reached by the leading run of 301
// and 308 answers is reported as Result.PermanentURL when the chain ends in
// 200 or 304, so the caller can store the feed's new address; 302, 303 and
// 307 are only followed.
//
// The private-network guard runs in the dialer's Control hook, on the
// address actually being connected to, so it covers the first request,
// every redirect and DNS rebinding: loopback, RFC 1918, CGNAT, link-local,
// multicast, reserved and unspecified IPv4, IPv6 ULA, link-local and
// multicast, and IPv6 forms embedding any of those (see IsPrivate).
// Options.AllowPrivateNetworks lifts it. Proxies from HTTP_PROXY,
// HTTPS_PROXY and NO_PROXY are honoured and trusted: the guard applies to
// direct connections only.
//
// Per-feed credentials go only over https and only to the requested
// origin; the first redirect off that origin drops them, together with the
// per-feed extra headers, for the rest of the chain. They are never logged
// or put in an error.
//
// Every fetch ends in a Result whose Outcome is one of a small closed set
// (OK, NotModified, RateLimited, Gone, NotFound, ClientError, ServerError,
// NetworkError, Refused), with the validators, Retry-After, Cache-Control
// max-age and Link headers the scheduler and discovery need. The header
// parsers (ParseRetryAfter, ParseMaxAge, ParseLinkHeader) are exported pure
// functions. HostOf gives the key that per-host politeness uses.
package fetch
