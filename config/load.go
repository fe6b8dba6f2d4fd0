package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/joho/godotenv"
)

// DotEnvFile is the name of the optional settings file in the working directory.
const DotEnvFile = ".env"

// Where a value came from, for messages that must tell the user which one to change.
const (
	fromEnvironment = "the environment"
	fromDotEnv      = DotEnvFile
)

// SettingError reports a setting whose value cannot be used. Its message names
// the setting first, e.g. `POLL_INTERVAL: invalid duration "10 minutes"`.
type SettingError struct {
	Name string // the environment variable
	Msg  string // what is wrong, including the offending value unless secret
	Err  error  // the underlying error, if any
}

// Error implements error.
func (e *SettingError) Error() string { return e.Name + ": " + e.Msg }

// Unwrap returns the underlying error.
func (e *SettingError) Unwrap() error { return e.Err }

// LoadEnv loads the configuration the way the rssbot binary does: from the
// process environment and from .env in the working directory. version is the
// running version, used in the default USER_AGENT.
func LoadEnv(version string) (Config, error) {
	return Load(os.Getenv, "", version)
}

// Load reads every setting through getenv (nil means an empty environment)
// and from .env in dir ("" means the working directory); a non-empty
// environment value takes precedence over .env. A missing .env is fine.
// Files named by settings (BOT_TOKEN_FILE, POST_TEMPLATE) are resolved against
// dir when relative. The process environment is never modified.
//
// Every invalid value is reported, joined with errors.Join, each as a
// *SettingError. A missing token or admin id is not an error here: commands
// that need them call RequireBot.
func Load(getenv func(string) string, dir, version string) (Config, error) {
	l := &loader{getenv: getenv, dir: dir, defaults: defaults(), version: version}
	if err := l.readDotEnv(); err != nil {
		l.errs = append(l.errs, err)
	}
	c := l.config()
	return c, errors.Join(l.errs...)
}

// loader carries the sources and the problems found while reading settings.
type loader struct {
	getenv   func(string) string
	dotenv   map[string]string
	dir      string
	version  string
	defaults map[string]string
	errs     []error
}

// readDotEnv reads dir/.env without touching the process environment.
func (l *loader) readDotEnv() error {
	path := l.path(DotEnvFile)
	m, err := godotenv.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("config: read %s: %w", path, err)
	}
	l.dotenv = m
	return nil
}

// path resolves a file name against dir.
func (l *loader) path(name string) string {
	if l.dir == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(l.dir, name)
}

// raw returns a setting's value as given and where it came from; ("", "")
// when it is unset. A blank value counts as unset, so an empty variable in
// the environment does not hide .env. Surrounding whitespace is kept: only
// the caller knows whether it matters (passwords).
func (l *loader) raw(name string) (value, from string) {
	if l.getenv != nil {
		if v := l.getenv(name); strings.TrimSpace(v) != "" {
			return v, fromEnvironment
		}
	}
	if v := l.dotenv[name]; strings.TrimSpace(v) != "" {
		return v, fromDotEnv
	}
	return "", ""
}

// isSet reports whether a setting has a non-blank value in any source.
func (l *loader) isSet(name string) bool {
	v, _ := l.raw(name)
	return v != ""
}

// get returns a setting's trimmed value, or its default when unset or blank.
func (l *loader) get(name string) string {
	v, _ := l.raw(name)
	if v = strings.TrimSpace(v); v != "" {
		return v
	}
	return l.defaults[name]
}

// fail records a problem with one setting.
func (l *loader) fail(name string, err error, format string, args ...any) {
	l.errs = append(l.errs, &SettingError{Name: name, Msg: fmt.Sprintf(format, args...), Err: err})
}

// config reads every setting into a Config, recording problems as it goes.
func (l *loader) config() Config {
	c := Config{
		BotToken:             l.botToken(),
		AdminID:              l.adminID(),
		DatabaseURL:          l.databaseURL(),
		TelegramAPIURL:       l.httpURL("TELEGRAM_API_URL"),
		PollTick:             l.duration("POLL_TICK"),
		PollInterval:         l.duration("POLL_INTERVAL"),
		PollIntervalMax:      l.duration("POLL_INTERVAL_MAX"),
		PollAdaptive:         l.boolean("POLL_ADAPTIVE"),
		PollConcurrency:      int(l.positive("POLL_CONCURRENCY", strconv.IntSize)),
		PostTemplate:         l.postTemplate(),
		AllowPrivateNetworks: l.boolean("ALLOW_PRIVATE_NETWORKS"),
		FetchTimeout:         l.duration("FETCH_TIMEOUT"),
		FetchMaxBytes:        l.positive("FETCH_MAX_BYTES", 64),
		MediaMaxBytes:        l.positive("MEDIA_MAX_BYTES", 64),
		EntryRetention:       l.duration("ENTRY_RETENTION"),
		BotTimezone:          l.timezone(),
		UserAgent:            l.userAgent(),
		HTTPAddr:             l.hostPort("HTTP_ADDR"),
		PublicURL:            l.httpURL("PUBLIC_URL"),
		BotLanguage:          l.oneOf("BOT_LANGUAGE", "en", "de"),
		LogLevel:             l.logLevel(),
		LogFormat:            l.oneOf("LOG_FORMAT", "text", "json"),
	}
	c.BotTimezoneName = c.BotTimezone.String()
	// Cross-setting rules are checked only when both values parsed, so one
	// mistake is reported once.
	if c.PollInterval > 0 && c.PollIntervalMax > 0 && c.PollIntervalMax < c.PollInterval {
		l.fail("POLL_INTERVAL_MAX", nil, "must be at least POLL_INTERVAL (%s), got %s", c.PollInterval, c.PollIntervalMax)
	}
	if c.PublicURL != "" && c.HTTPAddr == "" && !l.isSet("HTTP_ADDR") {
		l.fail("PUBLIC_URL", nil, "is set but HTTP_ADDR is not: set HTTP_ADDR to the listener PUBLIC_URL points to")
	}
	return c
}
