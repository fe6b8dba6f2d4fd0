package config

import (
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"
)

// minInterval is the shortest duration any setting accepts: anything shorter
// is almost certainly a wrong unit, and would make the bot hammer feed
// servers and the database.
const minInterval = time.Second

// duration parses a Go duration of at least one second.
func (l *loader) duration(name string) time.Duration {
	v := l.get(name)
	d, err := time.ParseDuration(v)
	if err != nil {
		l.fail(name, err, "invalid duration %q", v)
		return 0
	}
	if d < minInterval {
		l.fail(name, nil, "must be at least %s, got %s", minInterval, d)
		return 0
	}
	return d
}

// boolean parses a strconv.ParseBool value.
func (l *loader) boolean(name string) bool {
	v := l.get(name)
	b, err := strconv.ParseBool(v)
	if err != nil {
		l.fail(name, err, "invalid boolean %q (use true or false)", v)
	}
	return b
}

// positive parses a decimal integer greater than zero that fits in bits.
func (l *loader) positive(name string, bits int) int64 {
	v := l.get(name)
	n, err := strconv.ParseInt(v, 10, bits)
	switch {
	case errors.Is(err, strconv.ErrRange):
		l.fail(name, err, "%s is out of range", v)
		return 0
	case err != nil:
		l.fail(name, err, "invalid integer %q", v)
		return 0
	case n <= 0:
		l.fail(name, nil, "must be positive, got %d", n)
		return 0
	}
	return n
}

// oneOf returns the lower-cased value if it is one of allowed.
func (l *loader) oneOf(name string, allowed ...string) string {
	v := strings.ToLower(l.get(name))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	l.fail(name, nil, "must be %s, got %q", alternatives(allowed), l.get(name))
	return ""
}

// alternatives renders a list as "a or b" or "a, b or c".
func alternatives(list []string) string {
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " or " + list[len(list)-1]
}

// logLevel parses LOG_LEVEL.
func (l *loader) logLevel() slog.Level {
	switch l.oneOf("LOG_LEVEL", "debug", "info", "warn", "error") {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

// httpURL parses an absolute http(s) base URL and drops a trailing slash, so
// callers can append paths. Empty stays empty.
func (l *loader) httpURL(name string) string {
	v := l.get(name)
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		l.fail(name, err, "must be an absolute http or https URL, got %q", v)
		return ""
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		l.fail(name, nil, "must not have a query or fragment, got %q", v)
		return ""
	}
	return strings.TrimRight(u.String(), "/")
}

// hostPort parses a listen address; empty stays empty (off).
func (l *loader) hostPort(name string) string {
	v := l.get(name)
	if v == "" {
		return ""
	}
	_, port, err := net.SplitHostPort(v)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16)
	}
	if err != nil {
		l.fail(name, err, "must be host:port (like :8080 or 127.0.0.1:8080), got %q", v)
		return ""
	}
	return v
}

// timezone loads BOT_TIMEZONE; on error it returns UTC so that nothing
// dereferences a nil zone while the error is being reported.
func (l *loader) timezone() *time.Location {
	name := l.get("BOT_TIMEZONE")
	loc, err := time.LoadLocation(name)
	if err != nil {
		l.fail("BOT_TIMEZONE", err, "unknown time zone %q (use an IANA name like Europe/Berlin)", name)
		return time.UTC
	}
	return loc
}

// userAgent returns USER_AGENT, or the default naming version.
func (l *loader) userAgent() string {
	if !l.isSet("USER_AGENT") {
		version := l.version
		if version == "" {
			version = "dev"
		}
		return strings.ReplaceAll(l.defaults["USER_AGENT"], versionPlaceholder, version)
	}
	v := l.get("USER_AGENT")
	if !httpguts.ValidHeaderFieldValue(v) {
		l.fail("USER_AGENT", nil, "contains characters not allowed in an HTTP header: %q", v)
		return ""
	}
	return v
}

// postTemplate returns the template path: POST_TEMPLATE, which must be a
// readable file, or the default file if it is present, or "" for the built-in
// template.
func (l *loader) postTemplate() string {
	if !l.isSet("POST_TEMPLATE") {
		p := l.path(l.defaults["POST_TEMPLATE"])
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		return ""
	}
	v := l.get("POST_TEMPLATE")
	p := l.path(v)
	if err := readableFile(p); err != nil {
		l.fail("POST_TEMPLATE", err, "cannot read %q: %v", p, err)
		return ""
	}
	return p
}

// readableFile checks that p is a regular file this process may open; the
// error is the bare cause ("no such file or directory", "not a regular
// file"). It stats before opening, because opening a FIFO would block.
func readableFile(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return bareCause(err)
	}
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	f, err := os.Open(p)
	if err != nil {
		return bareCause(err)
	}
	return f.Close()
}

// bareCause strips the operation and path from a *fs.PathError, since the
// message around it already names the file.
func bareCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
