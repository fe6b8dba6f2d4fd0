package schedule

import (
	"math"
	"testing"
	"time"
)

var defaults = Settings{Base: 10 * time.Minute, Max: 6 * time.Hour, Adaptive: true}

var t0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC) // a Monday

func TestNextAdaptive(t *testing.T) {
	// Rule: each poll without a new entry adds one base interval, up to
	// POLL_INTERVAL_MAX; a new entry resets it.
	tests := []struct {
		name       string
		emptyPolls int // before this poll
		newEntries int
		want       time.Duration
	}{
		{"new entry resets", 5, 1, 10 * time.Minute},
		{"0 empty polls → 10 min", -1, 0, 10 * time.Minute},
		{"1 empty poll → 20 min", 0, 0, 20 * time.Minute},
		{"2 empty polls → 30 min", 1, 0, 30 * time.Minute},
		{"9 empty polls → 1h40", 8, 0, 100 * time.Minute},
		{"35 empty polls → 6h", 34, 0, 6 * time.Hour},
		{"1000 empty polls capped at 6h", 999, 0, 6 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := State{EmptyPolls: tt.emptyPolls}
			p := Poll{Outcome: Success, NewEntries: tt.newEntries, Now: t0}
			if tt.emptyPolls < 0 { // "0 empty polls" means the state after the poll is 0
				st.EmptyPolls = 3
				p.NewEntries = 1
			}
			d := Next(defaults, st, p)
			if got := d.Next.Sub(t0); got != tt.want {
				t.Errorf("wait = %v, want %v (reason %s)", got, tt.want, d.Reason)
			}
		})
	}
}

func TestNextNotAdaptive(t *testing.T) {
	s := defaults
	s.Adaptive = false
	d := Next(s, State{EmptyPolls: 7}, Poll{Outcome: NotModified, Now: t0})
	if got := d.Next.Sub(t0); got != 10*time.Minute {
		t.Errorf("wait = %v, want base interval", got)
	}
	if d.State.EmptyPolls != 8 {
		t.Errorf("empty polls = %d, want counted even when not adaptive", d.State.EmptyPolls)
	}
}

func TestNextHints(t *testing.T) {
	// Rule: publisher hints only lengthen, and are capped at POLL_INTERVAL_MAX.
	tests := []struct {
		hint time.Duration
		want time.Duration
	}{
		{5 * time.Minute, 10 * time.Minute},
		{time.Hour, time.Hour},
		{48 * time.Hour, 6 * time.Hour},
	}
	for _, tt := range tests {
		d := Next(defaults, State{Hint: tt.hint}, Poll{Outcome: Success, NewEntries: 1, Now: t0})
		if got := d.Next.Sub(t0); got != tt.want {
			t.Errorf("hint %v: wait %v, want %v", tt.hint, got, tt.want)
		}
	}
}

func TestNextBackoff(t *testing.T) {
	// Rule: the wait doubles per consecutive failure (10, 20, 40 min …) up to
	// POLL_INTERVAL_MAX, never below the normal interval.
	tests := []struct {
		errorsBefore int
		emptyPolls   int
		want         time.Duration
	}{
		{0, 0, 10 * time.Minute},
		{1, 0, 20 * time.Minute},
		{2, 0, 40 * time.Minute},
		{10, 0, 6 * time.Hour},
		{0, 5, 60 * time.Minute}, // normal interval (adaptive) is longer than backoff
	}
	for _, tt := range tests {
		st := State{ConsecutiveErrors: tt.errorsBefore, EmptyPolls: tt.emptyPolls, FailingSince: t0.Add(-time.Hour)}
		d := Next(defaults, st, Poll{Outcome: Failure, Now: t0})
		if got := d.Next.Sub(t0); got != tt.want {
			t.Errorf("errors %d: wait %v, want %v", tt.errorsBefore, got, tt.want)
		}
		if d.State.ConsecutiveErrors != tt.errorsBefore+1 {
			t.Errorf("errors not counted: %d", d.State.ConsecutiveErrors)
		}
	}
	// A success resets.
	d := Next(defaults, State{ConsecutiveErrors: 5, FailingSince: t0}, Poll{Outcome: NotModified, Now: t0})
	if d.State.ConsecutiveErrors != 0 || !d.State.FailingSince.IsZero() {
		t.Errorf("success did not reset failures: %+v", d.State)
	}
}

func TestNextDisable(t *testing.T) {
	// Rule: ≥12 consecutive failures spanning ≥7 days disable; 410 disables at once.
	tests := []struct {
		name    string
		errors  int
		since   time.Duration
		outcome Outcome
		want    bool
	}{
		{"12th failure after 7 days", 11, 7 * 24 * time.Hour, Failure, true},
		{"12th failure after 6 days", 11, 6 * 24 * time.Hour, Failure, false},
		{"11th failure after 30 days", 10, 30 * 24 * time.Hour, Failure, false},
		{"410 at once", 0, 0, Gone, true},
		{"429 never", 50, 30 * 24 * time.Hour, RateLimited, false},
	}
	for _, tt := range tests {
		st := State{ConsecutiveErrors: tt.errors, FailingSince: t0.Add(-tt.since)}
		d := Next(defaults, st, Poll{Outcome: tt.outcome, Now: t0})
		if d.Disable != tt.want {
			t.Errorf("%s: disable = %v, want %v", tt.name, d.Disable, tt.want)
		}
	}
}

func TestNextRateLimited(t *testing.T) {
	// Rule: 429/503 wait Retry-After (honoured up to 24 h, the only wait
	// beyond POLL_INTERVAL_MAX), else 4 × POLL_INTERVAL capped; not a failure.
	tests := []struct {
		name  string
		ra    time.Duration
		hasRA bool
		want  time.Duration
	}{
		{"no Retry-After → 4 × base", 0, false, 40 * time.Minute},
		{"Retry-After 2h", 2 * time.Hour, true, 2 * time.Hour},
		{"Retry-After 12h beyond max", 12 * time.Hour, true, 12 * time.Hour},
		{"Retry-After 3 days → 24h", 72 * time.Hour, true, 24 * time.Hour},
		{"Retry-After shorter than interval", time.Minute, true, 10 * time.Minute},
	}
	for _, tt := range tests {
		d := Next(defaults, State{ConsecutiveErrors: 2, FailingSince: t0}, Poll{Outcome: RateLimited, RetryAfter: tt.ra, HasRetryAfter: tt.hasRA, Now: t0})
		if got := d.Next.Sub(t0); got != tt.want {
			t.Errorf("%s: wait %v, want %v", tt.name, got, tt.want)
		}
		if d.State.ConsecutiveErrors != 2 {
			t.Errorf("%s: rate limiting changed the failure count", tt.name)
		}
	}
}

func TestNextSkip(t *testing.T) {
	// Rule: the next poll is moved out of RSS skipHours/skipDays (UTC).
	tests := []struct {
		name  string
		hours []int
		days  []time.Weekday
		want  time.Time
	}{
		{"no skip", nil, nil, t0.Add(10 * time.Minute)},
		{"skip hour 12", []int{12}, nil, time.Date(2026, 3, 2, 13, 0, 0, 0, time.UTC)},
		{"skip 12-14", []int{12, 13, 14}, nil, time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)},
		{"skip Monday", nil, []time.Weekday{time.Monday}, time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)},
		{"every hour skipped: ignored", allHours(), nil, t0.Add(10 * time.Minute)},
	}
	for _, tt := range tests {
		d := Next(defaults, State{SkipHours: tt.hours, SkipDays: tt.days}, Poll{Outcome: Success, NewEntries: 1, Now: t0})
		if !d.Next.Equal(tt.want) {
			t.Errorf("%s: next %v, want %v", tt.name, d.Next, tt.want)
		}
	}
}

func allHours() []int {
	h := make([]int, 24)
	for i := range h {
		h[i] = i
	}
	return h
}

func TestPublisherHint(t *testing.T) {
	// Rule: missing frequency = 1; frequency without period = daily; monthly =
	// 31 days, yearly = 366 days; division rounds up to whole seconds; invalid
	// values ignored; the longer of ttl and sy wins; max-age counts too.
	tests := []struct {
		name   string
		ttl    int
		period string
		freq   int
		maxAge time.Duration
		want   time.Duration
	}{
		{"none", 0, "", 0, 0, 0},
		{"ttl 60", 60, "", 0, 0, time.Hour},
		{"hourly", 0, "hourly", 0, 0, time.Hour},
		{"daily / 2", 0, "daily", 2, 0, 12 * time.Hour},
		{"frequency without period = daily", 0, "", 4, 0, 6 * time.Hour},
		{"monthly", 0, "monthly", 1, 0, 31 * 24 * time.Hour},
		{"yearly", 0, "yearly", 1, 0, 366 * 24 * time.Hour},
		{"rounds up", 0, "hourly", 7, 0, 515 * time.Second},
		{"invalid period ignored", 30, "fortnightly", 1, 0, 30 * time.Minute},
		{"negative frequency ignored", 0, "daily", -1, 0, 0},
		{"longer of ttl and sy", 120, "hourly", 1, 0, 2 * time.Hour},
		{"max-age wins", 10, "", 0, 3 * time.Hour, 3 * time.Hour},
		// A ttl too large for a Duration must still mean "rarely", not
		// wrap round to a short or negative interval.
		{"huge ttl saturates", math.MaxInt32, "", 0, 0, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := PublisherHint(tt.ttl, tt.period, tt.freq, tt.maxAge); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
