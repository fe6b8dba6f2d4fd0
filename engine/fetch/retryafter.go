package fetch

import (
	"net/http"
	"strings"
	"time"
)

// maxDeltaSeconds is the largest delay a header may state: 2^31-1 seconds,
// the bound RFC 9111 sets on delta-seconds.
const maxDeltaSeconds = 1<<31 - 1

// ParseRetryAfter reads the Retry-After header values (RFC 9110 10.2.3):
// either delta-seconds or an HTTP-date, which is measured from now and
// means no delay once it is past. It reports false (ignore the header)
// when there is no value, more than one, a malformed one, or a delay
// outside 0–2147483647 seconds. Capping to the scheduler's own limits is
// the caller's business.
func ParseRetryAfter(values []string, now time.Time) (time.Duration, bool) {
	if len(values) != 1 {
		return 0, false
	}
	v := strings.TrimSpace(values[0])
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, ok := parseDeltaSeconds(v)
		if !ok || secs > maxDeltaSeconds {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if !at.After(now) {
		return 0, true
	}
	d := at.Sub(now)
	if d > maxDeltaSeconds*time.Second {
		return 0, false
	}
	// A date has one-second resolution; round up so the server's moment
	// has passed when we come back.
	return (d + time.Second - 1).Truncate(time.Second), true
}

// parseDeltaSeconds reads 1*DIGIT. It saturates instead of overflowing, so
// a huge value reads as out of range rather than as garbage.
func parseDeltaSeconds(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n <= maxDeltaSeconds {
			n = n*10 + int64(c-'0')
		}
	}
	return n, true
}
