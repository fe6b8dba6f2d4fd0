package migrations

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"
)

// golang-migrate reads VERSION_TITLE.up.sql / .down.sql; every up needs its down.
var migrationName = regexp.MustCompile(`^(\d{6})_[a-z0-9_]+\.(up|down)\.sql$`)

func TestFSPairsUpAndDown(t *testing.T) {
	versions := map[string][]string{}
	for _, dialect := range []string{MySQL, SQLite} {
		files, err := FS(dialect)
		if err != nil {
			t.Fatal(err)
		}
		names, err := fs.Glob(files, "*")
		if err != nil {
			t.Fatal(err)
		}
		if len(names) == 0 {
			t.Fatalf("%s: no migrations embedded", dialect)
		}
		seen := map[string]int{}
		for _, n := range names {
			m := migrationName.FindStringSubmatch(n)
			if m == nil {
				t.Errorf("%s: %s is not named NNNNNN_title.up|down.sql", dialect, n)
				continue
			}
			seen[m[1]]++
			if m[2] == "up" {
				versions[dialect] = append(versions[dialect], m[1])
			}
		}
		for v, n := range seen {
			if n != 2 {
				t.Errorf("%s: version %s has %d files, want an up and a down", dialect, v, n)
			}
		}
	}
	if !slices.Equal(versions[MySQL], versions[SQLite]) {
		t.Errorf("versions differ: mysql %v, sqlite %v; both dialects must migrate in step", versions[MySQL], versions[SQLite])
	}
}

func TestFSUnknownDialect(t *testing.T) {
	if _, err := FS("postgres"); err == nil {
		t.Fatal("FS(postgres) succeeded")
	}
}
