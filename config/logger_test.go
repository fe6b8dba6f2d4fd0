package config

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Rule: Logger honours LOG_LEVEL (records below it are dropped) and
// LOG_FORMAT (json lines or logfmt-style text).
func TestLogger(t *testing.T) {
	cases := []struct {
		level, format string
		wantLines     int
		json          bool
	}{
		{"debug", "text", 3, false},
		{"info", "text", 2, false},
		{"warn", "json", 1, true},
		{"error", "json", 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.level+"/"+tc.format, func(t *testing.T) {
			c, err := loadMap(t, map[string]string{"LOG_LEVEL": tc.level, "LOG_FORMAT": tc.format})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			log := c.Logger(&buf)
			log.Debug("d", "feed_id", 1)
			log.Info("i", "feed_id", 2)
			log.Warn("w", "feed_id", 3)
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if buf.Len() == 0 {
				lines = nil
			}
			if len(lines) != tc.wantLines {
				t.Fatalf("%d lines, want %d: %q", len(lines), tc.wantLines, buf.String())
			}
			for _, line := range lines {
				var m map[string]any
				isJSON := json.Unmarshal([]byte(line), &m) == nil
				if isJSON != tc.json {
					t.Errorf("line %q: json = %v, want %v", line, isJSON, tc.json)
				}
				if !tc.json && !strings.Contains(line, "feed_id=") {
					t.Errorf("text line %q lacks feed_id=", line)
				}
			}
		})
	}
}

// Rule: a zero Config still logs, as text at info.
func TestLoggerZeroConfig(t *testing.T) {
	var buf bytes.Buffer
	log := Config{}.Logger(&buf)
	log.Debug("hidden")
	log.Info("shown")
	if out := buf.String(); strings.Contains(out, "hidden") || !strings.Contains(out, "msg=shown") {
		t.Errorf("zero Config logged %q", out)
	}
}
