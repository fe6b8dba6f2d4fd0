-- Back to TEXT; a longer value than 64 KiB makes this fail in strict mode
-- rather than cut it.
ALTER TABLE feeds
    MODIFY url              TEXT NOT NULL,
    MODIFY site_url         TEXT NOT NULL,
    MODIFY etag             TEXT NOT NULL,
    MODIFY last_modified    TEXT NOT NULL,
    MODIFY last_error       TEXT NOT NULL,
    MODIFY pending_page_url TEXT NOT NULL,
    MODIFY hub_url          TEXT NOT NULL,
    MODIFY self_url         TEXT NOT NULL;
ALTER TABLE feed_activity MODIFY detail TEXT NOT NULL;
ALTER TABLE notices MODIFY text TEXT NOT NULL;
ALTER TABLE websub_subscriptions
    MODIFY hub        TEXT NOT NULL,
    MODIFY topic      TEXT NOT NULL,
    MODIFY last_error TEXT NOT NULL;
