package storage

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"strings"
)

// feedColumns lists the columns scanFeed reads, in order.
const feedColumns = `id, url, host, title, site_url, etag, last_modified, body_sha256,
	next_poll_at, next_poll_reason, last_poll_at, last_success_at, empty_polls,
	consecutive_errors, failing_since, last_error, hint_seconds, rate_limited_until,
	skip_hours, skip_days, disabled_at, disabled_reason, pending_page_url, hub_url,
	self_url, user_agent, headers, credentials_ref, created_at`

// feedMutable lists the columns SaveFeed writes (all but id, url, url_hash,
// host and created_at), in the order of feedMutableArgs.
var feedMutable = []string{
	"title", "site_url", "etag", "last_modified", "body_sha256",
	"next_poll_at", "next_poll_reason", "last_poll_at", "last_success_at", "empty_polls",
	"consecutive_errors", "failing_since", "last_error", "hint_seconds", "rate_limited_until",
	"skip_hours", "skip_days", "disabled_at", "disabled_reason", "pending_page_url", "hub_url",
	"self_url", "user_agent", "headers", "credentials_ref",
}

// updateFeedSQL saves every mutable column of one feed.
var updateFeedSQL = "UPDATE feeds SET " + strings.Join(feedMutable, " = ?, ") + " = ? WHERE id = ?"

func feedMutableArgs(f Feed) []any {
	return []any{
		f.Title, f.SiteURL, f.ETag, f.LastModified, f.BodySHA256,
		msOf(f.NextPollAt), f.NextPollReason, msOf(f.LastPollAt), msOf(f.LastSuccessAt), f.EmptyPolls,
		f.ConsecutiveErrors, msOf(f.FailingSince), f.LastError, f.HintSeconds, msOf(f.RateLimitedUntil),
		f.SkipHours, f.SkipDays, msOf(f.DisabledAt), f.DisabledReason, f.PendingPageURL, f.HubURL,
		f.SelfURL, f.UserAgent, f.Headers, f.CredentialsRef,
	}
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface {
	Scan(dest ...any) error
}

func scanFeed(r rowScanner) (Feed, error) {
	var (
		f                                                              Feed
		nextPoll, lastPoll, lastSuccess, failing, rateLimited, disable sql.NullInt64
		created                                                        sql.NullInt64
	)
	err := r.Scan(&f.ID, &f.URL, &f.Host, &f.Title, &f.SiteURL, &f.ETag, &f.LastModified, &f.BodySHA256,
		&nextPoll, &f.NextPollReason, &lastPoll, &lastSuccess, &f.EmptyPolls,
		&f.ConsecutiveErrors, &failing, &f.LastError, &f.HintSeconds, &rateLimited,
		&f.SkipHours, &f.SkipDays, &disable, &f.DisabledReason, &f.PendingPageURL, &f.HubURL,
		&f.SelfURL, &f.UserAgent, &f.Headers, &f.CredentialsRef, &created)
	if err != nil {
		return Feed{}, err
	}
	f.NextPollAt, f.LastPollAt, f.LastSuccessAt = timeOf(nextPoll), timeOf(lastPoll), timeOf(lastSuccess)
	f.FailingSince, f.RateLimitedUntil, f.DisabledAt = timeOf(failing), timeOf(rateLimited), timeOf(disable)
	f.CreatedAt = timeOf(created)
	return f, nil
}

// urlHash keys a feed URL of any length in a fixed-size unique index.
func urlHash(u string) string {
	sum := sha256.Sum256([]byte(u))
	return hex.EncodeToString(sum[:])
}
