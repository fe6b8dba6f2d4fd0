package storage_test

import (
	"context"
	"database/sql"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/migrations"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// rawDB opens the database behind a DATABASE_URL without the store, to
// tamper with it as a failed migration or an operator would.
func rawDB(t *testing.T, databaseURL string) *sql.DB {
	t.Helper()
	driver, dsn := "sqlite", strings.TrimPrefix(databaseURL, "sqlite:")
	if strings.HasPrefix(databaseURL, "mysql://") {
		driver, dsn = "mysql", strings.TrimPrefix(databaseURL, "mysql://")
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrateTwiceIsNoop(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url) // migrated once
		ctx := ctxT(t)
		mustFeed(t, st, "https://example.org/rss", "example.org")
		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		// Another store on the same database too, and the first still works
		// (Migrate must not close the store's database).
		other := storagetest.Open(t, url)
		if err := other.Migrate(ctx); err != nil {
			t.Fatalf("Migrate from a second store: %v", err)
		}
		if fs, err := st.ListFeeds(ctx); err != nil || len(fs) != 1 {
			t.Fatalf("ListFeeds after migrations = %v, %v; want the feed kept", fs, err)
		}
		var version int
		var dirty bool
		if err := rawDB(t, url).QueryRowContext(ctx, "SELECT version, dirty FROM schema_migrations").Scan(&version, &dirty); err != nil {
			t.Fatal(err)
		}
		if version != 3 || dirty {
			t.Fatalf("schema_migrations = %d, dirty %v", version, dirty)
		}
	})
}

// recoverySQL pulls the SQL the dirty error tells the operator to run.
var recoverySQL = regexp.MustCompile("the SQL `([^`]+)`")

func TestMigrateDirtyExplainsRecovery(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		db := rawDB(t, url)

		// A later migration (2) failed halfway.
		if _, err := db.ExecContext(ctx, "UPDATE schema_migrations SET version = 2, dirty = 1"); err != nil {
			t.Fatal(err)
		}
		err := st.Migrate(ctx)
		followRecovery(t, ctx, db, err, "migration 2 is dirty")
		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("Migrate after following the recovery text: %v", err)
		}

		// The first migration failed halfway: undo it, follow the text.
		if _, err := db.ExecContext(ctx, "UPDATE schema_migrations SET version = 1, dirty = 1"); err != nil {
			t.Fatal(err)
		}
		err = st.Migrate(ctx)
		runDown(t, ctx, db, st.Dialect())
		followRecovery(t, ctx, db, err, "migration 1 is dirty")
		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("Migrate after following the recovery text: %v", err)
		}
		mustFeed(t, st, "https://example.org/rss", "example.org")
	})
}

func followRecovery(t *testing.T, ctx context.Context, db *sql.DB, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "rssbot migrate") {
		t.Fatalf("Migrate on a dirty database = %v; want %q and how to recover", err, want)
	}
	m := recoverySQL.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no recovery SQL in %q", err)
	}
	if _, err := db.ExecContext(ctx, m[1]); err != nil {
		t.Fatalf("recovery SQL %q: %v", m[1], err)
	}
}

// runDown applies the first migration's down file, statement by statement.
func runDown(t *testing.T, ctx context.Context, db *sql.DB, dialect string) {
	t.Helper()
	files, err := migrations.FS(dialect)
	if err != nil {
		t.Fatal(err)
	}
	down, err := fs.ReadFile(files, "000001_init.down.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range strings.Split(string(down), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name, url string
		want      []string
		notWant   string
	}{
		{"no scheme", "rssbot.db", []string{"must start with sqlite: or mysql://"}, ""},
		{"other scheme hides the password", "postgres://u:hunter2@db/x", []string{"must start with sqlite: or mysql://", `"postgres"`}, "hunter2"},
		{"empty sqlite path", "sqlite:", []string{"needs a file path"}, ""},
		{"bad mysql dsn", "mysql://u:hunter2@tcp(db:3306", []string{"bad MySQL DSN"}, "hunter2"},
		{"mysql without database", "mysql://u@tcp(db:3306)/", []string{"names no database"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := storage.Open(context.Background(), tt.url)
			if err == nil {
				t.Fatal("Open succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if tt.notWant != "" && strings.Contains(err.Error(), tt.notWant) {
				t.Errorf("error %q reveals %q", err, tt.notWant)
			}
		})
	}
}

func TestOpenSQLiteForms(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{"sqlite://" + dir + "/a.db", "sqlite:" + dir + "/b.db?_pragma=cache_size(-1000)", "sqlite::memory:"} {
		t.Run(url, func(t *testing.T) {
			st := storagetest.Open(t, url)
			f := mustFeed(t, st, "https://example.org/rss", "example.org")
			if got, err := st.FeedByID(ctxT(t), f.ID); err != nil || got.URL != f.URL {
				t.Fatalf("FeedByID = %+v, %v", got, err)
			}
		})
	}
}
