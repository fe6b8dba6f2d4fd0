package fetch

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/http/httpproxy"
)

const (
	defaultKeepAlive = 30 * time.Second
	idleConnTimeout  = 90 * time.Second
	// Per-host serialization means one request at a time per host; a
	// couple of idle connections is all reuse needs.
	maxIdleConnsPerHost = 2
)

// newTransport builds the one shared transport: keep-alive, HTTP/2,
// environment proxies, the guarded dialer, and no transparent
// decompression, because the size limit must see decoded bytes.
func newTransport(opts Options, proxies *httpproxy.Config) (*http.Transport, *guard) {
	proxyFor := proxies.ProxyFunc()
	g := newGuard(opts, proxyAddrs(proxies))
	t := &http.Transport{
		Proxy: func(r *http.Request) (*url.URL, error) {
			return proxyFor(r.URL)
		},
		DialContext: g.dialContext,
		// A custom DialContext turns HTTP/2 off unless forced back on.
		ForceAttemptHTTP2:     true,
		DisableCompression:    true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   maxIdleConnsPerHost,
		IdleConnTimeout:       idleConnTimeout,
		TLSHandshakeTimeout:   opts.ConnectTimeout,
		ExpectContinueTimeout: time.Second,
	}
	return t, g
}

// proxyAddrs lists the host:port the transport will dial for each
// configured proxy, in the form DialContext receives it.
func proxyAddrs(cfg *httpproxy.Config) map[string]bool {
	addrs := make(map[string]bool, 2)
	for _, raw := range []string{cfg.HTTPProxy, cfg.HTTPSProxy} {
		if addr := proxyAddr(raw); addr != "" {
			addrs[addr] = true
		}
	}
	return addrs
}

// proxyAddr parses a proxy setting the way the environment convention
// reads it (a bare "host:port" means http) and returns its lower-cased
// host:port with the scheme's default port filled in.
func proxyAddr(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		if u, err = url.Parse("http://" + raw); err != nil {
			return ""
		}
	}
	host := u.Hostname()
	if host == "" {
		return ""
	}
	if ascii, err := asciiHost(host); err == nil {
		host = ascii
	}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return strings.ToLower(net.JoinHostPort(host, port))
}
