package feed

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ParseDate parses a date as feeds write them (RFC 822 and its many
// deviations, W3C-DTF/ISO 8601, asctime, and a few localised forms) and
// returns it in UTC. ok is false when the text is not a valid date; callers
// then leave the date unset rather than guess.
func ParseDate(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, parse := range []func(string) (time.Time, bool){parseISODate, parseKoreanDate, parseRFC822Date} {
		if t, ok := parse(s); ok {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

var (
	// A zone is only accepted after a time: "2013-01-27-01" is not a date.
	isoDateRE = regexp.MustCompile(`^(\d{4})(?:-(\d{1,3})(?:-(\d{1,2}))?)?` +
		`(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?` +
		`\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$`)
	isoShortRE     = regexp.MustCompile(`^(\d{2})(\d{2})(\d{2})$|^(\d{2})-(\d{2})-(\d{2})$`)
	isoYearMonthRE = regexp.MustCompile(`^-(\d{2})-?(\d{2})$`)
	// isoLocalMonthRE finds a month written as a word inside an ISO date
	// ("2004-július-13").
	isoLocalMonthRE = regexp.MustCompile(`^(\d{4})-(\p{L}+)-`)
)

// parseISODate handles W3C-DTF and the ISO 8601 forms feeds use, including
// a space for T, fractional seconds, reduced precision and two-digit years.
func parseISODate(s string) (time.Time, bool) {
	if m := isoLocalMonthRE.FindStringSubmatch(s); m != nil {
		mon, ok := monthByName(m[2])
		if !ok {
			return time.Time{}, false
		}
		s = m[1] + "-" + strconv.Itoa(int(mon)) + "-" + s[len(m[0]):]
	}
	if m := isoShortRE.FindStringSubmatch(s); m != nil {
		if m[1] == "" {
			m = m[3:]
		}
		return buildDate(twoDigitYear(atoi(m[1])), atoi(m[2]), atoi(m[3]), 0, 0, 0, time.UTC)
	}
	if m := isoYearMonthRE.FindStringSubmatch(s); m != nil {
		return buildDate(twoDigitYear(atoi(m[1])), atoi(m[2]), 1, 0, 0, 0, time.UTC)
	}
	m := isoDateRE.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	month, day := 1, 1
	if m[2] != "" {
		month = atoi(m[2])
	}
	if m[3] != "" {
		day = atoi(m[3])
	}
	loc := time.UTC
	if m[7] != "" {
		var ok bool
		if loc, ok = numericZone(m[7]); !ok {
			return time.Time{}, false
		}
	}
	return buildDate(atoi(m[1]), month, day, atoi(m[4]), atoi(m[5]), atoi(m[6]), loc)
}

var (
	nateRE   = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})\s+(오전|오후)\s+(\d{1,2}):(\d{2}):(\d{2})$`)
	onblogRE = regexp.MustCompile(`^(\d{4})년\s*(\d{1,2})월\s*(\d{1,2})일\s+(\d{1,2}):(\d{2}):(\d{2})$`)
	kst      = time.FixedZone("KST", 9*3600)
)

// parseKoreanDate handles the forms of two Korean blog hosts, which write
// local time (KST) with Korean markers.
func parseKoreanDate(s string) (time.Time, bool) {
	if m := nateRE.FindStringSubmatch(s); m != nil {
		h := atoi(m[5])
		if m[4] == "오후" && h < 12 {
			h += 12
		}
		return buildDate(atoi(m[1]), atoi(m[2]), atoi(m[3]), h, atoi(m[6]), atoi(m[7]), kst)
	}
	if m := onblogRE.FindStringSubmatch(s); m != nil {
		return buildDate(atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6]), kst)
	}
	return time.Time{}, false
}

// rfc822Parts collects the pieces of an RFC 822-like date in any order.
type rfc822Parts struct {
	nums         []int
	numLens      []int
	month        time.Month
	h, min, sec  int
	hasTime      bool
	loc          *time.Location
	year, mo, dy int // from a y/m/d token
}

// parseRFC822Date classifies whitespace-separated tokens (month names,
// numbers, a clock time, a zone) instead of matching fixed layouts, so
// reordered and sloppy forms parse: "Thu Aug 30 2012 17:26:16 +0200",
// "Mon, 13 Feb, 2012 06:28:00 UTC", asctime, "Fri, 2006/09/15 …".
// Any token it cannot classify makes the date invalid.
func parseRFC822Date(s string) (time.Time, bool) {
	fields := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(fields) > 0 && isWordToken(fields[0]) {
		if _, isMonth := monthByName(fields[0]); !isMonth {
			fields = fields[1:] // a weekday, in whatever language
		}
	}
	var p rfc822Parts
	for _, f := range fields {
		if !p.classify(f) {
			return time.Time{}, false
		}
	}
	return p.build()
}

func (p *rfc822Parts) classify(f string) bool {
	switch {
	case strings.Count(f, "/") == 2 && p.year == 0:
		ymd := strings.Split(f, "/")
		p.year, p.mo, p.dy = atoi(ymd[0]), atoi(ymd[1]), atoi(ymd[2])
		return isDigits(ymd[0]) && isDigits(ymd[1]) && isDigits(ymd[2])
	case isDigits(f):
		p.nums = append(p.nums, atoi(f))
		p.numLens = append(p.numLens, len(f))
		return len(p.nums) <= 2
	case strings.Contains(f, ":") && !p.hasTime && f[0] >= '0' && f[0] <= '9':
		return p.parseClock(f)
	}
	if mon, ok := monthByName(f); ok && p.month == 0 {
		p.month = mon
		return true
	}
	if loc, ok := zoneByName(f); ok && p.loc == nil {
		p.loc = loc
		return true
	}
	return false
}

func (p *rfc822Parts) parseClock(f string) bool {
	parts := strings.Split(f, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, x := range parts {
		if !isDigits(x) || len(x) > 2 {
			return false
		}
	}
	p.h, p.min = atoi(parts[0]), atoi(parts[1])
	if len(parts) == 3 {
		p.sec = atoi(parts[2])
	}
	p.hasTime = true
	return true
}

func (p *rfc822Parts) build() (time.Time, bool) {
	loc := p.loc
	if loc == nil {
		loc = time.UTC
	}
	if p.year != 0 {
		if len(p.nums) != 0 || p.month != 0 {
			return time.Time{}, false
		}
		return buildDate(p.year, p.mo, p.dy, p.h, p.min, p.sec, loc)
	}
	if p.month == 0 || len(p.nums) != 2 {
		return time.Time{}, false
	}
	day, year, yearLen := p.nums[0], p.nums[1], p.numLens[1]
	if p.numLens[0] == 4 && p.numLens[1] <= 2 {
		day, year, yearLen = p.nums[1], p.nums[0], p.numLens[0]
	}
	if yearLen <= 2 {
		year = twoDigitYear(year)
	}
	return buildDate(year, int(p.month), day, p.h, p.min, p.sec, loc)
}

// buildDate validates the fields (time.Date would normalise 31 June to
// 1 July) and builds the time.
func buildDate(y, mo, d, h, mi, s int, loc *time.Location) (time.Time, bool) {
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, loc)
	if t.Day() != d && h != 24 && s != 60 {
		return time.Time{}, false
	}
	return t, true
}

func twoDigitYear(y int) int {
	if y < 70 {
		return 2000 + y
	}
	return 1900 + y
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isWordToken(s string) bool {
	for _, r := range s {
		if r >= '0' && r <= '9' || r == ':' || r == '+' || r == '-' {
			return false
		}
	}
	return s != ""
}
