package schedule

import (
	"math"
	"strings"
	"time"
)

// PublisherHint turns a feed's hints into one interval: the longer of RSS ttl
// (minutes) and sy:updatePeriod/sy:updateFrequency, and Cache-Control
// max-age. Zero means no hint. Invalid values are ignored.
func PublisherHint(ttlMinutes int, updatePeriod string, updateFrequency int, maxAge time.Duration) time.Duration {
	var hint time.Duration
	switch {
	case int64(ttlMinutes) > int64(math.MaxInt64/time.Minute):
		hint = math.MaxInt64 // beyond what a Duration holds: saturate, not wrap
	case ttlMinutes > 0:
		hint = time.Duration(ttlMinutes) * time.Minute
	}
	if sy := syndicationInterval(updatePeriod, updateFrequency); sy > hint {
		hint = sy
	}
	if maxAge > hint {
		hint = maxAge
	}
	return hint
}

// syndicationInterval applies the RSS 1.0 syndication module: the period
// divided by the frequency (missing frequency = 1; a frequency without a
// period = daily), rounded up to whole seconds.
func syndicationInterval(period string, frequency int) time.Duration {
	if period == "" && frequency <= 0 {
		return 0
	}
	if frequency < 0 {
		return 0
	}
	if frequency == 0 {
		frequency = 1
	}
	var p time.Duration
	switch strings.ToLower(strings.TrimSpace(period)) {
	case "hourly":
		p = time.Hour
	case "", "daily":
		p = 24 * time.Hour
	case "weekly":
		p = 7 * 24 * time.Hour
	case "monthly":
		p = 31 * 24 * time.Hour
	case "yearly":
		p = 366 * 24 * time.Hour
	default:
		return 0
	}
	secs := int64(p / time.Second)
	f := int64(frequency)
	return time.Duration((secs+f-1)/f) * time.Second
}
