package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// AddReplacement stores a replacement rule (FeedID 0 = global) and returns
// its id. CreatedAt zero means now.
func (s *Store) AddReplacement(ctx context.Context, r Replacement) (int64, error) {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now()
	}
	id, err := s.insertID(ctx, `INSERT INTO replacements (feed_id, pattern, is_regex, replacement, created_at)
		VALUES (?, ?, ?, ?, ?)`, "feed", r.FeedID, idOrNull(r.FeedID), r.Pattern, r.IsRegex, r.Replacement, msOf(r.CreatedAt))
	if err != nil {
		return 0, fmt.Errorf("storage: add replacement: %w", err)
	}
	return id, nil
}

// Replacements lists the global rules and those of feedID (0 = global only), by id.
func (s *Store) Replacements(ctx context.Context, feedID int64) ([]Replacement, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, feed_id, pattern, is_regex, replacement, created_at
		FROM replacements WHERE feed_id IS NULL OR feed_id = ? ORDER BY id`, feedID)
	if err != nil {
		return nil, fmt.Errorf("storage: replacements: %w", err)
	}
	defer rows.Close()
	var out []Replacement
	for rows.Next() {
		var (
			r       Replacement
			feed    sql.NullInt64
			created sql.NullInt64
		)
		if err := rows.Scan(&r.ID, &feed, &r.Pattern, &r.IsRegex, &r.Replacement, &created); err != nil {
			return nil, fmt.Errorf("storage: replacements: %w", err)
		}
		r.FeedID, r.CreatedAt = feed.Int64, timeOf(created)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: replacements: %w", err)
	}
	return out, nil
}

// DeleteReplacement deletes a rule (ErrNotFound if missing).
func (s *Store) DeleteReplacement(ctx context.Context, id int64) error {
	if err := s.deleteByID(ctx, "replacements", "replacement", id); err != nil {
		return fmt.Errorf("storage: delete replacement: %w", err)
	}
	return nil
}

// AddFilter stores a filter (SubscriptionID 0 = global) and returns its id.
// CreatedAt zero means now.
func (s *Store) AddFilter(ctx context.Context, f Filter) (int64, error) {
	if f.CreatedAt.IsZero() {
		f.CreatedAt = time.Now()
	}
	id, err := s.insertID(ctx, `INSERT INTO filters (subscription_id, action, field, pattern, is_regex, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, "subscription", f.SubscriptionID,
		idOrNull(f.SubscriptionID), f.Action, f.Field, f.Pattern, f.IsRegex, msOf(f.CreatedAt))
	if err != nil {
		return 0, fmt.Errorf("storage: add filter: %w", err)
	}
	return id, nil
}

// Filters lists the global filters and those of subscriptionID, by id.
func (s *Store) Filters(ctx context.Context, subscriptionID int64) ([]Filter, error) {
	out, err := s.queryFilters(ctx, "WHERE subscription_id IS NULL OR subscription_id = ?", subscriptionID)
	if err != nil {
		return nil, fmt.Errorf("storage: filters: %w", err)
	}
	return out, nil
}

// FiltersForFeed lists the global filters and those of every subscription
// of feedID, by id: everything one import needs, in one query.
func (s *Store) FiltersForFeed(ctx context.Context, feedID int64) ([]Filter, error) {
	out, err := s.queryFilters(ctx, `WHERE subscription_id IS NULL
		OR subscription_id IN (SELECT id FROM subscriptions WHERE feed_id = ?)`, feedID)
	if err != nil {
		return nil, fmt.Errorf("storage: filters for feed: %w", err)
	}
	return out, nil
}

func (s *Store) queryFilters(ctx context.Context, where string, args ...any) ([]Filter, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, subscription_id, action, field, pattern, is_regex, created_at
		FROM filters `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Filter
	for rows.Next() {
		var (
			f       Filter
			sub     sql.NullInt64
			created sql.NullInt64
		)
		if err := rows.Scan(&f.ID, &sub, &f.Action, &f.Field, &f.Pattern, &f.IsRegex, &created); err != nil {
			return nil, err
		}
		f.SubscriptionID, f.CreatedAt = sub.Int64, timeOf(created)
		out = append(out, f)
	}
	return out, rows.Err()
}

// DeleteFilter deletes a filter (ErrNotFound if missing).
func (s *Store) DeleteFilter(ctx context.Context, id int64) error {
	if err := s.deleteByID(ctx, "filters", "filter", id); err != nil {
		return fmt.Errorf("storage: delete filter: %w", err)
	}
	return nil
}

// insertID runs an INSERT and returns the new id. A foreign key failure
// becomes ErrNotFound naming parent and parentID.
func (s *Store) insertID(ctx context.Context, query, parent string, parentID int64, args ...any) (int64, error) {
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil && s.d.isMissingParent(err) {
		return 0, fmt.Errorf("%w: %w", notFound(parent, parentID), err)
	}
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// deleteByID deletes one row of table; a missing row is ErrNotFound.
func (s *Store) deleteByID(ctx context.Context, table, what string, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM "+table+" WHERE id = ?", id)
	if err != nil {
		return err
	}
	return mustAffect(res, what, id)
}
