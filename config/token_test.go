package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const goodToken = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"

// Rule: BOT_TOKEN is taken as given; BOT_TOKEN_FILE is read and trimmed;
// setting both is an error; a malformed token is refused without echoing it.
func TestBotToken(t *testing.T) {
	dir := t.TempDir()
	withNewline := writeFile(t, dir, "token", "  "+goodToken+"\n")
	empty := writeFile(t, dir, "empty", "\n\n")
	malformed := writeFile(t, dir, "malformed", "bot"+goodToken+"\n")
	huge := writeFile(t, dir, "huge", strings.Repeat("1", 5000))
	cases := []struct {
		rule string
		env  map[string]string
		want string
		err  string
	}{
		{"unset is not a Load error", nil, "", ""},
		{"BOT_TOKEN as given", map[string]string{"BOT_TOKEN": goodToken}, goodToken, ""},
		{"BOT_TOKEN trimmed", map[string]string{"BOT_TOKEN": " " + goodToken + " "}, goodToken, ""},
		{"BOT_TOKEN_FILE read and trimmed", map[string]string{"BOT_TOKEN_FILE": withNewline}, goodToken, ""},
		{"BOT_TOKEN_FILE relative to dir", map[string]string{"BOT_TOKEN_FILE": "token"}, goodToken, ""},
		{"both set is an error", map[string]string{"BOT_TOKEN": goodToken, "BOT_TOKEN_FILE": withNewline}, "",
			"BOT_TOKEN: both BOT_TOKEN (from the environment) and BOT_TOKEN_FILE (from the environment) are set; set only one"},
		{"missing file", map[string]string{"BOT_TOKEN_FILE": "/nonexistent/token"}, "",
			`BOT_TOKEN_FILE: cannot read "/nonexistent/token": no such file or directory`},
		{"directory instead of file", map[string]string{"BOT_TOKEN_FILE": dir}, "",
			`BOT_TOKEN_FILE: cannot read "` + dir + `": not a regular file`},
		{"a large file is not a token", map[string]string{"BOT_TOKEN_FILE": huge}, "",
			`BOT_TOKEN_FILE: cannot read "` + huge + `": longer than 4096 bytes, too long for a token`},
		{"empty file", map[string]string{"BOT_TOKEN_FILE": empty}, "",
			`BOT_TOKEN_FILE: "` + empty + `" is empty`},
		{"malformed file", map[string]string{"BOT_TOKEN_FILE": malformed}, "",
			`BOT_TOKEN_FILE: "` + malformed + `" holds a malformed token (expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it)`},
		{"bot prefix from an API URL", map[string]string{"BOT_TOKEN": "bot" + goodToken}, "",
			"BOT_TOKEN: malformed token (expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it)"},
		{"inner space", map[string]string{"BOT_TOKEN": "123456789:AAH dqT"}, "",
			"BOT_TOKEN: malformed token (expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it)"},
		{"no colon", map[string]string{"BOT_TOKEN": "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"}, "",
			"BOT_TOKEN: malformed token (expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it)"},
		{"empty secret", map[string]string{"BOT_TOKEN": "123456789:"}, "",
			"BOT_TOKEN: malformed token (expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it)"},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := Load(envOf(tc.env), dir, "x")
			if tc.err != "" {
				if got := problems(err); len(got) != 1 || got[0] != tc.err {
					t.Fatalf("problems = %q, want %q", got, tc.err)
				}
				if strings.Contains(err.Error(), "AAHdqTcvCH1vGWJx") {
					t.Errorf("error leaks the token: %v", err)
				}
				return
			}
			if err != nil || c.BotToken != tc.want {
				t.Fatalf("BotToken = %q, %v; want %q", c.BotToken, err, tc.want)
			}
		})
	}
}

// Rule: the both-set message says where each came from, so the user knows
// which to remove.
func TestBotTokenBothSetNamesSources(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ".env", "BOT_TOKEN="+goodToken+"\n")
	_, err := Load(envOf(map[string]string{"BOT_TOKEN_FILE": filepath.Join(dir, "t")}), dir, "x")
	want := "BOT_TOKEN: both BOT_TOKEN (from .env) and BOT_TOKEN_FILE (from the environment) are set; set only one"
	if got := problems(err); len(got) != 1 || got[0] != want {
		t.Fatalf("problems = %q, want %q", got, want)
	}
}

// Rule: RequireBot says exactly what to set for serving; both missing
// settings are reported together.
func TestRequireBot(t *testing.T) {
	tokenMsg := "BOT_TOKEN is not set: set BOT_TOKEN (or BOT_TOKEN_FILE) in the environment or in .env; get a token from @BotFather"
	adminMsg := "ADMIN_ID is not set: set ADMIN_ID in the environment or in .env to your numeric Telegram user id; send any message to @userinfobot to learn it"
	cases := []struct {
		rule string
		env  map[string]string
		want []string
	}{
		{"both missing", nil, []string{tokenMsg, adminMsg}},
		{"token missing", map[string]string{"ADMIN_ID": "42"}, []string{tokenMsg}},
		{"admin missing", map[string]string{"BOT_TOKEN": goodToken}, []string{adminMsg}},
		{"both set", map[string]string{"BOT_TOKEN": goodToken, "ADMIN_ID": "42"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := loadMap(t, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if got := problems(c.RequireBot()); !slices.Equal(got, tc.want) {
				t.Fatalf("RequireBot = %q, want %q", got, tc.want)
			}
		})
	}
}
