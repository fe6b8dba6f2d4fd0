package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// validToken reports whether s has the shape of a Bot API token: the bot's
// numeric id, a colon and a URL-safe secret. Checking it catches pasted
// quotes, spaces and the "bot" prefix from API URLs before the first request
// fails obscurely.
func validToken(s string) bool {
	id, secret, ok := strings.Cut(s, ":")
	if !ok || id == "" || secret == "" {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	for _, r := range secret {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

// tokenShape says what a token looks like without ever echoing the real one.
const tokenShape = "expected the bot id, a colon and the secret, like 123456789:AAH…, as @BotFather gives it"

// maxTokenFile bounds what is read from BOT_TOKEN_FILE: a token is under
// 100 bytes, and a wrong path must not pull a large file into memory.
const maxTokenFile = 4096

// readTokenFile reads at most limit bytes of p and refuses a longer file.
func readTokenFile(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, bareCause(err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, bareCause(err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("longer than %d bytes, too long for a token", limit)
	}
	return b, nil
}

// botToken returns BOT_TOKEN, or the trimmed contents of BOT_TOKEN_FILE.
// Messages about the token never include its value.
func (l *loader) botToken() string {
	_, tokenFrom := l.raw("BOT_TOKEN")
	_, fileFrom := l.raw("BOT_TOKEN_FILE")
	hasToken, hasFile := tokenFrom != "", fileFrom != ""
	switch {
	case hasToken && hasFile:
		l.fail("BOT_TOKEN", nil, "both BOT_TOKEN (from %s) and BOT_TOKEN_FILE (from %s) are set; set only one", tokenFrom, fileFrom)
		return ""
	case hasToken:
		token := l.get("BOT_TOKEN")
		if !validToken(token) {
			l.fail("BOT_TOKEN", nil, "malformed token (%s)", tokenShape)
			return ""
		}
		return token
	case hasFile:
		return l.tokenFromFile()
	}
	return ""
}

// tokenFromFile reads the file named by BOT_TOKEN_FILE, e.g. a systemd
// credential, and trims the newline editors and `echo` leave behind.
func (l *loader) tokenFromFile() string {
	p := l.path(l.get("BOT_TOKEN_FILE"))
	if err := readableFile(p); err != nil {
		l.fail("BOT_TOKEN_FILE", err, "cannot read %q: %v", p, err)
		return ""
	}
	b, err := readTokenFile(p, maxTokenFile)
	if err != nil {
		l.fail("BOT_TOKEN_FILE", err, "cannot read %q: %v", p, err)
		return ""
	}
	token := strings.TrimSpace(string(b))
	switch {
	case token == "":
		l.fail("BOT_TOKEN_FILE", nil, "%q is empty", p)
		return ""
	case !validToken(token):
		l.fail("BOT_TOKEN_FILE", nil, "%q holds a malformed token (%s)", p, tokenShape)
		return ""
	}
	return token
}

// adminID parses ADMIN_ID; 0 when unset.
func (l *loader) adminID() int64 {
	if !l.isSet("ADMIN_ID") {
		return 0
	}
	v := l.get("ADMIN_ID")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		l.fail("ADMIN_ID", err, "invalid user id %q (the numeric Telegram user id, not a username)", v)
		return 0
	}
	if id <= 0 {
		l.fail("ADMIN_ID", nil, "must be a positive Telegram user id, got %d", id)
		return 0
	}
	return id
}

// RequireBot reports what is missing to run the bot: the token and the admin
// id. Subcommands that never talk to Telegram (preview, migrate, version) do
// not call it. Both problems are reported together.
func (c Config) RequireBot() error {
	var errs []error
	if c.BotToken == "" {
		errs = append(errs, errors.New("BOT_TOKEN is not set: set BOT_TOKEN (or BOT_TOKEN_FILE) in the environment or in .env; get a token from @BotFather"))
	}
	if c.AdminID == 0 {
		errs = append(errs, errors.New("ADMIN_ID is not set: set ADMIN_ID in the environment or in .env to your numeric Telegram user id; send any message to @userinfobot to learn it"))
	}
	return errors.Join(errs...)
}
