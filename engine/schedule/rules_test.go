package schedule

import (
	"testing"
	"time"
)

// The rules of issue 6 that the table tests below cite, verbatim.
const (
	ruleHintsLengthen = "Publisher hints only lengthen … Hints are stored, so they still apply after a 304. Capped at POLL_INTERVAL_MAX."
	ruleRetryAfter    = "Retry-After is honoured up to 24 hours (a longer value counts as 24 hours); it is the only wait that may exceed POLL_INTERVAL_MAX."
	ruleBackoff       = "Failures: the wait doubles per consecutive failure (10, 20, 40 min …) up to POLL_INTERVAL_MAX, never below the normal interval; a success resets it."
	ruleRateLimited   = "429/503: wait Retry-After, or 4 × POLL_INTERVAL without it, capped at POLL_INTERVAL_MAX; not a failure."
	ruleLongestWins   = "The longest of normal interval, backoff and Retry-After wins."
	ruleSkip          = "skipHours / skipDays (UTC) move the next poll out of them."
	ruleDisable       = "Disabled when at least 12 consecutive failures span at least 7 days. 410 disables at once."
)

func TestNextRules(t *testing.T) {
	tests := []struct {
		rule       string
		name       string
		settings   Settings
		state      State
		poll       Poll
		wait       time.Duration
		reason     string
		errorsNext int
	}{
		{ruleHintsLengthen, "stored ttl applies after a 304", defaults,
			State{Hint: 90 * time.Minute}, Poll{Outcome: NotModified}, 90 * time.Minute, ReasonHint, 0},
		{ruleHintsLengthen, "a hint shorter than the adaptive interval does not shorten it", defaults,
			State{Hint: 15 * time.Minute, EmptyPolls: 2}, Poll{Outcome: NotModified}, 40 * time.Minute, ReasonAdaptive, 0},
		{ruleHintsLengthen, "a weekly hint is capped", defaults,
			State{Hint: 7 * 24 * time.Hour}, Poll{Outcome: Success, NewEntries: 1}, 6 * time.Hour, ReasonHint, 0},
		{ruleRetryAfter, "Retry-After on a 200 beyond the cap", defaults,
			State{}, Poll{Outcome: Success, NewEntries: 1, RetryAfter: 8 * time.Hour, HasRetryAfter: true}, 8 * time.Hour, ReasonRetryAfter, 0},
		{ruleRetryAfter, "exactly 24 h", defaults,
			State{}, Poll{Outcome: RateLimited, RetryAfter: 24 * time.Hour, HasRetryAfter: true}, 24 * time.Hour, ReasonRetryAfter, 0},
		{ruleRetryAfter, "a week counts as 24 h", defaults,
			State{}, Poll{Outcome: RateLimited, RetryAfter: 7 * 24 * time.Hour, HasRetryAfter: true}, 24 * time.Hour, ReasonRetryAfter, 0},
		{ruleBackoff, "first failure: one base interval", defaults,
			State{}, Poll{Outcome: Failure}, 10 * time.Minute, ReasonBackoff, 1},
		{ruleBackoff, "third failure: 40 min", defaults,
			State{ConsecutiveErrors: 2}, Poll{Outcome: Failure}, 40 * time.Minute, ReasonBackoff, 3},
		{ruleBackoff, "never below a stored hint", defaults,
			State{ConsecutiveErrors: 1, Hint: 2 * time.Hour}, Poll{Outcome: Failure}, 2 * time.Hour, ReasonHint, 2},
		{ruleBackoff, "capped at POLL_INTERVAL_MAX", Settings{Base: time.Hour, Max: 3 * time.Hour, Adaptive: true},
			State{ConsecutiveErrors: 4}, Poll{Outcome: Failure}, 3 * time.Hour, ReasonBackoff, 5},
		{ruleBackoff, "a success resets it", defaults,
			State{ConsecutiveErrors: 6}, Poll{Outcome: Success, NewEntries: 1}, 10 * time.Minute, ReasonInterval, 0},
		{ruleRateLimited, "no Retry-After: 4 × base", defaults,
			State{ConsecutiveErrors: 3}, Poll{Outcome: RateLimited}, 40 * time.Minute, ReasonRateLimited, 3},
		{ruleRateLimited, "4 × base capped at POLL_INTERVAL_MAX", Settings{Base: 2 * time.Hour, Max: 6 * time.Hour},
			State{}, Poll{Outcome: RateLimited}, 6 * time.Hour, ReasonRateLimited, 0},
		{ruleRateLimited, "with Retry-After: Retry-After", defaults,
			State{}, Poll{Outcome: RateLimited, RetryAfter: 3 * time.Hour, HasRetryAfter: true}, 3 * time.Hour, ReasonRetryAfter, 0},
		{ruleLongestWins, "backoff longer than Retry-After", defaults,
			State{ConsecutiveErrors: 3}, Poll{Outcome: Failure, RetryAfter: 30 * time.Minute, HasRetryAfter: true}, 80 * time.Minute, ReasonBackoff, 4},
		{ruleLongestWins, "Retry-After longer than backoff, beyond the cap", defaults,
			State{ConsecutiveErrors: 3}, Poll{Outcome: Failure, RetryAfter: 10 * time.Hour, HasRetryAfter: true}, 10 * time.Hour, ReasonRetryAfter, 4},
		{ruleLongestWins, "normal interval longer than both", defaults,
			State{EmptyPolls: 11}, Poll{Outcome: Failure, RetryAfter: time.Minute, HasRetryAfter: true}, 2 * time.Hour, ReasonAdaptive, 1},
	}
	for _, tt := range tests {
		tt.poll.Now = t0
		tt.state.FailingSince = t0.Add(-time.Hour)
		d := Next(tt.settings, tt.state, tt.poll)
		if got := d.Next.Sub(t0); got != tt.wait || d.Reason != tt.reason {
			t.Errorf("%s\n  %s: wait %v (%s), want %v (%s)", tt.rule, tt.name, got, d.Reason, tt.wait, tt.reason)
		}
		if d.State.ConsecutiveErrors != tt.errorsNext {
			t.Errorf("%s\n  %s: failure count %d, want %d", tt.rule, tt.name, d.State.ConsecutiveErrors, tt.errorsNext)
		}
		if d.Disable {
			t.Errorf("%s\n  %s: disabled", tt.rule, tt.name)
		}
	}
}

func TestNextFailureStreak(t *testing.T) {
	// Rule: ruleDisable. The streak starts at the first failure and a
	// success ends it; rate limiting neither counts nor ends it.
	st := State{}
	now := t0
	for i := 1; i <= 12; i++ {
		d := Next(defaults, st, Poll{Outcome: Failure, Now: now})
		if !d.State.FailingSince.Equal(t0) {
			t.Fatalf("failure %d: streak started %v, want %v", i, d.State.FailingSince, t0)
		}
		if d.Disable {
			t.Fatalf("failure %d after %v disabled too early", i, now.Sub(t0))
		}
		st = d.State
		now = now.Add(6 * time.Hour) // 12 failures span 66 h: not 7 days
	}
	d := Next(defaults, st, Poll{Outcome: RateLimited, Now: t0.Add(8 * 24 * time.Hour)})
	if d.State.ConsecutiveErrors != 12 || !d.State.FailingSince.Equal(t0) || d.Disable {
		t.Fatalf("rate limiting touched the streak: %+v, disable %v", d.State, d.Disable)
	}
	d = Next(defaults, d.State, Poll{Outcome: Failure, Now: t0.Add(8 * 24 * time.Hour)})
	if !d.Disable || d.Reason != ReasonDisabled || d.DisableReason == "" {
		t.Fatalf("13 failures over 8 days: %+v; want disabled with a reason", d)
	}
	d = Next(defaults, State{}, Poll{Outcome: Gone, RetryAfter: time.Hour, HasRetryAfter: true, Now: t0})
	if !d.Disable || !d.Next.Equal(t0) {
		t.Fatalf("410 with Retry-After: %+v; want disabled at once", d)
	}
}

func TestNextSkipRules(t *testing.T) {
	// Rule: ruleSkip, applied to whatever wait won, Retry-After included.
	tests := []struct {
		name  string
		poll  Poll
		hours []int
		days  []time.Weekday
		want  time.Time
	}{
		{"Retry-After landing in a skipped hour", Poll{Outcome: RateLimited, RetryAfter: 2 * time.Hour, HasRetryAfter: true},
			[]int{14}, nil, time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)},
		{"skip across midnight into a skipped day", Poll{Outcome: Success, NewEntries: 1, Now: time.Date(2026, 3, 2, 23, 55, 0, 0, time.UTC)},
			[]int{0}, []time.Weekday{time.Tuesday}, time.Date(2026, 3, 4, 1, 0, 0, 0, time.UTC)},
		{"every day skipped: ignored", Poll{Outcome: Success, NewEntries: 1},
			nil, []time.Weekday{0, 1, 2, 3, 4, 5, 6}, t0.Add(10 * time.Minute)},
		{"a local time zone is judged in UTC", Poll{Outcome: Success, NewEntries: 1, Now: t0.In(time.FixedZone("X", 5*3600))},
			[]int{12}, nil, time.Date(2026, 3, 2, 13, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		if tt.poll.Now.IsZero() {
			tt.poll.Now = t0
		}
		d := Next(defaults, State{SkipHours: tt.hours, SkipDays: tt.days}, tt.poll)
		if !d.Next.Equal(tt.want) {
			t.Errorf("%s\n  %s: next %v, want %v", ruleSkip, tt.name, d.Next.UTC(), tt.want)
		}
	}
}
