-- rssbot schema, SQLite dialect (STRICT tables).
-- Times are INTEGER unix milliseconds (NULL = never / not set), as in MySQL.
-- Store.Migrate serializes processes with a lock row (golang-migrate's own
-- SQLite lock is per process); IF NOT EXISTS keeps this first script
-- harmless to run again all the same.

CREATE TABLE IF NOT EXISTS feeds (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    url                TEXT    NOT NULL,
    url_hash           TEXT    NOT NULL,
    host               TEXT    NOT NULL,
    title              TEXT    NOT NULL DEFAULT '',
    site_url           TEXT    NOT NULL DEFAULT '',
    etag               TEXT    NOT NULL DEFAULT '',
    last_modified      TEXT    NOT NULL DEFAULT '',
    body_sha256        TEXT    NOT NULL DEFAULT '',
    next_poll_at       INTEGER NULL,
    next_poll_reason   TEXT    NOT NULL DEFAULT '',
    last_poll_at       INTEGER NULL,
    last_success_at    INTEGER NULL,
    empty_polls        INTEGER NOT NULL DEFAULT 0,
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    failing_since      INTEGER NULL,
    last_error         TEXT    NOT NULL DEFAULT '',
    hint_seconds       INTEGER NOT NULL DEFAULT 0,
    rate_limited_until INTEGER NULL,
    skip_hours         TEXT    NOT NULL DEFAULT '',
    skip_days          TEXT    NOT NULL DEFAULT '',
    disabled_at        INTEGER NULL,
    disabled_reason    TEXT    NOT NULL DEFAULT '',
    pending_page_url   TEXT    NOT NULL DEFAULT '',
    hub_url            TEXT    NOT NULL DEFAULT '',
    self_url           TEXT    NOT NULL DEFAULT '',
    user_agent         TEXT    NOT NULL DEFAULT '',
    headers            TEXT    NOT NULL DEFAULT '',
    credentials_ref    TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS feeds_url_hash ON feeds (url_hash);
CREATE INDEX IF NOT EXISTS feeds_due ON feeds (host, disabled_at, next_poll_at);

CREATE TABLE IF NOT EXISTS hosts (
    host        TEXT    NOT NULL PRIMARY KEY,
    lease_owner TEXT    NOT NULL DEFAULT '',
    lease_until INTEGER NULL
) STRICT;

CREATE TABLE IF NOT EXISTS leases (
    name        TEXT    NOT NULL PRIMARY KEY,
    owner       TEXT    NOT NULL,
    lease_until INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS chats (
    id       INTEGER NOT NULL PRIMARY KEY,
    type     TEXT    NOT NULL DEFAULT '',
    title    TEXT    NOT NULL DEFAULT '',
    username TEXT    NOT NULL DEFAULT '',
    is_forum INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE IF NOT EXISTS subscriptions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id       INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
    chat_id       INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    topic_id      INTEGER NOT NULL DEFAULT 0,
    paused        INTEGER NOT NULL DEFAULT 0,
    paused_reason TEXT    NOT NULL DEFAULT '',
    silent        INTEGER NOT NULL DEFAULT 0,
    media_mode    TEXT    NOT NULL DEFAULT 'preview',
    split         INTEGER NOT NULL DEFAULT 0,
    template      TEXT    NOT NULL DEFAULT '',
    backfill      TEXT    NOT NULL DEFAULT 'none',
    created_at    INTEGER NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS subscriptions_feed_chat_topic ON subscriptions (feed_id, chat_id, topic_id);
CREATE INDEX IF NOT EXISTS subscriptions_chat ON subscriptions (chat_id);

CREATE TABLE IF NOT EXISTS entries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id       INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
    identity_hash TEXT    NOT NULL,
    identity      TEXT    NOT NULL DEFAULT '',
    checksum      TEXT    NOT NULL DEFAULT '',
    title         TEXT    NOT NULL DEFAULT '',
    link          TEXT    NOT NULL DEFAULT '',
    published_at  INTEGER NULL,
    first_seen_at INTEGER NULL,
    last_seen_at  INTEGER NULL,
    payload       BLOB    NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS entries_feed_identity ON entries (feed_id, identity_hash);
CREATE INDEX IF NOT EXISTS entries_feed_last_seen ON entries (feed_id, last_seen_at);
CREATE INDEX IF NOT EXISTS entries_last_seen ON entries (last_seen_at);

CREATE TABLE IF NOT EXISTS outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id INTEGER NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    entry_id        INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    chat_id         INTEGER NOT NULL,
    state           TEXT    NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NULL,
    lease_owner     TEXT    NOT NULL DEFAULT '',
    lease_until     INTEGER NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    sent_at         INTEGER NULL,
    message_ids     TEXT    NOT NULL DEFAULT '',
    created_at      INTEGER NULL,
    updated_at      INTEGER NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS outbox_subscription_entry ON outbox (subscription_id, entry_id);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS outbox_lease ON outbox (state, lease_until);
CREATE INDEX IF NOT EXISTS outbox_chat ON outbox (chat_id, id);
CREATE INDEX IF NOT EXISTS outbox_entry ON outbox (entry_id);

CREATE TABLE IF NOT EXISTS notices (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id         INTEGER NOT NULL,
    feed_id         INTEGER NULL REFERENCES feeds (id) ON DELETE SET NULL,
    kind            TEXT    NOT NULL DEFAULT '',
    text            TEXT    NOT NULL DEFAULT '',
    state           TEXT    NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NULL,
    lease_owner     TEXT    NOT NULL DEFAULT '',
    lease_until     INTEGER NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    sent_at         INTEGER NULL,
    created_at      INTEGER NULL,
    updated_at      INTEGER NULL
) STRICT;
CREATE INDEX IF NOT EXISTS notices_due ON notices (state, next_attempt_at);
CREATE INDEX IF NOT EXISTS notices_lease ON notices (state, lease_until);
CREATE INDEX IF NOT EXISTS notices_feed ON notices (feed_id);

CREATE TABLE IF NOT EXISTS replacements (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id     INTEGER NULL REFERENCES feeds (id) ON DELETE CASCADE,
    pattern     TEXT    NOT NULL,
    is_regex    INTEGER NOT NULL DEFAULT 0,
    replacement TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NULL
) STRICT;
CREATE INDEX IF NOT EXISTS replacements_feed ON replacements (feed_id);

CREATE TABLE IF NOT EXISTS filters (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id INTEGER NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    action          TEXT    NOT NULL,
    field           TEXT    NOT NULL,
    pattern         TEXT    NOT NULL,
    is_regex        INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NULL
) STRICT;
CREATE INDEX IF NOT EXISTS filters_subscription ON filters (subscription_id);

CREATE TABLE IF NOT EXISTS feed_activity (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id     INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
    happened_at INTEGER NULL,
    kind        TEXT    NOT NULL,
    detail      TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX IF NOT EXISTS feed_activity_feed ON feed_activity (feed_id, id);
