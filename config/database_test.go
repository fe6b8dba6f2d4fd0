package config

import (
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// Rule: DATABASE_URL is sqlite:PATH or mysql:// + a go-sql-driver DSN; other
// values are refused without echoing credentials.
func TestDatabaseURL(t *testing.T) {
	cases := []struct {
		rule, value, want, err string
	}{
		{"default is SQLite", "", "sqlite:rssbot.db", ""},
		{"sqlite:PATH", "sqlite:/var/lib/rssbot/rssbot.db", "sqlite:/var/lib/rssbot/rssbot.db", ""},
		{"mysql tcp DSN", "mysql://rss:pw@tcp(db:3306)/rssbot", "mysql://rss:pw@tcp(db:3306)/rssbot", ""},
		{"mysql socket DSN", "mysql://rss@unix(/run/mysqld/mysqld.sock)/rssbot", "mysql://rss@unix(/run/mysqld/mysqld.sock)/rssbot", ""},
		{"mysql DSN with params", "mysql://rss:pw@tcp(db)/rssbot?tls=true", "mysql://rss:pw@tcp(db)/rssbot?tls=true", ""},
		{"sqlite needs a path", "sqlite:", "", "DATABASE_URL: sqlite: needs a path, like sqlite:rssbot.db"},
		{"mysql needs a DSN", "mysql://", "", "DATABASE_URL: mysql:// needs a DSN, like mysql://user:pass@tcp(host:3306)/db"},
		{"mysql DSN must parse", "mysql://rss:pw@tcp(db:3306", "", "DATABASE_URL: invalid MySQL DSN after mysql://: invalid DSN: missing the slash separating the database name"},
		{"other schemes are refused without credentials", "postgres://rss:secret@db/rssbot", "", `DATABASE_URL: must be sqlite:PATH or mysql://user:pass@tcp(host:3306)/db, got "postgres:…"`},
		{"mysql: without slashes is refused", "mysql:rss:secret@tcp(db)/x", "", `DATABASE_URL: must be sqlite:PATH or mysql://user:pass@tcp(host:3306)/db, got "mysql:…"`},
		{"a bare path is refused", "rssbot.db", "", `DATABASE_URL: must be sqlite:PATH or mysql://user:pass@tcp(host:3306)/db, got "rssbot.db"`},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := loadMap(t, map[string]string{"DATABASE_URL": tc.value})
			if tc.err != "" {
				if got := problems(err); len(got) != 1 || got[0] != tc.err {
					t.Fatalf("problems = %q, want %q", got, tc.err)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error leaks the password: %v", err)
				}
				return
			}
			if err != nil || c.DatabaseURL != tc.want {
				t.Fatalf("DatabaseURL = %q, %v; want %q", c.DatabaseURL, err, tc.want)
			}
		})
	}
}

// Rule: with DATABASE_URL unset, any MYSQL_* setting selects MySQL with the
// original rssbot's defaults (127.0.0.1:3306, root, rssbot); a socket
// replaces host and port; the DSN is written by the driver.
func TestMySQLComposition(t *testing.T) {
	cases := []struct {
		rule string
		env  map[string]string
		want string
	}{
		{"defaults fill the rest", map[string]string{"MYSQL_DB": "feeds"}, "mysql://root@tcp(127.0.0.1:3306)/feeds"},
		{"all tcp settings", map[string]string{"MYSQL_HOST": "db.internal", "MYSQL_PORT": "3307", "MYSQL_USER": "rss", "MYSQL_PASSWORD": "pw", "MYSQL_DB": "bot"}, "mysql://rss:pw@tcp(db.internal:3307)/bot"},
		{"IPv6 host is bracketed", map[string]string{"MYSQL_HOST": "::1"}, "mysql://root@tcp([::1]:3306)/rssbot"},
		{"bracketed IPv6 host is accepted", map[string]string{"MYSQL_HOST": "[::1]"}, "mysql://root@tcp([::1]:3306)/rssbot"},
		{"socket replaces host and port", map[string]string{"MYSQL_SOCKET": "/run/mysqld/mysqld.sock", "MYSQL_HOST": "ignored", "MYSQL_USER": "rss"}, "mysql://rss@unix(/run/mysqld/mysqld.sock)/rssbot"},
		{"password with @ and /", map[string]string{"MYSQL_PASSWORD": "p@ss/w:rd)"}, "mysql://root:p@ss/w:rd)@tcp(127.0.0.1:3306)/rssbot"},
		{"password keeps its spaces", map[string]string{"MYSQL_PASSWORD": " two words "}, "mysql://root: two words @tcp(127.0.0.1:3306)/rssbot"},
		{"DATABASE_URL wins over MYSQL_*", map[string]string{"DATABASE_URL": "sqlite:x.db", "MYSQL_HOST": "db"}, "sqlite:x.db"},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			c, err := loadMap(t, tc.env)
			if err != nil || c.DatabaseURL != tc.want {
				t.Fatalf("DatabaseURL = %q, %v; want %q", c.DatabaseURL, err, tc.want)
			}
		})
	}
}

// Rule: a composed DSN parses back into exactly the settings given, so a
// password with special characters reaches the server intact.
func TestMySQLPasswordRoundTrip(t *testing.T) {
	for _, pw := range []string{"p@ss/word", "a:b@c/d?e=f&g", "()@tcp(evil:1)/x", `back\slash"quote'`, "ünïcødé"} {
		c, err := loadMap(t, map[string]string{"MYSQL_PASSWORD": pw, "MYSQL_USER": "u@x", "MYSQL_DB": "d/b"})
		if err != nil {
			t.Fatalf("%q: %v", pw, err)
		}
		cfg, err := mysql.ParseDSN(strings.TrimPrefix(c.DatabaseURL, "mysql://"))
		if err != nil {
			t.Fatalf("%q: ParseDSN(%q): %v", pw, c.DatabaseURL, err)
		}
		if cfg.Passwd != pw || cfg.User != "u@x" || cfg.DBName != "d/b" || cfg.Addr != "127.0.0.1:3306" || cfg.Net != "tcp" {
			t.Errorf("%q: parsed back as user %q pass %q db %q addr %s(%s)", pw, cfg.User, cfg.Passwd, cfg.DBName, cfg.Net, cfg.Addr)
		}
	}
}

// Rule: MYSQL_* values that cannot form a DSN are refused, naming the setting.
func TestMySQLInvalid(t *testing.T) {
	cases := []struct {
		rule string
		env  map[string]string
		want []string
	}{
		{"port is numeric", map[string]string{"MYSQL_PORT": "mysql"}, []string{`MYSQL_PORT: invalid port "mysql"`}},
		{"port is not zero", map[string]string{"MYSQL_PORT": "0"}, []string{`MYSQL_PORT: invalid port "0"`}},
		{"port fits 16 bits", map[string]string{"MYSQL_PORT": "65536"}, []string{`MYSQL_PORT: invalid port "65536"`}},
		{"host has no port", map[string]string{"MYSQL_HOST": "db:3307"}, []string{`MYSQL_HOST: must be a host name or IP address without a port (set MYSQL_PORT), got "db:3307"`}},
		{"user has no colon", map[string]string{"MYSQL_USER": "a:b"}, []string{`MYSQL_USER: must not contain ":", got "a:b"`}},
		{"socket path with @ cannot be written", map[string]string{"MYSQL_SOCKET": "/tmp/a@b.sock"}, []string{`MYSQL_SOCKET: cannot be written in a DSN: "/tmp/a@b.sock"`}},
		{"all problems at once", map[string]string{"MYSQL_USER": "a:b", "MYSQL_HOST": "db:1", "MYSQL_PORT": "x"}, []string{
			`MYSQL_USER: must not contain ":", got "a:b"`,
			`MYSQL_HOST: must be a host name or IP address without a port (set MYSQL_PORT), got "db:1"`,
			`MYSQL_PORT: invalid port "x"`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			_, err := loadMap(t, tc.env)
			got := problems(err)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("problems:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// Rule: logs show a MySQL DSN without its password.
func TestRedactDatabaseURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"sqlite:rssbot.db", "sqlite:rssbot.db"},
		{"mysql://rss:s3cr3t@tcp(db:3306)/rssbot", "mysql://rss:<redacted>@tcp(db:3306)/rssbot"},
		{"mysql://rss@unix(/run/mysqld/mysqld.sock)/rssbot", "mysql://rss@unix(/run/mysqld/mysqld.sock)/rssbot"},
		{"mysql://rss:s3cr3t@tcp(db:3306", "mysql://<unparseable DSN>"},
	}
	for _, tc := range cases {
		if got := redactDatabaseURL(tc.in); got != tc.want {
			t.Errorf("redactDatabaseURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
