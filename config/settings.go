package config

// ProjectURL is the project's home page, named in the default User-Agent so
// that feed publishers can find out who is polling them.
const ProjectURL = "https://github.com/rssbot/rssbot"

// versionPlaceholder is replaced by the running version in USER_AGENT's default.
const versionPlaceholder = "<version>"

// Setting describes one environment setting: the contract users, the README,
// .env.example and the NixOS module rely on.
type Setting struct {
	// Name is the environment variable (and .env key).
	Name string
	// Default is the value used when the setting is unset, written as a user
	// would write it; empty means "none". USER_AGENT's contains "<version>".
	Default string
	// Meaning is a one-line description.
	Meaning string
}

// Settings returns every setting in the order the README documents them. The
// loader takes its defaults from this table, so it cannot drift from the
// documentation. Each call returns a fresh slice.
func Settings() []Setting {
	return []Setting{
		{"BOT_TOKEN", "", "Telegram bot token from @BotFather"},
		{"BOT_TOKEN_FILE", "", "file holding the bot token (for systemd credentials); instead of BOT_TOKEN"},
		{"ADMIN_ID", "", "the one Telegram user id allowed to manage the bot"},
		{"DATABASE_URL", "sqlite:rssbot.db", "sqlite:PATH or mysql:// + a go-sql-driver DSN (user:pass@tcp(host:3306)/db)"},
		{"MYSQL_HOST", "", "MySQL host, used when DATABASE_URL is unset (default 127.0.0.1)"},
		{"MYSQL_PORT", "", "MySQL port, used when DATABASE_URL is unset (default 3306)"},
		{"MYSQL_USER", "", "MySQL user, used when DATABASE_URL is unset (default root)"},
		{"MYSQL_PASSWORD", "", "MySQL password, used when DATABASE_URL is unset"},
		{"MYSQL_DB", "", "MySQL database, used when DATABASE_URL is unset (default rssbot)"},
		{"MYSQL_SOCKET", "", "MySQL unix socket, used instead of host and port when DATABASE_URL is unset"},
		{"TELEGRAM_API_URL", "https://api.telegram.org", "Bot API server (a local telegram-bot-api server, or a test server)"},
		{"POLL_TICK", "30s", "how often due feeds are looked for"},
		{"POLL_INTERVAL", "10m", "base interval per feed"},
		{"POLL_INTERVAL_MAX", "6h", "cap for slow-down, hints and backoff"},
		{"POLL_ADAPTIVE", "true", "each poll without new entries adds one base interval"},
		{"POLL_CONCURRENCY", "8", "hosts fetched in parallel (one request at a time per host)"},
		{"POST_TEMPLATE", "post.gohtml", "Go template for posts; the default file is used only if present, else the built-in template"},
		{"ALLOW_PRIVATE_NETWORKS", "false", "allow loopback/private/link-local destinations (development and tests)"},
		{"FETCH_TIMEOUT", "30s", "time limit for one request"},
		{"FETCH_MAX_BYTES", "16777216", "limit on a decoded feed or page body"},
		{"MEDIA_MAX_BYTES", "20971520", "limit on a downloaded or data: media file"},
		{"ENTRY_RETENTION", "2160h", "how long an entry's identity is remembered after the feed last listed it"},
		{"BOT_TIMEZONE", "UTC", "IANA time zone for dates and times in posts"},
		{"USER_AGENT", "rssbot/" + versionPlaceholder + " (+" + ProjectURL + ")", "User-Agent for every request"},
		{"HTTP_ADDR", "", "listener for /healthz, /readyz, /metrics, WebSub callbacks, Telegram webhook (empty: off)"},
		{"PUBLIC_URL", "", "public base URL of HTTP_ADDR; enables WebSub and webhook mode"},
		{"BOT_LANGUAGE", "en", "en or de"},
		{"LOG_LEVEL", "info", "debug, info, warn or error"},
		{"LOG_FORMAT", "text", "text or json"},
	}
}

// defaults maps each setting's name to its default value.
func defaults() map[string]string {
	m := make(map[string]string)
	for _, s := range Settings() {
		m[s.Name] = s.Default
	}
	return m
}
