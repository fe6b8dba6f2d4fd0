package storage

// THIS FILE IS A PLACEHOLDER: the storage helper replaces every stub below with
// a real implementation (in files by concern) and deletes this file.

import (
	"context"
	"database/sql"
	"time"
)

// Store is the repository over MySQL/MariaDB or SQLite.
type Store struct {
	db *sql.DB
}

var errStub = "storage: not implemented"

// Open connects to DATABASE_URL ("sqlite:PATH" or "mysql://DSN"), configures
// the connection (SQLite: WAL, busy timeout, foreign keys, IMMEDIATE write
// transactions; MySQL: parseTime=true, multiStatements=true) and pings it.
// It does not migrate.
func Open(ctx context.Context, databaseURL string) (*Store, error) { panic(errStub) }

// Close closes the database.
func (s *Store) Close() error { panic(errStub) }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { panic(errStub) }

// Migrate applies all embedded migrations (golang-migrate). A dirty MySQL
// database is reported with the version and how to recover.
func (s *Store) Migrate(ctx context.Context) error { panic(errStub) }

// --- chats

// UpsertChat inserts or updates a chat.
func (s *Store) UpsertChat(ctx context.Context, c Chat) error { panic(errStub) }

// ChatByID returns a chat or ErrNotFound.
func (s *Store) ChatByID(ctx context.Context, id int64) (Chat, error) { panic(errStub) }

// --- feeds

// EnsureFeed returns the feed with this URL, creating it (and its hosts row)
// with next_poll_at = nextPoll when missing. A disabled feed is enabled again.
func (s *Store) EnsureFeed(ctx context.Context, url, host string, nextPoll time.Time) (f Feed, created bool, err error) {
	panic(errStub)
}

// FeedByID returns a feed or ErrNotFound.
func (s *Store) FeedByID(ctx context.Context, id int64) (Feed, error) { panic(errStub) }

// FeedByURL returns a feed or ErrNotFound.
func (s *Store) FeedByURL(ctx context.Context, url string) (Feed, error) { panic(errStub) }

// ListFeeds returns every feed, ordered by id.
func (s *Store) ListFeeds(ctx context.Context) ([]Feed, error) { panic(errStub) }

// SaveFeed writes every mutable column of f (all but id, url, host, created).
func (s *Store) SaveFeed(ctx context.Context, f Feed) error { panic(errStub) }

// DeleteFeed deletes a feed with its entries, subscriptions and outbox rows.
func (s *Store) DeleteFeed(ctx context.Context, id int64) error { panic(errStub) }

// --- subscriptions

// Subscribe creates the subscription (defaults: media preview, backfill none)
// or returns the existing one for (feed, chat, topic).
func (s *Store) Subscribe(ctx context.Context, sub Subscription) (Subscription, bool, error) {
	panic(errStub)
}

// SubscriptionByID returns a subscription or ErrNotFound.
func (s *Store) SubscriptionByID(ctx context.Context, id int64) (Subscription, error) {
	panic(errStub)
}

// UpdateSubscription saves a subscription's options and paused state.
func (s *Store) UpdateSubscription(ctx context.Context, sub Subscription) error { panic(errStub) }

// Unsubscribe deletes a subscription and its undelivered outbox rows. When
// the feed has no subscriptions left it is deleted too (feedDeleted).
func (s *Store) Unsubscribe(ctx context.Context, id int64) (feedDeleted bool, err error) {
	panic(errStub)
}

// SubscriptionsByChat lists a chat's subscriptions (all topics), by id.
func (s *Store) SubscriptionsByChat(ctx context.Context, chatID int64) ([]SubscriptionView, error) {
	panic(errStub)
}

// SubscriptionsByFeed lists a feed's subscriptions, by id.
func (s *Store) SubscriptionsByFeed(ctx context.Context, feedID int64) ([]Subscription, error) {
	panic(errStub)
}

// AllSubscriptions lists every subscription with its feed, by id.
func (s *Store) AllSubscriptions(ctx context.Context) ([]SubscriptionView, error) {
	panic(errStub)
}

// --- entries and import

// Import writes one poll's outcome in one transaction: the feed's state,
// new and known entries, and outbox rows for new entries (see ImportBatch).
func (s *Store) Import(ctx context.Context, b ImportBatch) (ImportResult, error) { panic(errStub) }

// EntryByID returns an entry or ErrNotFound.
func (s *Store) EntryByID(ctx context.Context, id int64) (Entry, error) { panic(errStub) }

// CountEntries counts a feed's remembered entries.
func (s *Store) CountEntries(ctx context.Context, feedID int64) (int, error) { panic(errStub) }

// PruneEntries forgets entries last seen before cutoff that have no
// undelivered outbox row; it returns how many went.
func (s *Store) PruneEntries(ctx context.Context, cutoff time.Time) (int64, error) { panic(errStub) }

// --- hosts (per-host serialization across workers and instances)

// ClaimDueHosts leases up to limit hosts that have a due, enabled feed with at
// least one subscription and no live lease (MySQL: FOR UPDATE SKIP LOCKED;
// SQLite: one IMMEDIATE transaction). With all=true every enabled feed counts
// as due.
func (s *Store) ClaimDueHosts(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int, all bool) ([]string, error) {
	panic(errStub)
}

// RenewHostLease extends owner's lease on host; false when owner lost it.
func (s *Store) RenewHostLease(ctx context.Context, host, owner string, until time.Time) (bool, error) {
	panic(errStub)
}

// ReleaseHost ends owner's lease on host.
func (s *Store) ReleaseHost(ctx context.Context, host, owner string) error { panic(errStub) }

// DueFeeds lists the host's enabled, subscribed feeds with next_poll_at <= now
// (all=true: every enabled, subscribed feed), by next_poll_at.
func (s *Store) DueFeeds(ctx context.Context, host string, now time.Time, all bool) ([]Feed, error) {
	panic(errStub)
}

// --- named leases (e.g. the Telegram leader)

// AcquireLease takes or renews the named lease until now+ttl; false when
// another owner holds a live lease.
func (s *Store) AcquireLease(ctx context.Context, name, owner string, now time.Time, ttl time.Duration) (bool, error) {
	panic(errStub)
}

// ReleaseLease gives up owner's named lease.
func (s *Store) ReleaseLease(ctx context.Context, name, owner string) error { panic(errStub) }

// --- outbox

// ClaimOutbox leases up to limit due rows (pending with next_attempt_at <= now,
// or sending with an expired lease), oldest first, and returns them with what
// delivery needs. Rows of paused subscriptions are not claimed.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int) ([]Delivery, error) {
	panic(errStub)
}

// MarkSent records a delivered row (only while owner holds its lease).
func (s *Store) MarkSent(ctx context.Context, id int64, owner string, messageIDs []int, now time.Time) error {
	panic(errStub)
}

// MarkRetry puts a row back to pending with attempts+1 and next attempt at next.
func (s *Store) MarkRetry(ctx context.Context, id int64, owner, errText string, next time.Time) error {
	panic(errStub)
}

// MarkFailed gives up on a row.
func (s *Store) MarkFailed(ctx context.Context, id int64, owner, errText string, now time.Time) error {
	panic(errStub)
}

// CountOutbox counts rows by state (for stats and tests).
func (s *Store) CountOutbox(ctx context.Context) (map[string]int, error) { panic(errStub) }

// --- notices for the admin

// AddNotice stores a pending notice.
func (s *Store) AddNotice(ctx context.Context, n Notice) (int64, error) { panic(errStub) }

// ClaimNotices leases up to limit due notices, oldest first.
func (s *Store) ClaimNotices(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int) ([]Notice, error) {
	panic(errStub)
}

// MarkNoticeSent records a delivered notice.
func (s *Store) MarkNoticeSent(ctx context.Context, id int64, owner string, now time.Time) error {
	panic(errStub)
}

// MarkNoticeRetry puts a notice back to pending, attempts+1.
func (s *Store) MarkNoticeRetry(ctx context.Context, id int64, owner, errText string, next time.Time) error {
	panic(errStub)
}

// MarkNoticeFailed gives up on a notice.
func (s *Store) MarkNoticeFailed(ctx context.Context, id int64, owner, errText string, now time.Time) error {
	panic(errStub)
}

// --- rules

// AddReplacement stores a replacement rule and returns its id.
func (s *Store) AddReplacement(ctx context.Context, r Replacement) (int64, error) { panic(errStub) }

// Replacements lists the global rules and those of feedID (0 = global only), by id.
func (s *Store) Replacements(ctx context.Context, feedID int64) ([]Replacement, error) {
	panic(errStub)
}

// DeleteReplacement deletes a rule (ErrNotFound if missing).
func (s *Store) DeleteReplacement(ctx context.Context, id int64) error { panic(errStub) }

// AddFilter stores a filter and returns its id.
func (s *Store) AddFilter(ctx context.Context, f Filter) (int64, error) { panic(errStub) }

// Filters lists the global filters and those of subscriptionID, by id.
func (s *Store) Filters(ctx context.Context, subscriptionID int64) ([]Filter, error) {
	panic(errStub)
}

// DeleteFilter deletes a filter (ErrNotFound if missing).
func (s *Store) DeleteFilter(ctx context.Context, id int64) error { panic(errStub) }

// --- activity log

// AddActivity appends to a feed's activity log, keeping only the newest 100 lines.
func (s *Store) AddActivity(ctx context.Context, a Activity) error { panic(errStub) }

// Activities returns a feed's log, newest first, at most limit lines.
func (s *Store) Activities(ctx context.Context, feedID int64, limit int) ([]Activity, error) {
	panic(errStub)
}
