package storage

import (
	"errors"
	"time"
)

// ErrNotFound is returned (wrapped) when a looked-up row does not exist.
var ErrNotFound = errors.New("storage: not found")

// Zero time values mean NULL ("never", "not set") in every struct below.

// Feed is one row of feeds: a URL and everything the poller remembers about it.
type Feed struct {
	ID   int64
	URL  string
	Host string // lower-cased hostname, port ignored
	// Title and SiteURL as the feed last described itself.
	Title   string
	SiteURL string
	// Validators from the last complete successful poll.
	ETag         string
	LastModified string
	BodySHA256   string
	// Schedule state.
	NextPollAt        time.Time
	NextPollReason    string
	LastPollAt        time.Time
	LastSuccessAt     time.Time
	EmptyPolls        int // consecutive polls without a new entry
	ConsecutiveErrors int
	FailingSince      time.Time
	LastError         string
	HintSeconds       int64 // publisher hint (ttl, sy:*, max-age) in seconds, 0 = none
	RateLimitedUntil  time.Time
	SkipHours         string // RSS skipHours, comma-separated 0-23
	SkipDays          string // RSS skipDays, comma-separated English day names
	DisabledAt        time.Time
	DisabledReason    string
	PendingPageURL    string // pagination: the page to resume from
	HubURL            string // WebSub
	SelfURL           string // WebSub
	// Per-feed fetch options.
	UserAgent      string
	Headers        string // JSON object of extra request headers
	CredentialsRef string // a reference to credentials kept elsewhere; never the secret itself
	CreatedAt      time.Time
}

// Chat is a Telegram chat the bot posts into.
type Chat struct {
	ID       int64
	Type     string // private, group, supergroup, channel
	Title    string
	Username string
	IsForum  bool
}

// Subscription options.
const (
	MediaNone    = "none"
	MediaPreview = "preview"
	MediaPhoto   = "photo"
	MediaAlbum   = "album"

	BackfillNone = "none"
	BackfillPage = "page"
	BackfillAll  = "all"
)

// Subscription is feed × chat × topic (topic 0 = none) with its options.
type Subscription struct {
	ID           int64
	FeedID       int64
	ChatID       int64
	TopicID      int64
	Paused       bool
	PausedReason string
	Silent       bool
	MediaMode    string // MediaNone, MediaPreview (default), MediaPhoto, MediaAlbum
	Split        bool
	Template     string // per-subscription template text; empty = the global one
	Backfill     string // BackfillNone (default), BackfillPage, BackfillAll
	CreatedAt    time.Time
}

// SubscriptionView is a subscription with the feed fields a listing shows.
type SubscriptionView struct {
	Subscription
	FeedURL        string
	FeedTitle      string
	FeedSiteURL    string
	FeedDisabledAt time.Time
	FeedLastError  string
}

// Entry is one remembered feed entry.
type Entry struct {
	ID           int64
	FeedID       int64
	IdentityHash string // hex SHA-256 of Identity: unique per feed
	Identity     string
	Checksum     string
	Title        string
	Link         string
	PublishedAt  time.Time
	FirstSeenAt  time.Time
	LastSeenAt   time.Time
	// Payload is the whole normalized entry as compact JSON (feed.Entry);
	// nil once dropped after delivery.
	Payload []byte
}

// Outbox and notice states.
const (
	StatePending = "pending"
	StateSending = "sending"
	StateSent    = "sent"
	StateFailed  = "failed"
)

// OutboxRow is one (subscription × entry) delivery.
type OutboxRow struct {
	ID             int64
	SubscriptionID int64
	EntryID        int64
	State          string
	Attempts       int
	NextAttemptAt  time.Time
	LeaseOwner     string
	LeaseUntil     time.Time
	LastError      string
	SentAt         time.Time
	MessageIDs     []int // Telegram message ids once sent
	CreatedAt      time.Time
}

// Delivery is a claimed outbox row with everything needed to render and send it.
type Delivery struct {
	Outbox       OutboxRow
	Subscription Subscription
	Chat         Chat
	FeedID       int64
	FeedURL      string
	FeedTitle    string
	Entry        Entry
}

// Notice is a durable message for the admin (feed moved, disabled, rate limited…).
type Notice struct {
	ID            int64
	ChatID        int64 // normally the admin's private chat
	FeedID        int64 // 0 = none
	Kind          string
	Text          string
	State         string
	Attempts      int
	NextAttemptAt time.Time
	LeaseOwner    string
	LeaseUntil    time.Time
	LastError     string
	SentAt        time.Time
	CreatedAt     time.Time
}

// Replacement removes (or replaces) text in titles and content before templating.
type Replacement struct {
	ID          int64
	FeedID      int64 // 0 = global
	Pattern     string
	IsRegex     bool
	Replacement string
	CreatedAt   time.Time
}

// Filter accepts or rejects entries for a subscription.
type Filter struct {
	ID             int64
	SubscriptionID int64  // 0 = global
	Action         string // "include" or "exclude"
	Field          string // "title", "content", "author", "categories" or "any"
	Pattern        string
	IsRegex        bool
	CreatedAt      time.Time
}

// Activity is one line of a feed's bounded activity log.
type Activity struct {
	ID     int64
	FeedID int64
	At     time.Time
	Kind   string // one of the Activity* kinds
	Detail string
}

// Activity kinds.
const (
	ActivityPoll        = "poll" // a poll started
	ActivityNotModified = "not_modified"
	ActivityImported    = "imported"
	ActivityError       = "error"
	ActivityRateLimited = "rate_limited"
	ActivityMoved       = "moved"
	ActivityDisabled    = "disabled"
)

// EntryRecord is one entry as listed by a poll, ready to be stored.
type EntryRecord struct {
	IdentityHash string
	Identity     string
	Checksum     string
	Title        string
	Link         string
	PublishedAt  time.Time
	Payload      []byte
}

// ImportBatch is everything one poll of one feed writes, in one transaction.
type ImportBatch struct {
	// Feed is the feed's new state; every mutable column is saved from it.
	Feed Feed
	// Entries as listed by the feed, oldest first. New identities are
	// inserted in this order; known ones get last_seen_at = Now and, when the
	// checksum changed, the new checksum, title, link and payload.
	Entries []EntryRecord
	// Queue: when false (the first poll of a feed) new entries are stored as
	// seen and nothing is queued.
	Queue bool
	// QueueLimit: when > 0, only the newest QueueLimit new entries are queued
	// (flood guard); the rest are stored as seen.
	QueueLimit int
	// Accept decides whether a new entry goes to a subscription (filters).
	// Pure policy; nil accepts everything. Paused subscriptions never get rows.
	Accept func(sub Subscription, e EntryRecord) bool
	// WithNew, when set, is the feed state saved instead of Feed when the
	// import stored at least one new entry (the schedule resets its
	// slow-down on news, which only the transaction can tell).
	WithNew *Feed
	// Log, when set, is called inside the transaction with the import's
	// result; the activity lines (FeedID 0 = this feed, At zero = Now) and
	// notices it returns are stored in the same transaction, so a poll's
	// log and notices exist exactly when its outcome does. It may run more
	// than once (a retried transaction) and must not keep state.
	Log func(ImportResult) ([]Activity, []Notice)
	Now time.Time
}

// ImportResult counts what an import did.
type ImportResult struct {
	New     int // entries inserted
	Queued  int // outbox rows created
	Flooded int // new entries stored as seen by the flood guard
}
