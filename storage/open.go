package storage

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// sqliteBusyTimeout is how long a connection waits for another writer (in
// this or another process) before SQLite reports SQLITE_BUSY.
const sqliteBusyTimeout = 10 * time.Second

// Open connects to DATABASE_URL ("sqlite:PATH" or "mysql://DSN"), configures
// the connection (SQLite: WAL, busy timeout, foreign keys, IMMEDIATE write
// transactions; MySQL: parseTime=true, multiStatements=true, utf8mb4,
// clientFoundRows=true) and pings it. It does not migrate.
func Open(ctx context.Context, databaseURL string) (*Store, error) {
	var (
		db  *sql.DB
		d   dialect
		err error
	)
	switch {
	case strings.HasPrefix(databaseURL, "mysql://"):
		d = mysqlDialect
		db, err = openMySQL(strings.TrimPrefix(databaseURL, "mysql://"))
	case strings.HasPrefix(databaseURL, "sqlite:"):
		d = sqliteDialect
		db, err = openSQLite(sqlitePath(databaseURL))
	default:
		return nil, fmt.Errorf("storage: DATABASE_URL must start with sqlite: or mysql:// (got %s)", scheme(databaseURL))
	}
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: connect to %s database: %w", d.name, err)
	}
	return &Store{db: db, d: d}, nil
}

// sqlitePath strips the scheme: "sqlite:PATH", "sqlite://PATH" (so
// "sqlite:///abs/path" is an absolute path) and "sqlite::memory:".
func sqlitePath(databaseURL string) string {
	p := strings.TrimPrefix(databaseURL, "sqlite:")
	return strings.TrimPrefix(p, "//")
}

// openSQLite opens a database file with the settings that let the bot and a
// CLI subcommand share it: WAL so readers never block the writer, a busy
// timeout so a second writer waits instead of failing, and BEGIN IMMEDIATE
// for every read-write transaction so a transaction takes the write lock
// up front rather than failing when it upgrades from reading.
func openSQLite(path string) (*sql.DB, error) {
	file, dsn, err := sqliteDSN(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite %q: %w", file, err)
	}
	if isMemory(path) {
		// Every connection to :memory: is a separate empty database: keep
		// exactly one, forever.
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
		return db, nil
	}
	// WAL lets readers run beside the one writer; writers queue on the
	// busy timeout. A few connections are enough for one bot.
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db, nil
}

// sqliteDSN builds the modernc.org/sqlite DSN for a path that may carry
// its own ?parameters; ours override the user's for the same settings.
func sqliteDSN(path string) (file, dsn string, err error) {
	if path == "" {
		return "", "", fmt.Errorf("storage: DATABASE_URL sqlite: needs a file path (e.g. sqlite:rssbot.db)")
	}
	file, query, _ := strings.Cut(path, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		return "", "", fmt.Errorf("storage: DATABASE_URL: bad sqlite parameters %q: %w", query, err)
	}
	var pragmas []string
	userSync := false
	for _, p := range params["_pragma"] {
		name := strings.ToLower(strings.TrimSpace(p))
		if strings.HasPrefix(name, "busy_timeout") || strings.HasPrefix(name, "journal_mode") || strings.HasPrefix(name, "foreign_keys") {
			continue
		}
		userSync = userSync || strings.HasPrefix(name, "synchronous")
		pragmas = append(pragmas, p)
	}
	pragmas = append(pragmas,
		fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"foreign_keys(1)",
	)
	if !userSync {
		// NORMAL is durable across application crashes in WAL mode and only
		// risks the last commits on power loss, the usual choice with WAL.
		pragmas = append(pragmas, "synchronous(NORMAL)")
	}
	params["_pragma"] = pragmas
	params.Set("_txlock", "immediate")
	for _, k := range []string{"_busy_timeout", "_timeout", "_journal_mode", "_journal", "_foreign_keys", "_fk"} {
		params.Del(k)
	}
	return file, file + "?" + params.Encode(), nil
}

// isMemory reports whether a sqlite path names an in-memory database.
func isMemory(path string) bool {
	return strings.HasPrefix(path, ":memory:") || strings.HasPrefix(path, "file::memory:") || strings.Contains(path, "mode=memory")
}

// openMySQL opens a go-sql-driver DSN, forcing the settings the code relies
// on whatever the user wrote: multiStatements (migrations), parseTime,
// utf8mb4, and clientFoundRows so that an UPDATE reports the rows it
// matched (as SQLite does) even when no value changed.
func openMySQL(userDSN string) (*sql.DB, error) {
	dsn, err := mysqlDSN(userDSN)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, fmt.Errorf("storage: open mysql: %w", err)
	}
	// Every poller worker, the sender and a few readers each hold one
	// connection at a time; keeping them all idle between uses spares a
	// handshake per transaction.
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	// Below the server's usual wait_timeout, so the pool never hands out a
	// connection the server already closed.
	db.SetConnMaxLifetime(3 * time.Minute)
	return db, nil
}

// mysqlDSN parses a go-sql-driver DSN and sets what the store relies on.
func mysqlDSN(dsn string) (string, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return "", fmt.Errorf("storage: DATABASE_URL: bad MySQL DSN (want mysql://user:pass@tcp(host:3306)/db): %w", err)
	}
	if cfg.DBName == "" {
		return "", fmt.Errorf("storage: DATABASE_URL: the MySQL DSN names no database (want mysql://user:pass@tcp(host:3306)/db)")
	}
	cfg.ParseTime = true
	cfg.MultiStatements = true
	cfg.ClientFoundRows = true
	// Arguments go into the statement text (escaped by the driver, safe
	// with the forced utf8mb4): one round trip per statement instead of
	// prepare, execute and close.
	cfg.InterpolateParams = true
	if err := cfg.Apply(mysql.Charset("utf8mb4", "utf8mb4_unicode_ci")); err != nil {
		return "", fmt.Errorf("storage: DATABASE_URL: %w", err)
	}
	return cfg.FormatDSN(), nil
}

// scheme returns what precedes the first colon, for error messages that
// must not quote a URL's password.
func scheme(u string) string {
	s, _, found := strings.Cut(u, ":")
	if !found || s == "" {
		return "no scheme"
	}
	return "scheme " + strconv.Quote(s)
}
