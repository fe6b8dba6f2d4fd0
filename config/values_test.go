package config

import (
	"log/slog"
	"reflect"
	"testing"
	"time"
)

// valueCase is one setting value and what Load makes of it: either the field
// value or the exact message.
type valueCase struct {
	rule  string
	env   map[string]string
	field func(Config) any
	want  any
	err   string
}

func tick(c Config) any        { return c.PollTick }
func interval(c Config) any    { return c.PollInterval }
func intervalMax(c Config) any { return c.PollIntervalMax }

// durationCases covers the rules every duration setting shares.
func durationCases() []valueCase {
	fields := []struct {
		name  string
		field func(Config) any
	}{
		{"POLL_TICK", tick},
		{"POLL_INTERVAL", interval},
		{"POLL_INTERVAL_MAX", intervalMax},
		{"FETCH_TIMEOUT", func(c Config) any { return c.FetchTimeout }},
		{"ENTRY_RETENTION", func(c Config) any { return c.EntryRetention }},
	}
	var out []valueCase
	for _, f := range fields {
		// POLL_INTERVAL_MAX must stay >= POLL_INTERVAL: pin the base low so
		// the shared cases test only the value itself.
		env := func(v string) map[string]string { return map[string]string{f.name: v, "POLL_INTERVAL": "1s"} }
		if f.name == "POLL_INTERVAL" {
			env = func(v string) map[string]string { return map[string]string{f.name: v} }
		}
		out = append(out,
			valueCase{"durations accept Go syntax", env("90s"), f.field, 90 * time.Second, ""},
			valueCase{"durations accept Go syntax", env("1h30m"), f.field, 90 * time.Minute, ""},
			valueCase{"one second is the minimum", env("1s"), f.field, time.Second, ""},
			valueCase{"surrounding spaces are ignored", env(" 2m "), f.field, 2 * time.Minute, ""},
			valueCase{"a bad value names setting and value", env("10 minutes"), f.field, nil, f.name + `: invalid duration "10 minutes"`},
			valueCase{"a bare number has no unit", env("600"), f.field, nil, f.name + `: invalid duration "600"`},
			valueCase{"intervals below one second are refused", env("500ms"), f.field, nil, f.name + ": must be at least 1s, got 500ms"},
			valueCase{"zero is below one second", env("0"), f.field, nil, f.name + ": must be at least 1s, got 0s"},
			valueCase{"negative is below one second", env("-5m"), f.field, nil, f.name + ": must be at least 1s, got -5m0s"},
		)
	}
	return out
}

// otherCases covers every non-duration setting parsed by values.go and token.go.
func otherCases() []valueCase {
	adaptive := func(c Config) any { return c.PollAdaptive }
	private := func(c Config) any { return c.AllowPrivateNetworks }
	conc := func(c Config) any { return c.PollConcurrency }
	fetchMax := func(c Config) any { return c.FetchMaxBytes }
	mediaMax := func(c Config) any { return c.MediaMaxBytes }
	tz := func(c Config) any { return [2]string{c.BotTimezone.String(), c.BotTimezoneName} }
	lang := func(c Config) any { return c.BotLanguage }
	level := func(c Config) any { return c.LogLevel }
	format := func(c Config) any { return c.LogFormat }
	api := func(c Config) any { return c.TelegramAPIURL }
	public := func(c Config) any { return c.PublicURL }
	addr := func(c Config) any { return c.HTTPAddr }
	ua := func(c Config) any { return c.UserAgent }
	admin := func(c Config) any { return c.AdminID }
	one := func(k, v string) map[string]string { return map[string]string{k: v} }
	return []valueCase{
		{"POLL_INTERVAL_MAX >= POLL_INTERVAL", map[string]string{"POLL_INTERVAL": "7h"}, intervalMax, nil, "POLL_INTERVAL_MAX: must be at least POLL_INTERVAL (7h0m0s), got 6h0m0s"},
		{"POLL_INTERVAL_MAX may equal POLL_INTERVAL", map[string]string{"POLL_INTERVAL": "1h", "POLL_INTERVAL_MAX": "60m"}, intervalMax, time.Hour, ""},

		{"bools use strconv.ParseBool", one("POLL_ADAPTIVE", "false"), adaptive, false, ""},
		{"bools use strconv.ParseBool", one("POLL_ADAPTIVE", "0"), adaptive, false, ""},
		{"bools use strconv.ParseBool", one("ALLOW_PRIVATE_NETWORKS", "TRUE"), private, true, ""},
		{"bools use strconv.ParseBool", one("ALLOW_PRIVATE_NETWORKS", "1"), private, true, ""},
		{"a bad bool names setting and value", one("POLL_ADAPTIVE", "yes"), adaptive, nil, `POLL_ADAPTIVE: invalid boolean "yes" (use true or false)`},
		{"a bad bool names setting and value", one("ALLOW_PRIVATE_NETWORKS", "on"), private, nil, `ALLOW_PRIVATE_NETWORKS: invalid boolean "on" (use true or false)`},

		{"ints are positive", one("POLL_CONCURRENCY", "3"), conc, 3, ""},
		{"ints are positive", one("POLL_CONCURRENCY", "0"), conc, nil, "POLL_CONCURRENCY: must be positive, got 0"},
		{"ints are positive", one("POLL_CONCURRENCY", "-2"), conc, nil, "POLL_CONCURRENCY: must be positive, got -2"},
		{"a bad int names setting and value", one("POLL_CONCURRENCY", "eight"), conc, nil, `POLL_CONCURRENCY: invalid integer "eight"`},
		{"ints must fit", one("POLL_CONCURRENCY", "99999999999999999999"), conc, nil, "POLL_CONCURRENCY: 99999999999999999999 is out of range"},
		{"byte limits are plain integers", one("FETCH_MAX_BYTES", "1048576"), fetchMax, int64(1048576), ""},
		{"byte limits are plain integers", one("FETCH_MAX_BYTES", "16MiB"), fetchMax, nil, `FETCH_MAX_BYTES: invalid integer "16MiB"`},
		{"byte limits are plain integers", one("MEDIA_MAX_BYTES", "52428800"), mediaMax, int64(52428800), ""},
		{"byte limits are positive", one("MEDIA_MAX_BYTES", "0"), mediaMax, nil, "MEDIA_MAX_BYTES: must be positive, got 0"},
		{"a bad int names setting and value", one("MEDIA_MAX_BYTES", "1.5e6"), mediaMax, nil, `MEDIA_MAX_BYTES: invalid integer "1.5e6"`},

		{"BOT_TIMEZONE is an IANA zone", one("BOT_TIMEZONE", "Europe/Berlin"), tz, [2]string{"Europe/Berlin", "Europe/Berlin"}, ""},
		{"BOT_TIMEZONE is an IANA zone", one("BOT_TIMEZONE", "America/Argentina/Buenos_Aires"), tz, [2]string{"America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"}, ""},
		{"an unknown zone is refused", one("BOT_TIMEZONE", "Mars/Olympus_Mons"), tz, nil, `BOT_TIMEZONE: unknown time zone "Mars/Olympus_Mons" (use an IANA name like Europe/Berlin)`},

		{"BOT_LANGUAGE is en or de", one("BOT_LANGUAGE", "de"), lang, "de", ""},
		{"BOT_LANGUAGE is case-insensitive", one("BOT_LANGUAGE", "DE"), lang, "de", ""},
		{"BOT_LANGUAGE is en or de", one("BOT_LANGUAGE", "fr"), lang, nil, `BOT_LANGUAGE: must be en or de, got "fr"`},

		{"LOG_LEVEL is a slog level", one("LOG_LEVEL", "debug"), level, slog.LevelDebug, ""},
		{"LOG_LEVEL is a slog level", one("LOG_LEVEL", "WARN"), level, slog.LevelWarn, ""},
		{"LOG_LEVEL is a slog level", one("LOG_LEVEL", "error"), level, slog.LevelError, ""},
		{"LOG_LEVEL is a slog level", one("LOG_LEVEL", "info"), level, slog.LevelInfo, ""},
		{"LOG_LEVEL is one of four", one("LOG_LEVEL", "verbose"), level, nil, `LOG_LEVEL: must be debug, info, warn or error, got "verbose"`},
		{"LOG_FORMAT is text or json", one("LOG_FORMAT", "json"), format, "json", ""},
		{"LOG_FORMAT is text or json", one("LOG_FORMAT", "yaml"), format, nil, `LOG_FORMAT: must be text or json, got "yaml"`},

		{"TELEGRAM_API_URL loses a trailing slash", one("TELEGRAM_API_URL", "http://127.0.0.1:8081/"), api, "http://127.0.0.1:8081", ""},
		{"TELEGRAM_API_URL may have a path", one("TELEGRAM_API_URL", "https://proxy.example/telegram/"), api, "https://proxy.example/telegram", ""},
		{"TELEGRAM_API_URL is absolute", one("TELEGRAM_API_URL", "api.telegram.org"), api, nil, `TELEGRAM_API_URL: must be an absolute http or https URL, got "api.telegram.org"`},
		{"TELEGRAM_API_URL is http(s)", one("TELEGRAM_API_URL", "ftp://api.telegram.org"), api, nil, `TELEGRAM_API_URL: must be an absolute http or https URL, got "ftp://api.telegram.org"`},
		{"TELEGRAM_API_URL has a host", one("TELEGRAM_API_URL", "https:///bot"), api, nil, `TELEGRAM_API_URL: must be an absolute http or https URL, got "https:///bot"`},
		{"TELEGRAM_API_URL has no query", one("TELEGRAM_API_URL", "https://api.telegram.org/?x=1"), api, nil, `TELEGRAM_API_URL: must not have a query or fragment, got "https://api.telegram.org/?x=1"`},

		{"PUBLIC_URL is empty by default", nil, public, "", ""},
		{"PUBLIC_URL loses a trailing slash", map[string]string{"PUBLIC_URL": "https://bot.example.org/", "HTTP_ADDR": ":8080"}, public, "https://bot.example.org", ""},
		{"PUBLIC_URL is absolute", map[string]string{"PUBLIC_URL": "/rssbot", "HTTP_ADDR": ":8080"}, public, nil, `PUBLIC_URL: must be an absolute http or https URL, got "/rssbot"`},
		{"PUBLIC_URL needs HTTP_ADDR", one("PUBLIC_URL", "https://bot.example.org"), public, nil, "PUBLIC_URL: is set but HTTP_ADDR is not: set HTTP_ADDR to the listener PUBLIC_URL points to"},

		{"HTTP_ADDR is host:port", one("HTTP_ADDR", ":8080"), addr, ":8080", ""},
		{"HTTP_ADDR is host:port", one("HTTP_ADDR", "127.0.0.1:0"), addr, "127.0.0.1:0", ""},
		{"HTTP_ADDR is host:port", one("HTTP_ADDR", "[::1]:9090"), addr, "[::1]:9090", ""},
		{"HTTP_ADDR needs a port", one("HTTP_ADDR", "8080"), addr, nil, `HTTP_ADDR: must be host:port (like :8080 or 127.0.0.1:8080), got "8080"`},
		{"HTTP_ADDR port is numeric", one("HTTP_ADDR", "localhost:http"), addr, nil, `HTTP_ADDR: must be host:port (like :8080 or 127.0.0.1:8080), got "localhost:http"`},
		{"HTTP_ADDR port fits 16 bits", one("HTTP_ADDR", ":70000"), addr, nil, `HTTP_ADDR: must be host:port (like :8080 or 127.0.0.1:8080), got ":70000"`},

		{"USER_AGENT may be replaced", one("USER_AGENT", "MyReader/2.0 (+https://example.org)"), ua, "MyReader/2.0 (+https://example.org)", ""},
		{"USER_AGENT must be a valid header", one("USER_AGENT", "bad\nagent"), ua, nil, `USER_AGENT: contains characters not allowed in an HTTP header: "bad\nagent"`},

		{"ADMIN_ID is unset by default", nil, admin, int64(0), ""},
		{"ADMIN_ID is a user id", one("ADMIN_ID", "123456789"), admin, int64(123456789), ""},
		{"ADMIN_ID is numeric", one("ADMIN_ID", "@alice"), admin, nil, `ADMIN_ID: invalid user id "@alice" (the numeric Telegram user id, not a username)`},
		{"ADMIN_ID is a user, not a group", one("ADMIN_ID", "-1001234"), admin, nil, "ADMIN_ID: must be a positive Telegram user id, got -1001234"},
	}
}

func TestSettingValues(t *testing.T) {
	for _, tc := range append(durationCases(), otherCases()...) {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := loadMap(t, tc.env)
			if tc.err != "" {
				got := problems(err)
				if len(got) != 1 || got[0] != tc.err {
					t.Fatalf("env %q: problems = %q, want exactly %q", tc.env, got, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("env %q: %v", tc.env, err)
			}
			if got := tc.field(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("env %q: got %#v, want %#v", tc.env, got, tc.want)
			}
		})
	}
}

// Rule: POST_TEMPLATE defaults to post.gohtml when that file is present,
// else the built-in template (empty); a named file must be readable, and
// relative names resolve against the directory Load reads .env from.
func TestPostTemplate(t *testing.T) {
	t.Run("absent default means built-in", func(t *testing.T) {
		c, err := loadMap(t, nil)
		if err != nil || c.PostTemplate != "" {
			t.Fatalf("PostTemplate = %q, %v; want empty", c.PostTemplate, err)
		}
	})
	t.Run("present default is used", func(t *testing.T) {
		dir := t.TempDir()
		p := writeFile(t, dir, "post.gohtml", "{{.Title}}")
		c, err := Load(nil, dir, "x")
		if err != nil || c.PostTemplate != p {
			t.Fatalf("PostTemplate = %q, %v; want %q", c.PostTemplate, err, p)
		}
	})
	t.Run("relative name resolves against dir", func(t *testing.T) {
		dir := t.TempDir()
		p := writeFile(t, dir, "mine.gohtml", "{{.Title}}")
		c, err := Load(envOf(map[string]string{"POST_TEMPLATE": "mine.gohtml"}), dir, "x")
		if err != nil || c.PostTemplate != p {
			t.Fatalf("PostTemplate = %q, %v; want %q", c.PostTemplate, err, p)
		}
	})
	t.Run("missing named file is refused", func(t *testing.T) {
		dir := t.TempDir()
		_, err := Load(envOf(map[string]string{"POST_TEMPLATE": "nope.gohtml"}), dir, "x")
		want := `POST_TEMPLATE: cannot read "` + dir + `/nope.gohtml": no such file or directory`
		if got := problems(err); len(got) != 1 || got[0] != want {
			t.Fatalf("problems = %q, want %q", got, want)
		}
	})
	t.Run("a directory is refused", func(t *testing.T) {
		dir := t.TempDir()
		_, err := Load(envOf(map[string]string{"POST_TEMPLATE": dir}), t.TempDir(), "x")
		want := `POST_TEMPLATE: cannot read "` + dir + `": not a regular file`
		if got := problems(err); len(got) != 1 || got[0] != want {
			t.Fatalf("problems = %q, want %q", got, want)
		}
	})
}
