package storage_test

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// One code path serves both dialects, so both schemas must have the same
// tables with the same columns.
func TestDialectsHaveSameColumns(t *testing.T) {
	ctx := ctxT(t)
	sqliteURL := storagetest.SQLiteURL(t)
	storagetest.Open(t, sqliteURL)
	mysqlURL := storagetest.MySQLURL(t)
	storagetest.Open(t, mysqlURL)

	lite := columnsOf(t, ctx, rawDB(t, sqliteURL), `SELECT m.name, p.name FROM sqlite_master m
		JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
		AND m.name != 'rssbot_migrate_lock'`) // SQLite only: MySQL has GET_LOCK
	my := columnsOf(t, ctx, rawDB(t, mysqlURL), `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = DATABASE()`)
	if len(lite) < 10 {
		t.Fatalf("sqlite schema has only %d tables: %v", len(lite), slices.Sorted(maps.Keys(lite)))
	}
	for table, cols := range lite {
		if got := my[table]; !slices.Equal(got, cols) {
			t.Errorf("table %s: sqlite columns %v, mysql %v", table, cols, got)
		}
	}
	for table := range my {
		if _, ok := lite[table]; !ok {
			t.Errorf("table %s exists only in mysql", table)
		}
	}
}

// columnsOf maps table → sorted column names from a (table, column) query.
func columnsOf(t *testing.T, ctx context.Context, db *sql.DB, query string) map[string][]string {
	t.Helper()
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		out[table] = append(out[table], strings.ToLower(col))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, cols := range out {
		slices.Sort(cols)
	}
	return out
}
