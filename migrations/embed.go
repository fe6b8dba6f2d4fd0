// Package migrations holds the database schema as golang-migrate files, one
// directory per dialect (mysql/ and sqlite/), embedded into the binary so
// that `rssbot migrate` needs nothing beside the executable.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed mysql/*.sql sqlite/*.sql
var files embed.FS

// Dialects the schema exists for; each names a directory of migration files.
const (
	MySQL  = "mysql"
	SQLite = "sqlite"
)

// FS returns the migration files of one dialect (MySQL or SQLite), named the
// golang-migrate way: 000001_init.up.sql, 000001_init.down.sql, …
func FS(dialect string) (fs.FS, error) {
	switch dialect {
	case MySQL, SQLite:
		return fs.Sub(files, dialect)
	default:
		return nil, fmt.Errorf("migrations: unknown dialect %q (want %q or %q)", dialect, MySQL, SQLite)
	}
}
