package storage

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/go-sql-driver/mysql"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect isolates the few places where MySQL/MariaDB and SQLite need
// different SQL or treat errors differently. Everything else is shared.
type dialect struct {
	name string // "mysql" or "sqlite": also the migrations directory

	// insertIgnore starts an INSERT that silently skips rows violating a
	// unique key, leaving RowsAffected = 0 for them.
	insertIgnore string

	// updateIgnore starts an UPDATE that leaves alone the rows whose new
	// values would violate a unique key.
	updateIgnore string

	// lockSkip ends a SELECT whose rows are about to be leased. MySQL locks
	// them and lets a concurrent claimer skip to other rows; SQLite needs
	// nothing because the IMMEDIATE transaction already excludes all other
	// writers.
	lockSkip string

	// writeTx are the options of every transaction that writes.
	writeTx *sql.TxOptions
}

var (
	mysqlDialect = dialect{
		name:         "mysql",
		insertIgnore: "INSERT IGNORE INTO",
		updateIgnore: "UPDATE IGNORE",
		lockSkip:     " FOR UPDATE SKIP LOCKED",
		// READ COMMITTED takes no gap locks, which keeps concurrent claims and
		// imports from deadlocking on index ranges.
		writeTx: &sql.TxOptions{Isolation: sql.LevelReadCommitted},
	}
	sqliteDialect = dialect{
		name:         "sqlite",
		insertIgnore: "INSERT OR IGNORE INTO",
		updateIgnore: "UPDATE OR IGNORE",
		lockSkip:     "",
		// The DSN sets _txlock=immediate, so a plain BeginTx is BEGIN IMMEDIATE.
		writeTx: nil,
	}
)

// upsert returns the clause that turns an INSERT into an update of the
// listed columns when a row with the same conflict key exists.
func (d dialect) upsert(conflict []string, update []string) string {
	var b strings.Builder
	if d.name == "mysql" {
		b.WriteString(" ON DUPLICATE KEY UPDATE ")
		for i, c := range update {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c + " = VALUES(" + c + ")")
		}
		return b.String()
	}
	b.WriteString(" ON CONFLICT (" + strings.Join(conflict, ", ") + ") DO UPDATE SET ")
	for i, c := range update {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + " = excluded." + c)
	}
	return b.String()
}

// isDuplicate reports whether err is a unique or primary key violation.
func (d dialect) isDuplicate(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1062 // ER_DUP_ENTRY
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// isMissingParent reports whether err is a foreign key violation: the row
// points at a feed, chat or subscription that does not exist.
func (d dialect) isMissingParent(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1452 // ER_NO_REFERENCED_ROW_2
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	}
	return false
}

// isRetryable reports whether a transaction failed only because it lost a
// race with another one and can simply run again. On MySQL that is a
// deadlock or a lock wait timeout. SQLite's IMMEDIATE transactions wait
// under busy_timeout instead of deadlocking, so nothing is retried there.
func (d dialect) isRetryable(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1213 || me.Number == 1205 // ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT
	}
	return false
}
