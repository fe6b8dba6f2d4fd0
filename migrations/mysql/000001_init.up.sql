-- rssbot schema, MySQL/MariaDB dialect.
-- Times are BIGINT unix milliseconds (NULL = never / not set) so that both
-- dialects share one code path with no driver time conversions.
-- Tables use utf8mb4_bin: comparisons are byte-exact, as in SQLite.
-- Anything a feed or server sends is TEXT or wider: strict mode would
-- refuse a value longer than a VARCHAR and the row could never be saved.

CREATE TABLE feeds (
    id                 BIGINT       NOT NULL AUTO_INCREMENT,
    url                TEXT         NOT NULL,
    url_hash           CHAR(64)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    host               VARCHAR(255) NOT NULL,
    title              MEDIUMTEXT   NOT NULL,
    site_url           TEXT         NOT NULL,
    etag               TEXT         NOT NULL,
    last_modified      TEXT         NOT NULL,
    body_sha256        VARCHAR(64)  NOT NULL DEFAULT '',
    next_poll_at       BIGINT       NULL,
    next_poll_reason   TEXT         NOT NULL,
    last_poll_at       BIGINT       NULL,
    last_success_at    BIGINT       NULL,
    empty_polls        INT          NOT NULL DEFAULT 0,
    consecutive_errors INT          NOT NULL DEFAULT 0,
    failing_since      BIGINT       NULL,
    last_error         TEXT         NOT NULL,
    hint_seconds       BIGINT       NOT NULL DEFAULT 0,
    rate_limited_until BIGINT       NULL,
    skip_hours         TEXT         NOT NULL,
    skip_days          TEXT         NOT NULL,
    disabled_at        BIGINT       NULL,
    disabled_reason    TEXT         NOT NULL,
    pending_page_url   TEXT         NOT NULL,
    hub_url            TEXT         NOT NULL,
    self_url           TEXT         NOT NULL,
    user_agent         TEXT         NOT NULL,
    headers            TEXT         NOT NULL,
    credentials_ref    VARCHAR(255) NOT NULL DEFAULT '',
    created_at         BIGINT       NULL,
    PRIMARY KEY (id),
    UNIQUE KEY feeds_url_hash (url_hash),
    KEY feeds_due (host, disabled_at, next_poll_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE hosts (
    host        VARCHAR(255) NOT NULL,
    lease_owner VARCHAR(255) NOT NULL DEFAULT '',
    lease_until BIGINT       NULL,
    PRIMARY KEY (host)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE leases (
    name        VARCHAR(100) NOT NULL,
    owner       VARCHAR(255) NOT NULL,
    lease_until BIGINT       NOT NULL,
    PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE chats (
    id       BIGINT       NOT NULL,
    type     VARCHAR(32)  NOT NULL DEFAULT '',
    title    TEXT         NOT NULL,
    username VARCHAR(255) NOT NULL DEFAULT '',
    is_forum TINYINT(1)   NOT NULL DEFAULT 0,
    PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE subscriptions (
    id            BIGINT       NOT NULL AUTO_INCREMENT,
    feed_id       BIGINT       NOT NULL,
    chat_id       BIGINT       NOT NULL,
    topic_id      BIGINT       NOT NULL DEFAULT 0,
    paused        TINYINT(1)   NOT NULL DEFAULT 0,
    paused_reason TEXT         NOT NULL,
    silent        TINYINT(1)   NOT NULL DEFAULT 0,
    media_mode    VARCHAR(16)  NOT NULL DEFAULT 'preview',
    split         TINYINT(1)   NOT NULL DEFAULT 0,
    template      TEXT         NOT NULL,
    backfill      VARCHAR(16)  NOT NULL DEFAULT 'none',
    created_at    BIGINT       NULL,
    PRIMARY KEY (id),
    UNIQUE KEY subscriptions_feed_chat_topic (feed_id, chat_id, topic_id),
    KEY subscriptions_chat (chat_id),
    CONSTRAINT subscriptions_feed FOREIGN KEY (feed_id) REFERENCES feeds (id) ON DELETE CASCADE,
    CONSTRAINT subscriptions_chat FOREIGN KEY (chat_id) REFERENCES chats (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE entries (
    id            BIGINT     NOT NULL AUTO_INCREMENT,
    feed_id       BIGINT     NOT NULL,
    identity_hash CHAR(64)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    identity      MEDIUMTEXT NOT NULL,
    checksum      VARCHAR(255) NOT NULL DEFAULT '',
    title         MEDIUMTEXT NOT NULL,
    link          MEDIUMTEXT NOT NULL,
    published_at  BIGINT     NULL,
    first_seen_at BIGINT     NULL,
    last_seen_at  BIGINT     NULL,
    payload       LONGBLOB   NULL,
    PRIMARY KEY (id),
    UNIQUE KEY entries_feed_identity (feed_id, identity_hash),
    KEY entries_feed_last_seen (feed_id, last_seen_at),
    KEY entries_last_seen (last_seen_at),
    CONSTRAINT entries_feed FOREIGN KEY (feed_id) REFERENCES feeds (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE outbox (
    id              BIGINT       NOT NULL AUTO_INCREMENT,
    subscription_id BIGINT       NOT NULL,
    entry_id        BIGINT       NOT NULL,
    chat_id         BIGINT       NOT NULL,
    state           VARCHAR(16)  NOT NULL DEFAULT 'pending',
    attempts        INT          NOT NULL DEFAULT 0,
    next_attempt_at BIGINT       NULL,
    lease_owner     VARCHAR(255) NOT NULL DEFAULT '',
    lease_until     BIGINT       NULL,
    last_error      TEXT         NOT NULL,
    sent_at         BIGINT       NULL,
    message_ids     TEXT         NOT NULL,
    created_at      BIGINT       NULL,
    updated_at      BIGINT       NULL,
    PRIMARY KEY (id),
    UNIQUE KEY outbox_subscription_entry (subscription_id, entry_id),
    KEY outbox_due (state, next_attempt_at),
    KEY outbox_lease (state, lease_until),
    KEY outbox_chat (chat_id, id),
    KEY outbox_entry (entry_id),
    CONSTRAINT outbox_subscription FOREIGN KEY (subscription_id) REFERENCES subscriptions (id) ON DELETE CASCADE,
    CONSTRAINT outbox_entry FOREIGN KEY (entry_id) REFERENCES entries (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE notices (
    id              BIGINT       NOT NULL AUTO_INCREMENT,
    chat_id         BIGINT       NOT NULL,
    feed_id         BIGINT       NULL,
    kind            VARCHAR(64)  NOT NULL DEFAULT '',
    text            TEXT         NOT NULL,
    state           VARCHAR(16)  NOT NULL DEFAULT 'pending',
    attempts        INT          NOT NULL DEFAULT 0,
    next_attempt_at BIGINT       NULL,
    lease_owner     VARCHAR(255) NOT NULL DEFAULT '',
    lease_until     BIGINT       NULL,
    last_error      TEXT         NOT NULL,
    sent_at         BIGINT       NULL,
    created_at      BIGINT       NULL,
    updated_at      BIGINT       NULL,
    PRIMARY KEY (id),
    KEY notices_due (state, next_attempt_at),
    KEY notices_lease (state, lease_until),
    CONSTRAINT notices_feed FOREIGN KEY (feed_id) REFERENCES feeds (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE replacements (
    id          BIGINT     NOT NULL AUTO_INCREMENT,
    feed_id     BIGINT     NULL,
    pattern     TEXT       NOT NULL,
    is_regex    TINYINT(1) NOT NULL DEFAULT 0,
    replacement TEXT       NOT NULL,
    created_at  BIGINT     NULL,
    PRIMARY KEY (id),
    KEY replacements_feed (feed_id),
    CONSTRAINT replacements_feed FOREIGN KEY (feed_id) REFERENCES feeds (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE filters (
    id              BIGINT      NOT NULL AUTO_INCREMENT,
    subscription_id BIGINT      NULL,
    action          VARCHAR(16) NOT NULL,
    field           VARCHAR(32) NOT NULL,
    pattern         TEXT        NOT NULL,
    is_regex        TINYINT(1)  NOT NULL DEFAULT 0,
    created_at      BIGINT      NULL,
    PRIMARY KEY (id),
    KEY filters_subscription (subscription_id),
    CONSTRAINT filters_subscription FOREIGN KEY (subscription_id) REFERENCES subscriptions (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE feed_activity (
    id          BIGINT      NOT NULL AUTO_INCREMENT,
    feed_id     BIGINT      NOT NULL,
    happened_at BIGINT      NULL,
    kind        VARCHAR(32) NOT NULL,
    detail      TEXT        NOT NULL,
    PRIMARY KEY (id),
    KEY feed_activity_feed (feed_id, id),
    CONSTRAINT feed_activity_feed FOREIGN KEY (feed_id) REFERENCES feeds (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
