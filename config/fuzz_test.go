package config

import (
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// FuzzLoadValue feeds one arbitrary value to one setting. Load must not
// panic, every problem must name a setting, and a token problem must be the
// fixed message that never echoes the token.
func FuzzLoadValue(f *testing.F) {
	settings := Settings()
	for i, s := range settings {
		f.Add(uint8(i), s.Default)
		f.Add(uint8(i), "")
		f.Add(uint8(i), " -1 ")
	}
	f.Add(uint8(0), "123:abc")
	f.Add(uint8(0), "12:ab\ncd")
	f.Add(uint8(3), "mysql://u:p@tcp(h:1)/d?x=%zz")
	f.Add(uint8(3), "sqlite::memory:")
	f.Fuzz(func(t *testing.T, index uint8, value string) {
		name := settings[int(index)%len(settings)].Name
		dir := t.TempDir()
		c, err := Load(envOf(map[string]string{name: value}), dir, "fuzz")
		for _, p := range problems(err) {
			known := false
			for _, s := range settings {
				known = known || strings.HasPrefix(p, s.Name+": ")
			}
			if !known {
				t.Fatalf("%s=%q: problem %q names no setting", name, value, p)
			}
		}
		if name == "BOT_TOKEN" && err != nil {
			want := "BOT_TOKEN: malformed token (" + tokenShape + ")"
			if err.Error() != want {
				t.Fatalf("BOT_TOKEN=%q: error %q, want the fixed message", value, err)
			}
		}
		if err == nil && c.BotToken != "" && strings.Contains(c.String(), c.BotToken) {
			t.Fatalf("String shows the token: %s", c.String())
		}
	})
}

// FuzzMySQLPassword checks that any password survives composition into a DSN
// and is hidden when the configuration is printed.
func FuzzMySQLPassword(f *testing.F) {
	for _, pw := range []string{"p@ss/word", "a:b@c/d?e=f", "()@tcp(x:1)/y", "\\\"'", "with space", "%41"} {
		f.Add(pw)
	}
	f.Fuzz(func(t *testing.T, pw string) {
		if strings.TrimSpace(pw) == "" {
			t.Skip("a blank password counts as unset")
		}
		c, err := loadMap(t, map[string]string{"MYSQL_PASSWORD": pw})
		if err != nil {
			t.Fatalf("%q: %v", pw, err)
		}
		cfg, err := mysql.ParseDSN(strings.TrimPrefix(c.DatabaseURL, mysqlScheme))
		if err != nil || cfg.Passwd != pw {
			t.Fatalf("%q: DSN %q parses back as %q, %v", pw, c.DatabaseURL, cfg.Passwd, err)
		}
		if len(pw) >= 8 && strings.Contains(c.String(), pw) {
			t.Fatalf("%q: String shows the password: %s", pw, c.String())
		}
	})
}
