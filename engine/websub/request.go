package websub

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Modes of hub.mode.
const (
	ModeSubscribe   = "subscribe"
	ModeUnsubscribe = "unsubscribe"
	ModeDenied      = "denied"
)

// DefaultLease is the lease asked of hubs: ten days.
const DefaultLease = 10 * 24 * time.Hour

// CallbackPath is where the callback handler is mounted under PUBLIC_URL.
const CallbackPath = "/websub/"

// Form is the body of a (un)subscription request to a hub (WebSub §5.1).
// The secret and lease go only with subscribe.
func Form(mode, topic, callback, secret string, lease time.Duration) url.Values {
	v := url.Values{"hub.mode": {mode}, "hub.topic": {topic}, "hub.callback": {callback}}
	if mode == ModeSubscribe {
		if secret != "" {
			v.Set("hub.secret", secret)
		}
		if lease > 0 {
			v.Set("hub.lease_seconds", strconv.FormatInt(int64(lease/time.Second), 10))
		}
	}
	return v
}

// CallbackURL joins the public base URL and a subscription's token.
func CallbackURL(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + CallbackPath + token
}

// NewToken returns a random callback token: 128 bits, hex.
func NewToken() string { return randomHex(16) }

// NewSecret returns a random hub.secret: 256 bits, hex (under the 200
// bytes WebSub allows).
func NewSecret() string { return randomHex(32) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// RenewAt is when a lease granted at verified for lease is renewed: at 90 %
// of it, so that a slow hub still answers before expiry.
func RenewAt(verified time.Time, lease time.Duration) time.Time {
	return verified.Add(lease - lease/10)
}

// RetryAfter is how long the subscriber waits before asking a hub again
// after a failed request or a denial.
func RetryAfter(state string) time.Duration {
	if state == "denied" {
		return 24 * time.Hour
	}
	return time.Hour
}
