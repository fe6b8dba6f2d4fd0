package config

import (
	"net"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// Database URL schemes.
const (
	sqliteScheme = "sqlite:"
	mysqlScheme  = "mysql://"
)

// Defaults for the original rssbot's MYSQL_* settings.
const (
	defaultMySQLHost = "127.0.0.1"
	defaultMySQLPort = "3306"
	defaultMySQLUser = "root"
	defaultMySQLDB   = "rssbot"
)

// mysqlSettings are the original rssbot's database settings, used when
// DATABASE_URL is unset.
func mysqlSettings() []string {
	return []string{"MYSQL_HOST", "MYSQL_PORT", "MYSQL_USER", "MYSQL_PASSWORD", "MYSQL_DB", "MYSQL_SOCKET"}
}

// databaseURL returns DATABASE_URL, or one composed from MYSQL_*, or the
// SQLite default. DATABASE_URL wins when both are given, as documented.
func (l *loader) databaseURL() string {
	if !l.isSet("DATABASE_URL") {
		for _, name := range mysqlSettings() {
			if l.isSet(name) {
				return l.mysqlURL()
			}
		}
	}
	v := l.get("DATABASE_URL")
	if msg := checkDatabaseURL(v); msg != "" {
		l.fail("DATABASE_URL", nil, "%s", msg)
		return ""
	}
	return v
}

// checkDatabaseURL returns what is wrong with a database URL, or "". The
// messages never repeat a MySQL DSN, which may hold a password.
func checkDatabaseURL(v string) string {
	switch {
	case strings.HasPrefix(v, sqliteScheme):
		if strings.TrimPrefix(v, sqliteScheme) == "" {
			return "sqlite: needs a path, like sqlite:rssbot.db"
		}
		return ""
	case strings.HasPrefix(v, mysqlScheme):
		dsn := strings.TrimPrefix(v, mysqlScheme)
		if dsn == "" {
			return "mysql:// needs a DSN, like mysql://user:pass@tcp(host:3306)/db"
		}
		if _, err := mysql.ParseDSN(dsn); err != nil {
			return "invalid MySQL DSN after mysql://: " + err.Error()
		}
		return ""
	}
	return "must be sqlite:PATH or mysql://user:pass@tcp(host:3306)/db, got " + strconv.Quote(schemeOnly(v))
}

// schemeOnly shortens a value to the part before its first colon, so an
// unsupported URL such as postgres://user:secret@host is shown without its
// credentials.
func schemeOnly(v string) string {
	if i := strings.IndexByte(v, ':'); i >= 0 && i < len(v)-1 {
		return v[:i+1] + "…"
	}
	return v
}

// mysqlURL composes "mysql://" + a DSN from the MYSQL_* settings. The DSN is
// written by the driver itself, which is what makes passwords with '@', '/'
// or ':' come out parseable.
func (l *loader) mysqlURL() string {
	cfg := mysql.NewConfig()
	ok := true
	cfg.User = l.getOr("MYSQL_USER", defaultMySQLUser)
	if strings.Contains(cfg.User, ":") {
		// The driver splits user from password at the first colon.
		l.fail("MYSQL_USER", nil, "must not contain \":\", got %q", cfg.User)
		ok = false
	}
	// The password is taken verbatim: spaces may be part of it.
	cfg.Passwd, _ = l.raw("MYSQL_PASSWORD")
	cfg.DBName = l.getOr("MYSQL_DB", defaultMySQLDB)
	if l.isSet("MYSQL_SOCKET") {
		cfg.Net, cfg.Addr = "unix", l.get("MYSQL_SOCKET")
	} else {
		host, okHost := l.mysqlHost()
		port, okPort := l.mysqlPort()
		ok = ok && okHost && okPort
		cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(host, port)
	}
	if !ok {
		return ""
	}
	dsn := cfg.FormatDSN()
	if !l.roundTrips(dsn, cfg) {
		return ""
	}
	return mysqlScheme + dsn
}

// roundTrips checks that the driver parses dsn back into the values it was
// written from, naming the setting that does not survive.
func (l *loader) roundTrips(dsn string, want *mysql.Config) bool {
	addrSetting := "MYSQL_HOST"
	if want.Net == "unix" {
		addrSetting = "MYSQL_SOCKET"
	}
	got, err := mysql.ParseDSN(dsn)
	if err != nil {
		// Only the address can break the DSN's syntax: the driver escapes
		// the database name and splits credentials at the last '@'.
		l.fail(addrSetting, err, "cannot be written in a DSN: %q", want.Addr)
		return false
	}
	checks := []struct {
		name      string
		got, want string
	}{
		{"MYSQL_USER", got.User, want.User},
		{addrSetting, got.Addr, want.Addr},
		{"MYSQL_DB", got.DBName, want.DBName},
	}
	for _, c := range checks {
		if c.got != c.want {
			l.fail(c.name, nil, "cannot be written in a DSN: %q", c.want)
			return false
		}
	}
	if got.Passwd != want.Passwd {
		l.fail("MYSQL_PASSWORD", nil, "cannot be written in a DSN")
		return false
	}
	return true
}

// mysqlHost returns MYSQL_HOST without brackets; a port belongs in MYSQL_PORT.
func (l *loader) mysqlHost() (string, bool) {
	host := l.getOr("MYSQL_HOST", defaultMySQLHost)
	bare := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.Contains(bare, ":") && net.ParseIP(bare) == nil || strings.ContainsAny(bare, "/@()") {
		l.fail("MYSQL_HOST", nil, "must be a host name or IP address without a port (set MYSQL_PORT), got %q", host)
		return "", false
	}
	return bare, true
}

// mysqlPort returns MYSQL_PORT, a TCP port number.
func (l *loader) mysqlPort() (string, bool) {
	port := l.getOr("MYSQL_PORT", defaultMySQLPort)
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 {
		l.fail("MYSQL_PORT", err, "invalid port %q", port)
		return "", false
	}
	return port, true
}

// getOr returns a setting's trimmed value, or def when it is unset.
func (l *loader) getOr(name, def string) string {
	if v := l.get(name); v != "" {
		return v
	}
	return def
}

// redactDatabaseURL hides the password of a MySQL DSN for logging.
func redactDatabaseURL(v string) string {
	dsn, ok := strings.CutPrefix(v, mysqlScheme)
	if !ok {
		return v
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return mysqlScheme + "<unparseable DSN>"
	}
	if cfg.Passwd != "" {
		cfg.Passwd = redacted
	}
	return mysqlScheme + cfg.FormatDSN()
}
