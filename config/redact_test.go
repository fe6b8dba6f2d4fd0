package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// loadSecret returns a Config with a token and a MySQL password.
func loadSecret(t *testing.T) Config {
	t.Helper()
	c, err := loadMap(t, map[string]string{
		"BOT_TOKEN":      goodToken,
		"ADMIN_ID":       "42",
		"MYSQL_PASSWORD": "hunter2-pw",
		"USER_AGENT":     "My Reader/1.0",
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Rule: printing a Config in any verb never shows the token or the database
// password, but shows the effective settings.
func TestStringRedacts(t *testing.T) {
	c := loadSecret(t)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(verb, c)
		if strings.Contains(out, "AAHdqTcvCH1v") || strings.Contains(out, "hunter2-pw") {
			t.Errorf("%s leaks a secret: %s", verb, out)
		}
		for _, want := range []string{
			"BOT_TOKEN=<redacted>",
			"ADMIN_ID=42",
			"DATABASE_URL=mysql://root:<redacted>@tcp(127.0.0.1:3306)/rssbot",
			"POLL_INTERVAL=10m0s",
			`USER_AGENT="My Reader/1.0"`,
			`HTTP_ADDR=""`,
			"LOG_LEVEL=info",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s output lacks %q: %s", verb, want, out)
			}
		}
	}
}

// Rule: an unset token shows as empty, not as redacted, so the log tells
// whether one was found.
func TestStringUnsetToken(t *testing.T) {
	c, err := loadMap(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out := c.String(); !strings.HasPrefix(out, `BOT_TOKEN="" ADMIN_ID=0 DATABASE_URL=sqlite:rssbot.db `) {
		t.Errorf("String = %s", out)
	}
}

// Rule: logging a Config through slog logs the redacted group.
func TestLogValueRedacts(t *testing.T) {
	c := loadSecret(t)
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("configuration", "config", c)
	if strings.Contains(buf.String(), "AAHdqTcvCH1v") || strings.Contains(buf.String(), "hunter2-pw") {
		t.Fatalf("log leaks a secret: %s", buf.String())
	}
	var rec struct {
		Config map[string]string `json:"config"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"bot_token":        "<redacted>",
		"admin_id":         "42",
		"poll_concurrency": "8",
		"bot_timezone":     "UTC",
		"user_agent":       "My Reader/1.0",
		"log_format":       "text",
	}
	for k, v := range want {
		if rec.Config[k] != v {
			t.Errorf("config.%s = %q, want %q", k, rec.Config[k], v)
		}
	}
	if len(rec.Config) != 22 {
		t.Errorf("logged %d settings, want 22 (the table minus MYSQL_* and BOT_TOKEN_FILE)", len(rec.Config))
	}
}
