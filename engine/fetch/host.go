package fetch

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// HostOf returns the host that per-host politeness is keyed on: the
// lower-cased hostname of rawURL, port ignored, a trailing root dot
// dropped, an internationalised name in its ASCII (punycode) form and an IP
// address in its canonical text form, so that every spelling of one server
// yields the same key.
func HostOf(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("fetch: host of URL: %w", err)
	}
	host := u.Hostname()
	if host == "" {
		return "", errors.New("fetch: host of URL: no host in URL")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.WithZone("").String(), nil
	}
	host = strings.TrimSuffix(host, ".")
	ascii, err := asciiHost(host)
	if err != nil {
		return "", fmt.Errorf("fetch: host of URL: %w", err)
	}
	if ascii == "" {
		return "", errors.New("fetch: host of URL: no host in URL")
	}
	return strings.ToLower(ascii), nil
}

// asciiHost converts an internationalised host name to punycode and leaves
// ASCII names alone; IDNA's validation would reject ASCII names that DNS
// and browsers accept (underscores, for one).
func asciiHost(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return idna.Lookup.ToASCII(host)
		}
	}
	return host, nil
}
