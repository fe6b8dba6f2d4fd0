package feed

import (
	"errors"
	"fmt"
	"strings"
	"time"
	// Zones must resolve on minimal systems without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/emersion/go-ical"
)

// icalTime is a parsed DATE or DATE-TIME value.
type icalTime struct {
	t      time.Time
	allDay bool   // a DATE value: midnight UTC of that day
	zone   string // "UTC", an IANA name, or "" for floating and dates
}

// zoneResolver maps TZIDs to locations, once per name per calendar.
type zoneResolver struct {
	cache map[string]*time.Location // nil value: unknown
	// defs holds the VTIMEZONE definitions by TZID, the latest calendar's
	// winning: concatenated calendars may reuse a TZID for another zone.
	defs map[string]*ical.Component
	// iana caches tz database loads across calendars.
	iana map[string]*time.Location
}

func newZoneResolver() *zoneResolver {
	return &zoneResolver{
		cache: map[string]*time.Location{},
		defs:  map[string]*ical.Component{},
		iana:  map[string]*time.Location{},
	}
}

// addDefinitions records a calendar's VTIMEZONEs before its events are
// converted. A TZID's resolution depends on its own definition only, so
// only the redefined names are forgotten.
func (z *zoneResolver) addDefinitions(cal *ical.Component) {
	for _, child := range cal.Children {
		if child.Name != ical.CompTimezone {
			continue
		}
		if p := getProp(child.Props, ical.PropTimezoneID); p != nil {
			if id := strings.Trim(strings.TrimSpace(p.Value), `"`); id != "" {
				z.defs[id] = child
				delete(z.cache, id)
			}
		}
	}
}

// Reasons a date is unusable. They only decide whether an event is
// skipped, so they carry no detail: formatting one per skipped event would
// cost more than the rest of its conversion.
var (
	errNoValue     = errors.New("feed: iCalendar: missing date")
	errBadDate     = errors.New("feed: iCalendar: bad DATE")
	errBadDateTime = errors.New("feed: iCalendar: bad DATE-TIME")
	errUnknownZone = errors.New("feed: iCalendar: unknown TZID")
)

// parse reads a DATE or DATE-TIME property: UTC ("Z"), TZID (IANA, Windows
// or a VTIMEZONE naming one), or floating, which is taken as UTC.
func (z *zoneResolver) parse(p *ical.Prop) (icalTime, error) {
	if p == nil {
		return icalTime{}, errNoValue
	}
	v := strings.TrimSpace(p.Value)
	vt := strings.ToUpper(getParam(p.Params, ical.ParamValue))
	if vt == "DATE" || (vt == "" && len(v) == 8) {
		t, ok := parseICalDate(v)
		if !ok {
			return icalTime{}, errBadDate
		}
		return icalTime{t: t, allDay: true}, nil
	}
	if utc, isUTC := strings.CutSuffix(v, "Z"); isUTC {
		t, ok := parseICalDateTime(utc, time.UTC)
		if !ok {
			return icalTime{}, errBadDateTime
		}
		return icalTime{t: t, zone: "UTC"}, nil
	}
	loc, zone := time.UTC, ""
	if tzid := getParam(p.Params, ical.ParamTimezoneID); tzid != "" {
		loc = z.location(tzid)
		if loc == nil {
			return icalTime{}, errUnknownZone
		}
		zone = loc.String()
	}
	t, ok := parseICalDateTime(v, loc)
	if !ok {
		return icalTime{}, errBadDateTime
	}
	return icalTime{t: t, zone: zone}, nil
}

// location resolves a TZID, caching the answer (including "unknown").
func (z *zoneResolver) location(tzid string) *time.Location {
	tzid = strings.Trim(strings.TrimSpace(tzid), `"`)
	if loc, ok := z.cache[tzid]; ok {
		return loc
	}
	loc := z.resolve(tzid)
	z.cache[tzid] = loc
	return loc
}

// resolve tries, in order: UTC names, CLDR's Windows names, an IANA name,
// the X-LIC-LOCATION of the calendar's VTIMEZONE, an IANA name at the end
// of a vendor prefix ("/mozilla.org/20050126_1/Europe/Berlin",
// "custom_America/New_York"), and a
// VTIMEZONE with one fixed offset.
func (z *zoneResolver) resolve(tzid string) *time.Location {
	switch strings.ToUpper(tzid) {
	case "UTC", "GMT", "Z", "ETC/UTC", "ETC/GMT":
		return time.UTC
	}
	if iana, ok := windowsZones[tzid]; ok {
		return z.loadIANA(iana)
	}
	if loc := z.loadIANA(tzid); loc != nil {
		return loc
	}
	def := z.defs[tzid]
	if def != nil {
		if p := getProp(def.Props, "X-LIC-LOCATION"); p != nil {
			if loc := z.loadIANA(strings.TrimSpace(p.Value)); loc != nil {
				return loc
			}
		}
	}
	for i := 0; i < len(tzid); i++ {
		if strings.IndexByte("/_- ", tzid[i]) >= 0 && strings.Contains(tzid[i+1:], "/") {
			if loc := z.loadIANA(tzid[i+1:]); loc != nil {
				return loc
			}
		}
	}
	if def != nil {
		return fixedZone(tzid, def)
	}
	return nil
}

// loadIANA loads a zone from the tz database (once per name), refusing
// names that time.LoadLocation would map to the host's local zone.
func (z *zoneResolver) loadIANA(name string) *time.Location {
	if name == "" || strings.EqualFold(name, "Local") || strings.ContainsAny(name, " \\") {
		return nil
	}
	if loc, ok := z.iana[name]; ok {
		return loc
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		loc = nil
	}
	z.iana[name] = loc
	return loc
}

// fixedZone builds a location from a VTIMEZONE that has a single
// observance (no daylight saving), which many generators write for zones
// they have no name for.
func fixedZone(tzid string, def *ical.Component) *time.Location {
	var offsets []string
	for _, obs := range def.Children {
		if p := getProp(obs.Props, ical.PropTimezoneOffsetTo); p != nil {
			offsets = append(offsets, strings.TrimSpace(p.Value))
		}
	}
	if len(offsets) != 1 {
		return nil
	}
	off, ok := parseUTCOffset(offsets[0])
	if !ok {
		return nil
	}
	return time.FixedZone(tzid, off)
}

// parseUTCOffset parses an RFC 5545 UTC-OFFSET: ±hhmm[ss], in seconds.
func parseUTCOffset(s string) (int, bool) {
	if len(s) != 5 && len(s) != 7 || s[0] != '+' && s[0] != '-' || !isDigits(s[1:]) {
		return 0, false
	}
	h, m, sec := atoi(s[1:3]), atoi(s[3:5]), 0
	if len(s) == 7 {
		sec = atoi(s[5:7])
	}
	if h > 23 || m > 59 || sec > 59 {
		return 0, false
	}
	off := h*3600 + m*60 + sec
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

// recurrenceKey normalises a RECURRENCE-ID to the instant it names, so the
// same exception written with another TZID or in UTC keeps its identity.
func recurrenceKey(p *ical.Prop, z *zoneResolver) string {
	t, err := z.parse(p)
	if err != nil {
		return strings.TrimSpace(p.Value)
	}
	if t.allDay {
		return t.t.Format("20060102")
	}
	return t.t.UTC().Format("20060102T150405Z")
}

func parseICalDate(v string) (time.Time, bool) {
	if len(v) != 8 || !isDigits(v) {
		return time.Time{}, false
	}
	return buildDate(digits(v[:4]), digits(v[4:6]), digits(v[6:8]), 0, 0, 0, time.UTC)
}

// parseICalDateTime parses the local form YYYYMMDDTHHMMSS in loc (UTC when
// nil), refusing out-of-range fields rather than normalising them.
func parseICalDateTime(v string, loc *time.Location) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	if len(v) != 15 || v[8] != 'T' && v[8] != 't' || !isDigits(v[:8]) || !isDigits(v[9:]) {
		return time.Time{}, false
	}
	h, m, s := digits(v[9:11]), digits(v[11:13]), digits(v[13:15])
	if h > 23 {
		return time.Time{}, false
	}
	return buildDate(digits(v[:4]), digits(v[4:6]), digits(v[6:8]), h, m, s, loc)
}

// digits is the value of a short run of ASCII digits (checked by the
// caller); strconv.Atoi would check them again for every field of every
// date.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// icalDuration is an RFC 5545 DURATION: days are nominal (calendar days,
// which may be 23 or 25 hours across a DST change), the rest exact.
type icalDuration struct {
	negative bool
	days     int
	exact    time.Duration
}

func (d icalDuration) addTo(t time.Time) time.Time {
	if d.negative {
		return t.AddDate(0, 0, -d.days).Add(-d.exact)
	}
	return t.AddDate(0, 0, d.days).Add(d.exact)
}

func (d icalDuration) approxMinutes() int {
	return d.days*24*60 + int(d.exact/time.Minute)
}

// parseICalDuration parses [+-]P[nW][nD][T[nH][nM][nS]].
func parseICalDuration(v string) (icalDuration, error) {
	var d icalDuration
	s := strings.ToUpper(strings.TrimSpace(v))
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		d.negative, s = true, rest
	} else {
		s = strings.TrimPrefix(s, "+")
	}
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return d, fmt.Errorf("feed: iCalendar: bad DURATION %q", v)
	}
	inTime, seen := false, false
	for s != "" {
		if s[0] == 'T' {
			if inTime {
				return d, fmt.Errorf("feed: iCalendar: bad DURATION %q", v)
			}
			inTime, s = true, s[1:]
			continue
		}
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 9 {
			return d, fmt.Errorf("feed: iCalendar: bad DURATION %q", v)
		}
		n := atoi(s[:i])
		switch unit := s[i]; {
		case unit == 'W' && !inTime:
			d.days += 7 * n
		case unit == 'D' && !inTime:
			d.days += n
		case unit == 'H' && inTime:
			d.exact += time.Duration(n) * time.Hour
		case unit == 'M' && inTime:
			d.exact += time.Duration(n) * time.Minute
		case unit == 'S' && inTime:
			d.exact += time.Duration(n) * time.Second
		default:
			return d, fmt.Errorf("feed: iCalendar: bad DURATION %q", v)
		}
		seen = true
		s = s[i+1:]
	}
	if !seen {
		return d, fmt.Errorf("feed: iCalendar: bad DURATION %q", v)
	}
	return d, nil
}

// unescapeICalText undoes RFC 5545 TEXT escaping (\\ \; \, \n \N).
func unescapeICalText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n', 'N':
			b.WriteByte('\n')
		case '\\', ';', ',', ':', '"':
			b.WriteByte(s[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// splitICalList splits a TEXT list on unescaped commas and unescapes each.
func splitICalList(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ',':
			out = append(out, unescapeICalText(s[start:i]))
			start = i + 1
		}
	}
	return append(out, unescapeICalText(s[start:]))
}
