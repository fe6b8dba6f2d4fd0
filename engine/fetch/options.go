package fetch

import (
	"log/slog"
	"net"
	"time"
)

// Defaults applied by New to zero-valued Options fields. They mirror the
// settings table in DESIGN.md.
const (
	DefaultUserAgent      = "rssbot/dev (+https://github.com/rssbot/rssbot)"
	DefaultTimeout        = 30 * time.Second
	DefaultConnectTimeout = 10 * time.Second
	DefaultMaxBytes       = 16 << 20
	DefaultMediaMaxBytes  = 20 << 20
)

// MaxRedirects is how many redirects one fetch follows before giving up.
const MaxRedirects = 10

// Options configure a Client. The zero value is usable: every empty field
// gets its default.
type Options struct {
	// UserAgent is sent with every request unless the Request overrides it
	// (USER_AGENT). Default DefaultUserAgent.
	UserAgent string
	// Timeout bounds one whole fetch: every redirect hop and reading the
	// body (FETCH_TIMEOUT). Default 30 s.
	Timeout time.Duration
	// ConnectTimeout bounds establishing one connection, TLS included.
	// Default 10 s.
	ConnectTimeout time.Duration
	// MaxBytes limits a decoded feed or page body (FETCH_MAX_BYTES).
	// Default 16 MiB.
	MaxBytes int64
	// MediaMaxBytes limits a decoded media download (MEDIA_MAX_BYTES).
	// Default 20 MiB.
	MediaMaxBytes int64
	// AllowPrivateNetworks lifts the private-network guard
	// (ALLOW_PRIVATE_NETWORKS); for development and tests only.
	AllowPrivateNetworks bool
	// Resolver resolves host names for direct connections; nil uses the
	// system default. Tests inject one that maps names to loopback.
	Resolver *net.Resolver
	// Logger receives debug lines about requests; nil uses slog.Default.
	// Credentials, extra headers and URLs never reach it.
	Logger *slog.Logger
}

// withDefaults fills the zero-valued fields.
func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MediaMaxBytes <= 0 {
		o.MediaMaxBytes = DefaultMediaMaxBytes
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
