-- WebSub subscriptions: one per feed with a hub. feed_id has no foreign
-- key on purpose: when a feed is deleted its row must outlive it, so that
-- the subscriber can still tell the hub to stop.
CREATE TABLE IF NOT EXISTS websub_subscriptions (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    feed_id       BIGINT       NOT NULL,
    hub           TEXT         NOT NULL,
    topic         TEXT         NOT NULL,
    secret        VARCHAR(128) NOT NULL,
    token         VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    state         VARCHAR(32)  NOT NULL,
    lease_seconds BIGINT       NOT NULL DEFAULT 0,
    requested_at  BIGINT       NULL,
    verified_at   BIGINT       NULL,
    expires_at    BIGINT       NULL,
    last_error    TEXT         NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY websub_subscriptions_feed (feed_id),
    UNIQUE KEY websub_subscriptions_token (token)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
