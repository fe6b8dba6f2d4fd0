-- WebSub subscriptions: one per feed with a hub. feed_id has no foreign
-- key on purpose: when a feed is deleted its row must outlive it, so that
-- the subscriber can still tell the hub to stop.
CREATE TABLE IF NOT EXISTS websub_subscriptions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id       INTEGER NOT NULL,
    hub           TEXT    NOT NULL,
    topic         TEXT    NOT NULL,
    secret        TEXT    NOT NULL,
    token         TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    lease_seconds INTEGER NOT NULL DEFAULT 0,
    requested_at  INTEGER NULL,
    verified_at   INTEGER NULL,
    expires_at    INTEGER NULL,
    last_error    TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS websub_subscriptions_feed ON websub_subscriptions (feed_id);
CREATE UNIQUE INDEX IF NOT EXISTS websub_subscriptions_token ON websub_subscriptions (token);
