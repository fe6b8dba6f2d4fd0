package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratemysql "github.com/golang-migrate/migrate/v4/database/mysql"
	migratesqlite "github.com/golang-migrate/migrate/v4/database/sqlite"
	"github.com/golang-migrate/migrate/v4/source/iofs"

	"github.com/rssbot/rssbot/migrations"
)

// migrationsTable is golang-migrate's bookkeeping table (its default name).
const migrationsTable = "schema_migrations"

// Migrate applies all embedded migrations (golang-migrate). A dirty database
// is reported with the version and how to recover.
func (s *Store) Migrate(ctx context.Context) error {
	if s.d.name == "sqlite" {
		release, err := s.lockSQLiteMigrations(ctx)
		if err != nil {
			return fmt.Errorf("storage: migrate: %w", err)
		}
		defer release()
	}
	files, err := migrations.FS(s.d.name)
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	src, err := iofs.New(files, ".")
	if err != nil {
		return fmt.Errorf("storage: migrate: read embedded migrations: %w", err)
	}
	defer src.Close()

	drv, release, err := s.migrateDriver(ctx)
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	defer release()

	m, err := migrate.NewWithInstance("iofs", src, s.d.name, drv)
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	// m.Close is deliberately not called: it would close the driver and with
	// it the store's own *sql.DB. release and src.Close free what was taken.
	err = m.Up()
	var dirty migrate.ErrDirty
	switch {
	case err == nil, errors.Is(err, migrate.ErrNoChange):
		return nil
	case errors.As(err, &dirty):
		return dirtyError(s.d.name, dirty.Version)
	default:
		return fmt.Errorf("storage: migrate: %w", err)
	}
}

// migrateDriver wraps the store's database for golang-migrate. The MySQL
// driver works on one dedicated connection (it holds the GET_LOCK advisory
// lock there); release returns that connection to the pool.
func (s *Store) migrateDriver(ctx context.Context) (database.Driver, func(), error) {
	if s.d.name == "mysql" {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return nil, nil, err
		}
		drv, err := migratemysql.WithConnection(ctx, conn, &migratemysql.Config{MigrationsTable: migrationsTable})
		if err != nil {
			conn.Close()
			return nil, nil, err
		}
		return drv, func() { conn.Close() }, nil
	}
	drv, err := migratesqlite.WithInstance(s.db, &migratesqlite.Config{MigrationsTable: migrationsTable})
	if err != nil {
		return nil, nil, err
	}
	return drv, func() {}, nil
}

// dirtyError explains how to recover from a migration that failed halfway.
// golang-migrate marks the version dirty before running it and clean after,
// so "dirty N" means: migration N started and did not finish.
func dirtyError(dialectName string, version int) error {
	prev := version - 1
	markClean := fmt.Sprintf("UPDATE %s SET version = %d, dirty = 0", migrationsTable, prev)
	cli := fmt.Sprintf("or with the golang-migrate CLI `migrate -path migrations/%s -database DATABASE_URL force %d`", dialectName, prev)
	if prev < 1 {
		markClean = "DELETE FROM " + migrationsTable
		cli = "(nothing was migrated before it)"
	}
	return fmt.Errorf("storage: migration %d is dirty (a previous migration failed halfway); "+
		"fix the schema by hand: undo what part of migrations/%s/%06d_*.up.sql was applied, "+
		"then set the version to %d with the SQL `%s` %s, "+
		"then run `rssbot migrate` again", version, dialectName, version, prev, markClean, cli)
}
