// Package schedule decides when a feed is polled next, and why. It is pure:
// values in, values out; the poller stores the result.
package schedule

import (
	"time"
)

// Settings are the operator's polling settings.
type Settings struct {
	Base     time.Duration // POLL_INTERVAL
	Max      time.Duration // POLL_INTERVAL_MAX
	Adaptive bool          // POLL_ADAPTIVE
}

// MaxRetryAfter is the longest Retry-After honoured; a longer one counts as this.
const MaxRetryAfter = 24 * time.Hour

// Disable thresholds: at least this many consecutive failures spanning at
// least this long disable a feed.
const (
	DisableAfterFailures = 12
	DisableAfterSpan     = 7 * 24 * time.Hour
)

// Outcome classifies one poll for scheduling.
type Outcome int

// Poll outcomes.
const (
	Success     Outcome = iota // a feed was fetched and parsed
	NotModified                // 304
	Failure                    // network, timeout, 404, 5xx, invalid feed
	RateLimited                // 429 or 503: not a failure
	Gone                       // 410: disabled at once
)

// State is what the database remembers about a feed between polls.
type State struct {
	EmptyPolls        int
	ConsecutiveErrors int
	FailingSince      time.Time
	Hint              time.Duration // stored publisher hint (ttl, sy:*, max-age)
	SkipHours         []int
	SkipDays          []time.Weekday
}

// Poll is what one poll found.
type Poll struct {
	Outcome       Outcome
	NewEntries    int
	RetryAfter    time.Duration
	HasRetryAfter bool
	Now           time.Time
}

// Decision is the new state and the next poll time.
type Decision struct {
	State         State
	Next          time.Time
	Reason        string
	Disable       bool
	DisableReason string
}

// Reasons a next-poll time was chosen.
const (
	ReasonInterval    = "interval"
	ReasonAdaptive    = "adaptive"
	ReasonHint        = "publisher hint"
	ReasonBackoff     = "error backoff"
	ReasonRetryAfter  = "retry-after"
	ReasonRateLimited = "rate limited"
	ReasonSkip        = "skip hours/days"
	ReasonDisabled    = "disabled"
)

// Next applies the polling rules of DESIGN.md ("Politeness and identity
// rules") to one poll's result.
func Next(s Settings, st State, p Poll) Decision {
	d := Decision{State: st}
	switch p.Outcome {
	case Success, NotModified:
		d.State.ConsecutiveErrors = 0
		d.State.FailingSince = time.Time{}
		if p.NewEntries > 0 {
			d.State.EmptyPolls = 0
		} else {
			d.State.EmptyPolls++
		}
	case Failure:
		if d.State.ConsecutiveErrors == 0 {
			d.State.FailingSince = p.Now
		}
		d.State.ConsecutiveErrors++
		if d.State.ConsecutiveErrors >= DisableAfterFailures && p.Now.Sub(d.State.FailingSince) >= DisableAfterSpan {
			d.Disable = true
			d.DisableReason = "too many consecutive failures"
		}
	case Gone:
		d.Disable = true
		d.DisableReason = "the server says the feed is gone (HTTP 410)"
	}
	if d.Disable {
		d.Reason = ReasonDisabled
		d.Next = p.Now
		return d
	}

	wait, reason := normalInterval(s, d.State)
	if p.Outcome == Failure {
		// On a tie the failure is the reason worth showing.
		if b := backoff(s, d.State.ConsecutiveErrors); b >= wait {
			wait, reason = b, ReasonBackoff
		}
	}
	if p.Outcome == RateLimited && !p.HasRetryAfter {
		if r := min(4*s.Base, s.Max); r > wait {
			wait, reason = r, ReasonRateLimited
		}
	}
	if p.HasRetryAfter {
		if r := min(p.RetryAfter, MaxRetryAfter); r > wait {
			wait, reason = r, ReasonRetryAfter
		}
	}
	next := p.Now.Add(wait)
	if moved := outOfSkip(next, d.State.SkipHours, d.State.SkipDays); !moved.Equal(next) {
		next, reason = moved, ReasonSkip
	}
	d.Next, d.Reason = next, reason
	return d
}

// normalInterval is the base interval, lengthened by adaptive slow-down and
// publisher hints, capped at Max.
func normalInterval(s Settings, st State) (time.Duration, string) {
	wait, reason := s.Base, ReasonInterval
	if s.Adaptive && st.EmptyPolls > 0 {
		wait, reason = s.Base*time.Duration(st.EmptyPolls+1), ReasonAdaptive
		if st.EmptyPolls > int(s.Max/s.Base) { // overflow guard
			wait = s.Max
		}
	}
	if st.Hint > wait {
		wait, reason = st.Hint, ReasonHint
	}
	return min(wait, s.Max), reason
}

// backoff doubles the base interval per consecutive failure, capped at Max.
func backoff(s Settings, failures int) time.Duration {
	wait := s.Base
	for i := 1; i < failures && wait < s.Max; i++ {
		wait *= 2
	}
	return min(wait, s.Max)
}

// outOfSkip moves t to the first whole hour (UTC) that is neither a skip
// hour nor on a skip day. When every hour is skipped the hints are ignored.
func outOfSkip(t time.Time, hours []int, days []time.Weekday) time.Time {
	if len(hours) == 0 && len(days) == 0 {
		return t
	}
	skipped := func(u time.Time) bool {
		for _, h := range hours {
			if u.Hour() == h {
				return true
			}
		}
		for _, d := range days {
			if u.Weekday() == d {
				return true
			}
		}
		return false
	}
	u := t.UTC()
	for i := 0; i < 8*24 && skipped(u); i++ {
		u = u.Truncate(time.Hour).Add(time.Hour)
	}
	if skipped(u) {
		return t
	}
	return u.In(t.Location())
}
