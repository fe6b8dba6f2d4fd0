package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// FeedRef names a feed to subscribe to by URL, with its host key.
type FeedRef struct {
	URL  string
	Host string
}

// SubscribeResult is what SubscribeMany did for one FeedRef.
type SubscribeResult struct {
	FeedID         int64
	SubscriptionID int64
	NewFeed        bool // the feed was not known: created, due at nextPoll
	NewSub         bool // the chat (and topic) did not follow it yet
}

// bulkChunk is how many feeds one SubscribeMany transaction handles: large
// enough to be fast, small enough that a running bot's writes are not held
// up for long.
const bulkChunk = 250

// SubscribeMany subscribes a chat (and forum topic, 0 = none) to every feed
// in refs, with default options: a feed not known yet is created due at
// nextPoll (nothing is fetched), a disabled one is enabled and due at
// nextPoll. It works in transactions of a few hundred feeds, a few
// statements each, and returns one result per ref, in order; a URL listed
// twice gets the same feed and subscription, new only the first time.
func (s *Store) SubscribeMany(ctx context.Context, chatID, topicID int64, refs []FeedRef, nextPoll time.Time) ([]SubscribeResult, error) {
	out := make([]SubscribeResult, 0, len(refs))
	first := map[string]bool{}
	now := time.Now()
	for start := 0; start < len(refs); start += bulkChunk {
		chunk := refs[start:min(start+bulkChunk, len(refs))]
		var results []SubscribeResult
		err := s.inTx(ctx, "subscribe many", func(tx *sql.Tx) error {
			var err error
			results, err = s.subscribeChunk(ctx, tx, chatID, topicID, chunk, nextPoll, now)
			return err
		})
		if err != nil {
			return out, err
		}
		for i, r := range results {
			if first[chunk[i].URL] {
				r.NewFeed, r.NewSub = false, false
			}
			first[chunk[i].URL] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// subscribeChunk is one SubscribeMany transaction.
func (s *Store) subscribeChunk(ctx context.Context, tx *sql.Tx, chatID, topicID int64, refs []FeedRef, nextPoll, now time.Time) ([]SubscribeResult, error) {
	var (
		urls, hosts []any
		seenURL     = map[string]bool{}
		seenHost    = map[string]bool{}
	)
	for _, r := range refs {
		if !seenURL[r.URL] {
			seenURL[r.URL] = true
			urls = append(urls, r.URL)
		}
		if !seenHost[r.Host] {
			seenHost[r.Host] = true
			hosts = append(hosts, r.Host)
		}
	}
	before, err := feedIDs(ctx, tx, urls)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, s.d.insertIgnore+" hosts (host) VALUES "+rowsOf(len(hosts), 1), hosts...); err != nil {
		return nil, fmt.Errorf("insert hosts: %w", err)
	}
	if err := s.insertFeeds(ctx, tx, refs, before, nextPoll, now); err != nil {
		return nil, err
	}
	feeds, err := feedIDs(ctx, tx, urls)
	if err != nil {
		return nil, err
	}
	subsBefore, err := s.subscribeFeeds(ctx, tx, chatID, topicID, urls, feeds, now)
	if err != nil {
		return nil, err
	}
	subs, err := subscriptionIDs(ctx, tx, chatID, topicID, feeds)
	if err != nil {
		return nil, err
	}
	out := make([]SubscribeResult, len(refs))
	for i, r := range refs {
		_, known := before[r.URL]
		_, followed := subsBefore[feeds[r.URL]]
		out[i] = SubscribeResult{FeedID: feeds[r.URL], SubscriptionID: subs[feeds[r.URL]], NewFeed: !known, NewSub: !followed}
	}
	return out, nil
}

// insertFeeds creates the feeds not in known and enables the disabled ones
// among those known.
func (s *Store) insertFeeds(ctx context.Context, tx *sql.Tx, refs []FeedRef, known map[string]int64, nextPoll, now time.Time) error {
	var (
		rows, enable []any
		n            int
		done         = map[string]bool{}
	)
	for _, r := range refs {
		if done[r.URL] {
			continue
		}
		done[r.URL] = true
		if id, ok := known[r.URL]; ok {
			enable = append(enable, id)
			continue
		}
		rows = append(rows, r.URL, urlHash(r.URL), r.Host, msOf(nextPoll), now.UnixMilli())
		n++
	}
	if n > 0 {
		_, err := tx.ExecContext(ctx, s.d.insertIgnore+` feeds
			(url, url_hash, host, next_poll_at, created_at, title, site_url, etag, last_modified, next_poll_reason,
			 last_error, skip_hours, skip_days, disabled_reason, pending_page_url, hub_url, self_url, user_agent, headers)
			VALUES `+feedRows(n), rows...)
		if err != nil {
			return fmt.Errorf("insert feeds: %w", err)
		}
	}
	if len(enable) > 0 {
		_, err := tx.ExecContext(ctx, `UPDATE feeds SET disabled_at = NULL, disabled_reason = '',
			consecutive_errors = 0, failing_since = NULL, next_poll_at = ?
			WHERE disabled_at IS NOT NULL AND id IN (`+placeholders(len(enable))+")", append([]any{msOf(nextPoll)}, enable...)...)
		if err != nil {
			return fmt.Errorf("enable feeds: %w", err)
		}
	}
	return nil
}

// feedRows is the VALUES list of insertFeeds: five values, then the text
// columns empty.
func feedRows(n int) string {
	row := "(?, ?, ?, ?, ?, '', '', '', '', '', '', '', '', '', '', '', '', '', '')"
	out := make([]byte, 0, n*(len(row)+2))
	for i := range n {
		if i > 0 {
			out = append(out, ", "...)
		}
		out = append(out, row...)
	}
	return string(out)
}

// subscribeFeeds subscribes the chat to every feed it does not follow yet,
// in the order of urls, and returns the subscriptions it had before.
func (s *Store) subscribeFeeds(ctx context.Context, tx *sql.Tx, chatID, topicID int64, urls []any, feeds map[string]int64, now time.Time) (map[int64]int64, error) {
	before, err := subscriptionIDs(ctx, tx, chatID, topicID, feeds)
	if err != nil {
		return nil, err
	}
	if err := s.ensureChat(ctx, tx, chatID); err != nil {
		return nil, fmt.Errorf("ensure chat: %w", err)
	}
	var (
		rows []any
		n    int
		done = map[int64]bool{}
	)
	def := Subscription{}.withDefaults()
	for _, u := range urls {
		id := feeds[u.(string)]
		if _, ok := before[id]; ok || done[id] {
			continue
		}
		done[id] = true
		rows = append(rows, id, chatID, topicID, false, "", false, def.MediaMode, false, "", def.Backfill, now.UnixMilli())
		n++
	}
	if n > 0 {
		_, err := tx.ExecContext(ctx, s.d.insertIgnore+` subscriptions
			(feed_id, chat_id, topic_id, paused, paused_reason, silent, media_mode, split, template, backfill, created_at)
			VALUES `+rowsOf(n, 11), rows...)
		if err != nil {
			return nil, fmt.Errorf("insert subscriptions: %w", err)
		}
	}
	return before, nil
}

// feedIDs maps the URLs that have a feed to its id.
func feedIDs(ctx context.Context, q querier, urls []any) (map[string]int64, error) {
	hashes := make([]any, len(urls))
	for i, u := range urls {
		hashes[i] = urlHash(u.(string))
	}
	out := map[string]int64{}
	rows, err := q.QueryContext(ctx, "SELECT url, id FROM feeds WHERE url_hash IN ("+placeholders(len(hashes))+")", hashes...)
	if err != nil {
		return nil, fmt.Errorf("look up feeds: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			u  string
			id int64
		)
		if err := rows.Scan(&u, &id); err != nil {
			return nil, err
		}
		out[u] = id
	}
	return out, rows.Err()
}

// subscriptionIDs maps the feeds the chat (and topic) follows to the
// subscription's id.
func subscriptionIDs(ctx context.Context, q querier, chatID, topicID int64, feeds map[string]int64) (map[int64]int64, error) {
	args := []any{chatID, topicID}
	for _, id := range feeds {
		args = append(args, id)
	}
	out := map[int64]int64{}
	if len(args) == 2 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT feed_id, id FROM subscriptions WHERE chat_id = ? AND topic_id = ? AND feed_id IN ("+
		placeholders(len(args)-2)+")", args...)
	if err != nil {
		return nil, fmt.Errorf("look up subscriptions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var feed, id int64
		if err := rows.Scan(&feed, &id); err != nil {
			return nil, err
		}
		out[feed] = id
	}
	return out, rows.Err()
}
