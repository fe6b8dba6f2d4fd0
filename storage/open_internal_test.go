package storage

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// The issue requires parseTime and multiStatements whatever the user wrote;
// clientFoundRows keeps RowsAffected meaning "matched" as in SQLite.
func TestMySQLDSNForcesSettings(t *testing.T) {
	tests := []struct {
		name, in string
		wantNet  string
		wantAddr string
	}{
		{"tcp with contrary params", "u:p%40ss@tcp(db.example:3307)/rss?parseTime=false&multiStatements=false&clientFoundRows=false&interpolateParams=false&charset=latin1", "tcp", "db.example:3307"},
		{"unix socket", "rssbot@unix(/run/mysqld/mysqld.sock)/rssbot", "unix", "/run/mysqld/mysqld.sock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dsn, err := mysqlDSN(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := mysql.ParseDSN(dsn)
			if err != nil {
				t.Fatalf("ParseDSN(%q): %v", dsn, err)
			}
			if !cfg.ParseTime || !cfg.MultiStatements || !cfg.ClientFoundRows || !cfg.InterpolateParams {
				t.Errorf("parseTime=%v multiStatements=%v clientFoundRows=%v interpolateParams=%v; want all true",
					cfg.ParseTime, cfg.MultiStatements, cfg.ClientFoundRows, cfg.InterpolateParams)
			}
			if cfg.Collation != "utf8mb4_unicode_ci" || !strings.Contains(dsn, "charset=utf8mb4") {
				t.Errorf("dsn %q: collation %q; want utf8mb4", dsn, cfg.Collation)
			}
			if cfg.Net != tt.wantNet || cfg.Addr != tt.wantAddr {
				t.Errorf("net, addr = %s, %s; want %s, %s", cfg.Net, cfg.Addr, tt.wantNet, tt.wantAddr)
			}
		})
	}
}

func TestSQLiteDSNOverridesUserSettings(t *testing.T) {
	file, dsn, err := sqliteDSN("data/x.db?_txlock=deferred&_pragma=journal_mode(DELETE)&_pragma=cache_size(-4000)&_fk=0")
	if err != nil {
		t.Fatal(err)
	}
	if file != "data/x.db" {
		t.Errorf("file = %q", file)
	}
	_, query, _ := strings.Cut(dsn, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	if got := q["_txlock"]; !slices.Equal(got, []string{"immediate"}) {
		t.Errorf("_txlock = %v, want [immediate]", got)
	}
	if q.Has("_fk") {
		t.Errorf("user's _fk kept: %v", q)
	}
	want := []string{"cache_size(-4000)", "busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)"}
	if got := q["_pragma"]; !slices.Equal(got, want) {
		t.Errorf("_pragma = %v, want %v", got, want)
	}
}

// The settings must be in effect on a real connection, not only in the DSN.
func TestSQLiteConnectionSettings(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checks := []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
		{"synchronous", "1"},
	}
	for _, c := range checks {
		var got string
		if err := st.db.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", c.pragma, err)
		}
		if got != c.want {
			t.Errorf("PRAGMA %s = %q, want %q", c.pragma, got, c.want)
		}
	}
}

func TestDirtyErrorExplainsRecovery(t *testing.T) {
	tests := []struct {
		version int
		want    []string
	}{
		{3, []string{"migration 3 is dirty", "migrations/sqlite/000003_*.up.sql", "UPDATE schema_migrations SET version = 2, dirty = 0", "force 2", "rssbot migrate"}},
		{1, []string{"migration 1 is dirty", "DELETE FROM schema_migrations", "rssbot migrate"}},
	}
	for _, tt := range tests {
		msg := dirtyError("sqlite", tt.version).Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("dirtyError(%d) = %q; missing %q", tt.version, msg, w)
			}
		}
	}
}
