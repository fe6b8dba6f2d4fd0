// Package storagetest gives tests in any package a fresh, migrated database:
// SQLite always, MySQL/MariaDB when RSSBOT_TEST_MYSQL_DSN names a server
// (CI sets it). Each test gets its own database, so packages tested in
// parallel against one server never see each other's rows.
package storagetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/rssbot/rssbot/storage"
)

// MySQLEnv is the variable holding a plain go-sql-driver DSN of a server
// the tests may create and drop databases on, e.g.
// root@tcp(127.0.0.1:3306)/rssbot_test. Its database name is only used to
// connect; every test gets a new database.
const MySQLEnv = "RSSBOT_TEST_MYSQL_DSN"

// SQLiteURL returns the DATABASE_URL of a new SQLite file in t.TempDir().
func SQLiteURL(t testing.TB) string {
	t.Helper()
	return "sqlite:" + filepath.Join(t.TempDir(), "rssbot.db")
}

// MySQLURL creates a uniquely named database on the server of
// RSSBOT_TEST_MYSQL_DSN, drops it when the test ends, and returns its
// DATABASE_URL. Without the variable the test is skipped.
func MySQLURL(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(MySQLEnv)
	if dsn == "" {
		t.Skip(MySQLEnv + " not set: MySQL tests skipped (CI sets it)")
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("storagetest: %s: %v", MySQLEnv, err)
	}
	// The server connection names no database: the one in the variable
	// need not exist.
	server := cfg.Clone()
	server.DBName = ""
	admin, err := sql.Open("mysql", server.FormatDSN())
	if err != nil {
		t.Fatalf("storagetest: open %s: %v", MySQLEnv, err)
	}
	defer admin.Close()

	name := "rssbot_t_" + randomHex(t, 8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"); err != nil {
		t.Fatalf("storagetest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("mysql", server.FormatDSN())
		if err != nil {
			t.Errorf("storagetest: drop database %s: %v", name, err)
			return
		}
		defer db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
			t.Errorf("storagetest: drop database %s: %v", name, err)
		}
	})
	cfg.DBName = name
	return "mysql://" + cfg.FormatDSN()
}

// Each runs fn as the subtests "sqlite" and "mysql" (the latter skipped
// without RSSBOT_TEST_MYSQL_DSN), each with a fresh, empty database.
func Each(t *testing.T, fn func(t *testing.T, databaseURL string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteURL(t)) })
	t.Run("mysql", func(t *testing.T) { fn(t, MySQLURL(t)) })
}

// Open opens and migrates databaseURL and closes the store when the test
// ends.
func Open(t testing.TB, databaseURL string) *storage.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := storage.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("storagetest: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("storagetest: %v", err)
		}
	})
	if err := st.Migrate(ctx); err != nil {
		t.Fatalf("storagetest: %v", err)
	}
	return st
}

func randomHex(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("storagetest: random name: %v", err)
	}
	return hex.EncodeToString(b)
}
