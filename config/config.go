// Package config reads every rssbot setting from the environment and from a
// .env file, applies the documented defaults and validates the values with
// messages that name the setting and say what is wrong. It holds no state:
// Load returns a Config that the caller passes on.
package config

import (
	"log/slog"
	"time"

	// Embedded zone data lets BOT_TIMEZONE work on systems without
	// /usr/share/zoneinfo (minimal containers, some NixOS closures).
	_ "time/tzdata"
)

// Config is the validated configuration. Its zero value is not useful; get one
// from Load or LoadEnv.
type Config struct {
	// BotToken is the Telegram bot token (BOT_TOKEN, or the trimmed contents of
	// the file named by BOT_TOKEN_FILE). Empty when neither is set; see
	// RequireBot. Never log it; String and LogValue redact it.
	BotToken string
	// AdminID is the Telegram user id allowed to manage the bot (ADMIN_ID);
	// 0 when unset.
	AdminID int64

	// DatabaseURL is "sqlite:PATH" or "mysql://" + a go-sql-driver DSN
	// (DATABASE_URL, or composed from MYSQL_* when DATABASE_URL is unset).
	DatabaseURL string
	// TelegramAPIURL is the Bot API server's base URL without a trailing
	// slash (TELEGRAM_API_URL).
	TelegramAPIURL string

	// PollTick is how often due feeds are looked for (POLL_TICK).
	PollTick time.Duration
	// PollInterval is the base interval per feed (POLL_INTERVAL).
	PollInterval time.Duration
	// PollIntervalMax caps slow-down, hints and backoff (POLL_INTERVAL_MAX);
	// never below PollInterval.
	PollIntervalMax time.Duration
	// PollAdaptive adds one base interval per poll without new entries
	// (POLL_ADAPTIVE).
	PollAdaptive bool
	// PollConcurrency is how many hosts are fetched in parallel
	// (POLL_CONCURRENCY).
	PollConcurrency int

	// PostTemplate is the path of the Go template for posts (POST_TEMPLATE);
	// empty means the built-in template. Relative paths are resolved against
	// the directory Load read .env from.
	PostTemplate string

	// AllowPrivateNetworks permits loopback, private and link-local
	// destinations (ALLOW_PRIVATE_NETWORKS).
	AllowPrivateNetworks bool
	// FetchTimeout limits one request (FETCH_TIMEOUT).
	FetchTimeout time.Duration
	// FetchMaxBytes limits a decoded feed or page body (FETCH_MAX_BYTES).
	FetchMaxBytes int64
	// MediaMaxBytes limits a downloaded or data: media file (MEDIA_MAX_BYTES).
	MediaMaxBytes int64
	// EntryRetention is how long an entry's identity is remembered after the
	// feed last listed it (ENTRY_RETENTION).
	EntryRetention time.Duration

	// BotTimezone is the zone for dates and times in posts (BOT_TIMEZONE).
	BotTimezone *time.Location
	// BotTimezoneName is BOT_TIMEZONE as given, e.g. "Europe/Berlin".
	BotTimezoneName string

	// UserAgent is sent with every request (USER_AGENT).
	UserAgent string

	// HTTPAddr is the host:port of the HTTP listener (HTTP_ADDR); empty: off.
	HTTPAddr string
	// PublicURL is the public base URL of HTTPAddr without a trailing slash
	// (PUBLIC_URL); non-empty enables WebSub and webhook mode.
	PublicURL string

	// BotLanguage is "en" or "de" (BOT_LANGUAGE).
	BotLanguage string

	// LogLevel is the minimum slog level (LOG_LEVEL).
	LogLevel slog.Level
	// LogFormat is "text" or "json" (LOG_FORMAT).
	LogFormat string
}
