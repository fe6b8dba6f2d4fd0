package feed

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// calendar wraps VEVENT bodies in a calendar with CRLF line endings.
func calendar(events ...string) []byte {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:Club\r\n")
	for _, ev := range events {
		b.WriteString("BEGIN:VEVENT\r\n")
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(ev), "\n", "\r\n"))
		b.WriteString("\r\nEND:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	return []byte(b.String())
}

func parseCalendar(t *testing.T, body []byte) *Feed {
	t.Helper()
	f, err := Parse(body, "text/calendar", "https://cal.example/club.ics")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if f.Format != FormatICal {
		t.Fatalf("format %q", f.Format)
	}
	return f
}

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestICalEventRules(t *testing.T) {
	berlin := mustLoad(t, "Europe/Berlin")
	tests := []struct {
		name     string
		event    string
		skip     bool
		start    time.Time
		end      time.Time
		allDay   bool
		zone     string
		identity string
	}{
		{name: "UTC times", event: "UID:a\nDTSTAMP:20240101T000000Z\nDTSTART:20240310T180000Z\nDTEND:20240310T200000Z",
			start: time.Date(2024, 3, 10, 18, 0, 0, 0, time.UTC), end: time.Date(2024, 3, 10, 20, 0, 0, 0, time.UTC), zone: "UTC", identity: "a"},
		// Rule: DATE values are all-day with an exclusive end.
		{name: "all-day with DTEND", event: "UID:b\nDTSTAMP:20240101T000000Z\nDTSTART;VALUE=DATE:20240310\nDTEND;VALUE=DATE:20240312",
			start: time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), end: time.Date(2024, 3, 12, 0, 0, 0, 0, time.UTC), allDay: true, identity: "b"},
		{name: "all-day without end lasts one day", event: "UID:c\nDTSTAMP:20240101T000000Z\nDTSTART;VALUE=DATE:20240310",
			start: time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), end: time.Date(2024, 3, 11, 0, 0, 0, 0, time.UTC), allDay: true, identity: "c"},
		// Rule: P1D is a calendar day across DST (23 hours here).
		{name: "P1D across the spring change", event: "UID:d\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=Europe/Berlin:20240330T120000\nDURATION:P1D",
			start: time.Date(2024, 3, 30, 12, 0, 0, 0, berlin), end: time.Date(2024, 3, 31, 12, 0, 0, 0, berlin), zone: "Europe/Berlin", identity: "d"},
		{name: "PT24H is exact across the spring change", event: "UID:e\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=Europe/Berlin:20240330T120000\nDURATION:PT24H",
			start: time.Date(2024, 3, 30, 12, 0, 0, 0, berlin), end: time.Date(2024, 3, 31, 13, 0, 0, 0, berlin), zone: "Europe/Berlin", identity: "e"},
		// Rule: Windows zone names map to IANA through CLDR.
		{name: "Windows zone name", event: "UID:f\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=\"W. Europe Standard Time\":20240715T090000",
			start: time.Date(2024, 7, 15, 7, 0, 0, 0, time.UTC), zone: "Europe/Berlin", identity: "f"},
		// Rule: floating times are UTC.
		{name: "floating", event: "UID:g\nDTSTAMP:20240101T000000Z\nDTSTART:20240715T090000",
			start: time.Date(2024, 7, 15, 9, 0, 0, 0, time.UTC), identity: "g"},
		{name: "vendor prefix before an IANA name", event: "UID:h\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20240715T090000",
			start: time.Date(2024, 7, 15, 7, 0, 0, 0, time.UTC), zone: "Europe/Berlin", identity: "h"},
		// Rule: an exception's identity is UID + RECURRENCE-ID (as UTC).
		{name: "recurrence exception", event: "UID:i\nDTSTAMP:20240101T000000Z\nRECURRENCE-ID;TZID=Europe/Berlin:20240715T090000\nDTSTART:20240716T070000Z",
			start: time.Date(2024, 7, 16, 7, 0, 0, 0, time.UTC), zone: "UTC", identity: "i 20240715T070000Z"},
		// Rule: an event needs UID, a UTC DTSTAMP and a valid DTSTART.
		{name: "no UID", event: "DTSTAMP:20240101T000000Z\nDTSTART:20240715T090000Z", skip: true},
		{name: "no DTSTAMP", event: "UID:j\nDTSTART:20240715T090000Z", skip: true},
		{name: "local DTSTAMP", event: "UID:k\nDTSTAMP:20240101T000000\nDTSTART:20240715T090000Z", skip: true},
		{name: "no DTSTART", event: "UID:l\nDTSTAMP:20240101T000000Z", skip: true},
		{name: "impossible DTSTART", event: "UID:m\nDTSTAMP:20240101T000000Z\nDTSTART:20240231T090000Z", skip: true},
		// Rule: a TZID still unknown skips the event.
		{name: "unknown TZID", event: "UID:n\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=Mars/Olympus:20240715T090000", skip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseCalendar(t, calendar(tt.event))
			if tt.skip {
				if len(f.Entries) != 0 || f.Skipped != 1 {
					t.Fatalf("got %d entries, %d skipped; want the event skipped and counted", len(f.Entries), f.Skipped)
				}
				return
			}
			if len(f.Entries) != 1 || f.Skipped != 0 {
				t.Fatalf("got %d entries, %d skipped", len(f.Entries), f.Skipped)
			}
			e := f.Entries[0]
			ev := e.Event
			if e.Identity != tt.identity {
				t.Errorf("identity %q, want %q", e.Identity, tt.identity)
			}
			if !ev.Start.Equal(tt.start) || !ev.End.Equal(tt.end) {
				t.Errorf("start %v end %v, want %v and %v", ev.Start, ev.End, tt.start, tt.end)
			}
			if ev.AllDay != tt.allDay || ev.TimeZone != tt.zone {
				t.Errorf("all-day %v zone %q, want %v %q", ev.AllDay, ev.TimeZone, tt.allDay, tt.zone)
			}
		})
	}
}

func TestICalFieldsCancelledAndAlarms(t *testing.T) {
	f := parseCalendar(t, calendar(`UID:x@example
DTSTAMP:20240101T000000Z
DTSTART:20240310T180000Z
SUMMARY:Club night\, with guests
DESCRIPTION:Bring <food>\nand drinks
LOCATION:Hall 1\; upstairs
STATUS:CANCELLED
URL:/events/x
CATEGORIES:music,club\,night
RRULE:FREQ=WEEKLY;BYDAY=SU
ORGANIZER;CN=Ann:mailto:ann@example.com
BEGIN:VALARM
ACTION:DISPLAY
TRIGGER:-PT5M
END:VALARM`))
	if f.Title != "Club" || len(f.Entries) != 1 {
		t.Fatalf("feed %q with %d entries", f.Title, len(f.Entries))
	}
	e := f.Entries[0]
	ev := e.Event
	// Rule: STATUS:CANCELLED is kept, so the bot can say so.
	if ev.Status != "CANCELLED" {
		t.Errorf("status %q", ev.Status)
	}
	if e.Title != "Club night, with guests" || ev.Location != "Hall 1; upstairs" {
		t.Errorf("title %q location %q", e.Title, ev.Location)
	}
	if e.Summary != "Bring &lt;food&gt;<br>and drinks" {
		t.Errorf("summary %q", e.Summary)
	}
	if ev.URL != "https://cal.example/events/x" || e.Link != ev.URL {
		t.Errorf("url %q link %q", ev.URL, e.Link)
	}
	// Rule: RRULE is kept as text, occurrences are not expanded.
	if ev.RRule != "FREQ=WEEKLY;BYDAY=SU" {
		t.Errorf("rrule %q", ev.RRule)
	}
	if strings.Join(e.Categories, "|") != "music|club,night" || strings.Join(e.Authors, "|") != "Ann" {
		t.Errorf("categories %q authors %q", e.Categories, e.Authors)
	}
}

func TestICalRejectsMalformedCalendars(t *testing.T) {
	good := string(calendar("UID:a\nDTSTAMP:20240101T000000Z\nDTSTART:20240310T180000Z"))
	tests := []struct {
		name, body string
		cutShort   bool
	}{
		// Rule: a calendar cut short is malformed (go-ical reports a bare EOF).
		{"no END:VCALENDAR", strings.TrimSuffix(good, "END:VCALENDAR\r\n"), true},
		{"cut inside an event", good[:strings.Index(good, "END:VEVENT")], true},
		{"mismatched END", strings.Replace(good, "END:VEVENT", "END:VTODO", 1), false},
		{"line without colon", strings.Replace(good, "UID:a", "UID a", 1), false},
		{"too deep", "BEGIN:VCALENDAR\r\n" + strings.Repeat("BEGIN:X\r\n", 20) + strings.Repeat("END:X\r\n", 20) + "END:VCALENDAR\r\n", false},
		{"param without colon (go-ical would panic)", strings.Replace(good, "UID:a", "X-A;B=\"c\"d:e\r\nUID:a", 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.body), "text/calendar", "")
			if err == nil {
				t.Fatalf("accepted with %d entries", len(f.Entries))
			}
			if !strings.HasPrefix(err.Error(), "feed: iCalendar: ") {
				t.Errorf("error %q does not name the operation", err)
			}
			if got := errors.Is(err, errICalCutShort); got != tt.cutShort {
				t.Errorf("cut short = %v (%v), want %v", got, err, tt.cutShort)
			}
		})
	}
}

func TestICalRefreshHintAndFixedZone(t *testing.T) {
	body := "BEGIN:VCALENDAR\r\nREFRESH-INTERVAL;VALUE=DURATION:PT4H\r\n" +
		"BEGIN:VTIMEZONE\r\nTZID:Nowhere/Middle\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\nTZOFFSETFROM:-0741\r\nTZOFFSETTO:-0741\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n" +
		"BEGIN:VEVENT\r\nUID:z\r\nDTSTAMP:20230306T080000Z\r\nDTSTART;TZID=Nowhere/Middle:20230306T134200\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	f := parseCalendar(t, []byte(body))
	if f.Hints.TTLMinutes != 240 {
		t.Errorf("ttl %d, want 240", f.Hints.TTLMinutes)
	}
	// A VTIMEZONE with a single fixed offset defines the zone.
	if len(f.Entries) != 1 || !f.Entries[0].Event.Start.Equal(time.Date(2023, 3, 6, 21, 23, 0, 0, time.UTC)) {
		t.Fatalf("entries %+v", f.Entries)
	}
}

func TestParseICalDuration(t *testing.T) {
	tests := []struct {
		in    string
		days  int
		exact time.Duration
		bad   bool
	}{
		{in: "P1D", days: 1},
		{in: "P2W", days: 14},
		{in: "PT1H30M", exact: 90 * time.Minute},
		{in: "P1DT12H", days: 1, exact: 12 * time.Hour},
		{in: "-PT5M", exact: 5 * time.Minute},
		{in: "P", bad: true},
		{in: "PT", bad: true},
		{in: "P1H", bad: true},
		{in: "1D", bad: true},
		{in: "PT1D", bad: true},
	}
	for _, tt := range tests {
		d, err := parseICalDuration(tt.in)
		if tt.bad != (err != nil) || !tt.bad && (d.days != tt.days || d.exact != tt.exact) {
			t.Errorf("parseICalDuration(%q) = %+v, %v", tt.in, d, err)
		}
	}
}

func TestWindowsZonesAllLoad(t *testing.T) {
	if len(windowsZones) < 130 {
		t.Fatalf("only %d Windows zones", len(windowsZones))
	}
	for win, iana := range windowsZones {
		if _, err := time.LoadLocation(iana); err != nil {
			t.Errorf("%s -> %s: %v", win, iana, err)
		}
	}
	for win, want := range map[string]string{"W. Europe Standard Time": "Europe/Berlin", "Pacific Standard Time": "America/Los_Angeles", "Tokyo Standard Time": "Asia/Tokyo"} {
		if windowsZones[win] != want {
			t.Errorf("%s -> %s, want %s", win, windowsZones[win], want)
		}
	}
}
