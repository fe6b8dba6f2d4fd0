package fetch

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// origin is a URL's scheme, host and port: the boundary credentials and
// per-feed headers never cross.
type origin struct {
	scheme, host, port string
}

func originOf(u *url.URL) origin {
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	return origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: port}
}

func defaultPort(scheme string) string {
	if strings.EqualFold(scheme, "https") {
		return "443"
	}
	return "80"
}

// takeUserinfo moves user information out of u into credentials, so that
// the same origin and https rules apply to it and it never shows in a URL
// we report or log. Explicit credentials win over ones in the URL.
func takeUserinfo(u *url.URL, creds *Credentials) *Credentials {
	if u.User == nil {
		return creds
	}
	if creds == nil {
		pass, _ := u.User.Password()
		creds = &Credentials{Username: u.User.Username(), Password: pass}
	}
	u.User = nil
	return creds
}

// authorization is the Authorization header value for creds, or "".
func (c *Credentials) authorization() string {
	switch {
	case c == nil:
		return ""
	case c.BearerToken != "":
		return "Bearer " + c.BearerToken
	case c.Username != "" || c.Password != "":
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.Username+":"+c.Password))
	}
	return ""
}

// setAuthorization adds credentials to one hop, but only over https: the
// chain drops them on leaving the origin, and this is the last line against
// sending a secret in clear.
func setAuthorization(h http.Header, u *url.URL, creds *Credentials) {
	if creds == nil || !strings.EqualFold(u.Scheme, "https") {
		return
	}
	if v := creds.authorization(); v != "" {
		h["Authorization"] = []string{v}
	}
}
