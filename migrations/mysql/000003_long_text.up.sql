-- What a feed or its server sends about the feed (links, validators, the
-- next page, error texts) could pass TEXT's 64 KiB; strict mode then
-- refused the row, the import failed and the feed was never imported
-- again, where SQLite stores any length. MEDIUMTEXT holds anything a
-- response body or header of the fetch limits can carry.
ALTER TABLE feeds
    MODIFY url              MEDIUMTEXT NOT NULL,
    MODIFY site_url         MEDIUMTEXT NOT NULL,
    MODIFY etag             MEDIUMTEXT NOT NULL,
    MODIFY last_modified    MEDIUMTEXT NOT NULL,
    MODIFY last_error       MEDIUMTEXT NOT NULL,
    MODIFY pending_page_url MEDIUMTEXT NOT NULL,
    MODIFY hub_url          MEDIUMTEXT NOT NULL,
    MODIFY self_url         MEDIUMTEXT NOT NULL;
ALTER TABLE feed_activity MODIFY detail MEDIUMTEXT NOT NULL;
ALTER TABLE notices MODIFY text MEDIUMTEXT NOT NULL;
ALTER TABLE websub_subscriptions
    MODIFY hub        MEDIUMTEXT NOT NULL,
    MODIFY topic      MEDIUMTEXT NOT NULL,
    MODIFY last_error MEDIUMTEXT NOT NULL;
