package config

import (
	"errors"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// Rule: with nothing set, every setting takes the default of the contract
// table in DESIGN.md.
func TestLoadDefaults(t *testing.T) {
	got, err := loadMap(t, nil)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := Config{
		DatabaseURL:     "sqlite:rssbot.db",
		TelegramAPIURL:  "https://api.telegram.org",
		PollTick:        30 * time.Second,
		PollInterval:    10 * time.Minute,
		PollIntervalMax: 6 * time.Hour,
		PollAdaptive:    true,
		PollConcurrency: 8,
		FetchTimeout:    30 * time.Second,
		FetchMaxBytes:   16777216,
		MediaMaxBytes:   20971520,
		EntryRetention:  2160 * time.Hour,
		BotTimezoneName: "UTC",
		UserAgent:       "rssbot/1.2.3 (+https://github.com/rssbot/rssbot)",
		BotLanguage:     "en",
		LogLevel:        slog.LevelInfo,
		LogFormat:       "text",
	}
	if got.BotTimezone == nil || got.BotTimezone.String() != "UTC" {
		t.Errorf("BotTimezone = %v, want UTC", got.BotTimezone)
	}
	got.BotTimezone = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults:\n got %#v\nwant %#v", got, want)
		t.Errorf("fields: got %+v", fieldsOf(got))
	}
}

// fieldsOf shows raw fields, since %v of a Config is redacted.
func fieldsOf(c Config) map[string]any {
	v := reflect.ValueOf(c)
	m := map[string]any{}
	for i := range v.NumField() {
		m[v.Type().Field(i).Name] = v.Field(i).Interface()
	}
	return m
}

// Rule: USER_AGENT's default names the running version; an unknown version
// shows as "dev".
func TestUserAgentDefaultVersion(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"v0.4.0", "rssbot/v0.4.0 (+https://github.com/rssbot/rssbot)"},
		{"", "rssbot/dev (+https://github.com/rssbot/rssbot)"},
	} {
		c, err := Load(nil, t.TempDir(), tc.version)
		if err != nil {
			t.Fatal(err)
		}
		if c.UserAgent != tc.want {
			t.Errorf("version %q: UserAgent = %q, want %q", tc.version, c.UserAgent, tc.want)
		}
	}
}

// Rule: settings come from the environment or from .env in the directory;
// a non-empty environment value wins, an empty one falls back to .env.
func TestDotEnvReadAndOverridden(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ".env", strings.Join([]string{
		"# comment",
		"POLL_INTERVAL=20m",
		"BOT_LANGUAGE=de",
		"LOG_FORMAT='json'",
		`USER_AGENT="from dotenv"`,
		"RSSBOT_CONFIG_TEST_MARKER=1",
	}, "\n"))
	env := map[string]string{
		"BOT_LANGUAGE": "en", // environment wins
		"USER_AGENT":   "",   // empty: .env applies
		"LOG_FORMAT":   "  ", // blank counts as empty
	}
	c, err := Load(envOf(env), dir, "x")
	if err != nil {
		t.Fatal(err)
	}
	if c.PollInterval != 20*time.Minute {
		t.Errorf("PollInterval = %v, want 20m from .env", c.PollInterval)
	}
	if c.BotLanguage != "en" {
		t.Errorf("BotLanguage = %q, want en from the environment", c.BotLanguage)
	}
	if c.LogFormat != "json" {
		t.Errorf("LogFormat = %q, want json (quoted in .env)", c.LogFormat)
	}
	if c.UserAgent != "from dotenv" {
		t.Errorf("UserAgent = %q, want the .env value", c.UserAgent)
	}
	// godotenv.Read, not Load: the process environment stays untouched.
	if _, ok := os.LookupEnv("RSSBOT_CONFIG_TEST_MARKER"); ok {
		t.Error("Load wrote .env into the process environment")
	}
}

// Rule: an unreadable .env is reported (with its path) together with any
// other problem, not silently ignored.
func TestDotEnvMalformed(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, ".env", "POLL_INTERVAL='unterminated\n")
	_, err := Load(envOf(map[string]string{"LOG_FORMAT": "xml"}), dir, "x")
	got := problems(err)
	if len(got) != 2 {
		t.Fatalf("problems = %q, want the .env error and LOG_FORMAT", got)
	}
	if !strings.HasPrefix(got[0], "config: read "+p+": ") {
		t.Errorf("first problem = %q, want it to name %s", got[0], p)
	}
	if got[1] != `LOG_FORMAT: must be text or json, got "xml"` {
		t.Errorf("second problem = %q", got[1])
	}
}

// Rule: all problems are reported at once, each a *SettingError naming its
// setting, in the order of the settings table.
func TestMultipleErrorsReportedTogether(t *testing.T) {
	_, err := loadMap(t, map[string]string{
		"ADMIN_ID":      "@me",
		"POLL_TICK":     "500ms",
		"POLL_INTERVAL": "10 minutes",
		"BOT_TIMEZONE":  "Nowhere/Town",
		"LOG_LEVEL":     "loud",
	})
	want := []string{
		`ADMIN_ID: invalid user id "@me" (the numeric Telegram user id, not a username)`,
		`POLL_TICK: must be at least 1s, got 500ms`,
		`POLL_INTERVAL: invalid duration "10 minutes"`,
		`BOT_TIMEZONE: unknown time zone "Nowhere/Town" (use an IANA name like Europe/Berlin)`,
		`LOG_LEVEL: must be debug, info, warn or error, got "loud"`,
	}
	if got := problems(err); !slices.Equal(got, want) {
		t.Fatalf("problems:\n got %q\nwant %q", got, want)
	}
	var se *SettingError
	if !errors.As(err, &se) || se.Name != "ADMIN_ID" {
		t.Errorf("errors.As SettingError = %v, want the ADMIN_ID problem", se)
	}
}

// Rule: the settings table is the contract: Load reads exactly the settings
// it lists, so README and .env.example generated from it cannot miss one.
func TestLoadReadsExactlyTheTable(t *testing.T) {
	read := map[string]bool{}
	getenv := func(k string) string { read[k] = true; return "" }
	// MYSQL_* are only consulted when DATABASE_URL is unset and one of them
	// is set, so give one to reach all of them.
	withMySQL := func(k string) string {
		read[k] = true
		if k == "MYSQL_DB" {
			return "feeds"
		}
		return ""
	}
	for _, g := range []func(string) string{getenv, withMySQL} {
		if _, err := Load(g, t.TempDir(), "x"); err != nil {
			t.Fatal(err)
		}
	}
	var table []string
	for _, s := range Settings() {
		table = append(table, s.Name)
		if !read[s.Name] {
			t.Errorf("%s is in the table but never read", s.Name)
		}
	}
	for k := range read {
		if !slices.Contains(table, k) {
			t.Errorf("%s is read but not in the table", k)
		}
	}
}

// Rule: every setting in the table has a meaning, and names are unique.
func TestSettingsTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings() {
		if seen[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.Meaning == "" || strings.Contains(s.Meaning, "\n") {
			t.Errorf("%s: meaning %q must be one non-empty line", s.Name, s.Meaning)
		}
	}
	// Settings returns a fresh slice, so a caller cannot change the defaults.
	a := Settings()
	a[0].Default = "changed"
	if Settings()[0].Default == "changed" {
		t.Error("Settings shares its backing array between calls")
	}
}
