package config

import (
	"log/slog"
	"strconv"
	"strings"
)

// redacted stands in for secrets in logs and printed configurations.
const redacted = "<redacted>"

// setting is one effective value as it may be shown.
type setting struct {
	name  string // the environment variable
	value string
}

// effective lists the effective settings for display, secrets redacted. The
// order follows Settings(); MYSQL_* and BOT_TOKEN_FILE are folded into
// DATABASE_URL and BOT_TOKEN.
func (c Config) effective() []setting {
	token := ""
	if c.BotToken != "" {
		token = redacted
	}
	level := strings.ToLower(c.LogLevel.String())
	return []setting{
		{"BOT_TOKEN", token},
		{"ADMIN_ID", strconv.FormatInt(c.AdminID, 10)},
		{"DATABASE_URL", redactDatabaseURL(c.DatabaseURL)},
		{"TELEGRAM_API_URL", c.TelegramAPIURL},
		{"POLL_TICK", c.PollTick.String()},
		{"POLL_INTERVAL", c.PollInterval.String()},
		{"POLL_INTERVAL_MAX", c.PollIntervalMax.String()},
		{"POLL_ADAPTIVE", strconv.FormatBool(c.PollAdaptive)},
		{"POLL_CONCURRENCY", strconv.Itoa(c.PollConcurrency)},
		{"POST_TEMPLATE", c.PostTemplate},
		{"ALLOW_PRIVATE_NETWORKS", strconv.FormatBool(c.AllowPrivateNetworks)},
		{"FETCH_TIMEOUT", c.FetchTimeout.String()},
		{"FETCH_MAX_BYTES", strconv.FormatInt(c.FetchMaxBytes, 10)},
		{"MEDIA_MAX_BYTES", strconv.FormatInt(c.MediaMaxBytes, 10)},
		{"ENTRY_RETENTION", c.EntryRetention.String()},
		{"BOT_TIMEZONE", c.BotTimezoneName},
		{"USER_AGENT", c.UserAgent},
		{"HTTP_ADDR", c.HTTPAddr},
		{"PUBLIC_URL", c.PublicURL},
		{"BOT_LANGUAGE", c.BotLanguage},
		{"LOG_LEVEL", level},
		{"LOG_FORMAT", c.LogFormat},
	}
}

// String renders the effective configuration as NAME=value pairs, quoting
// values where needed, with the token and any database password redacted. It
// is what %v and %+v print, so a Config is safe to format.
func (c Config) String() string {
	var b strings.Builder
	for i, s := range c.effective() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.name)
		b.WriteByte('=')
		b.WriteString(quoteIfNeeded(s.value))
	}
	return b.String()
}

// GoString makes %#v print the redacted form too, instead of the raw fields.
func (c Config) GoString() string { return "config.Config{" + c.String() + "}" }

// LogValue implements slog.LogValuer: logging a Config logs a group of the
// effective settings, keyed by lower-case setting names, secrets redacted.
func (c Config) LogValue() slog.Value {
	eff := c.effective()
	attrs := make([]slog.Attr, 0, len(eff))
	for _, s := range eff {
		attrs = append(attrs, slog.String(strings.ToLower(s.name), s.value))
	}
	return slog.GroupValue(attrs...)
}

// quoteIfNeeded quotes empty values and values with spaces, quotes or
// non-printable characters, so the pairs stay readable and unambiguous.
func quoteIfNeeded(v string) string {
	if v == "" || strings.ContainsAny(v, " '=") || strconv.Quote(v) != `"`+v+`"` {
		return strconv.Quote(v)
	}
	return v
}
