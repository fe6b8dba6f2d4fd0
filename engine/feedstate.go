package engine

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// fetchRequest builds the request for a feed: its validators (unless fresh)
// and its own fetch options.
func fetchRequest(f storage.Feed, fresh bool) fetch.Request {
	req := fetch.Request{URL: f.URL, Fresh: fresh, UserAgent: f.UserAgent}
	if !fresh {
		req.ETag, req.LastModified = f.ETag, f.LastModified
	}
	if f.Headers != "" {
		var h map[string]string
		if json.Unmarshal([]byte(f.Headers), &h) == nil {
			req.Headers = h
		}
	}
	return req
}

// applyFeedMeta copies what a feed says about itself into its row.
func applyFeedMeta(f *storage.Feed, p *feed.Feed) {
	if p.Title != "" {
		f.Title = p.Title
	}
	if p.SiteURL != "" {
		f.SiteURL = p.SiteURL
	}
	f.HubURL, f.SelfURL = p.HubURL, p.SelfURL
	f.SkipHours = joinInts(p.Hints.SkipHours)
	f.SkipDays = joinDays(p.Hints.SkipDays)
}

// hintOf is the publisher's hint from the feed and the response headers.
func hintOf(h feed.Hints, res fetch.Result) time.Duration {
	var maxAge time.Duration
	if res.HasMaxAge {
		maxAge = res.MaxAge
	}
	return schedule.PublisherHint(h.TTLMinutes, h.UpdatePeriod, h.UpdateFrequency, maxAge)
}

// decide runs the schedule over a feed's stored state.
func (e *Engine) decide(f storage.Feed, poll schedule.Poll) schedule.Decision {
	st := schedule.State{
		EmptyPolls:        f.EmptyPolls,
		ConsecutiveErrors: f.ConsecutiveErrors,
		FailingSince:      f.FailingSince,
		Hint:              time.Duration(f.HintSeconds) * time.Second,
		SkipHours:         splitInts(f.SkipHours),
		SkipDays:          splitDays(f.SkipDays),
	}
	return schedule.Next(e.opts.Schedule, st, poll)
}

// apply writes a schedule decision and the poll's error into the feed row.
func apply(f storage.Feed, d schedule.Decision, r *PollResult) storage.Feed {
	f.EmptyPolls = d.State.EmptyPolls
	f.ConsecutiveErrors = d.State.ConsecutiveErrors
	f.FailingSince = d.State.FailingSince
	f.NextPollAt, f.NextPollReason = d.Next, d.Reason
	switch {
	case r.Outcome == fetch.RateLimited.String():
		f.RateLimitedUntil = d.Next
	case r.Err != nil:
		f.LastError = r.Err.Error()
		f.RateLimitedUntil = time.Time{}
	default:
		f.LastError = ""
		f.RateLimitedUntil = time.Time{}
	}
	if d.Disable {
		f.DisabledAt, f.DisabledReason = d.Next, d.DisableReason
	}
	return f
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func splitInts(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func joinDays(v []time.Weekday) string {
	s := make([]string, len(v))
	for i, d := range v {
		s[i] = d.String()
	}
	return strings.Join(s, ",")
}

func splitDays(s string) []time.Weekday {
	var out []time.Weekday
	for _, p := range strings.Split(s, ",") {
		for d := time.Sunday; d <= time.Saturday; d++ {
			if strings.EqualFold(strings.TrimSpace(p), d.String()) {
				out = append(out, d)
			}
		}
	}
	return out
}
