package feed

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestICalCorpusCounts pins how many events each calendar keeps and skips
// (no UID, no UTC DTSTAMP, no valid DTSTART or an unknown TZID), and which
// calendars are rejected as malformed.
func TestICalCorpusCounts(t *testing.T) {
	tests := []struct {
		file             string
		entries, skipped int
		errContains      string
	}{
		// 1,458 VEVENTs: 678 skipped (no DTSTART, no UID, DTSTAMPs without
		// seconds, the TZIDs US-Eastern, America-Chicago and America-SanJose
		// that only VTIMEZONE rules define); the 780 valid ones are the same
		// 25 distinct events repeated; the repeats merge.
		{file: "libical/test-data/large.ics", entries: 25, skipped: 678},
		{file: "libical/test-data/2445.ics", entries: 4, skipped: 2},
		{file: "libical/test-data/2446.ics", entries: 25, skipped: 16},
		{file: "libical/test-data/incoming.ics", entries: 8, skipped: 6},
		{file: "libical/test-data/malloc.ics", errContains: "malformed"},
		{file: "libical/test-data/zday.ics", errContains: "malformed"},
		{file: "icalendar-python/src/icalendar/tests/calendars/big_bad_calendar.ics", errContains: "cut short"},
		{file: "icalendar-python/src/icalendar/tests/calendars/issue_104_broken_calendar.ics", errContains: "malformed"},
		{file: "icalendar-python/src/icalendar/tests/calendars/issue_348_exception_parsing_value.ics", errContains: "malformed"},
		{file: "icalendar-python/src/icalendar/tests/calendars/america_new_york.ics", entries: 0, skipped: 1},
		{file: "icalendar-python/src/icalendar/tests/calendars/timezone_same_start.ics", entries: 1, skipped: 0},
		{file: "icalendar-python/src/icalendar/tests/calendars/issue_350.ics", entries: 1, skipped: 0},
		{file: "icalendar-python/src/icalendar/tests/calendars/issue_722_missing_timezones.ics", entries: 0, skipped: 3},
		{file: "icalendar-python/src/icalendar/tests/events/event_with_recurrence.ics", errContains: "not a feed"},
		{file: "icaljs/samples/google_birthday.ics", entries: 4, skipped: 0},
		{file: "icaljs/samples/recur_instances.ics", entries: 3, skipped: 0},
		{file: "icaljs/samples/timezone_from_file.ics", entries: 0, skipped: 1},
		{file: "icaljs/test/parser/component.ics", entries: 0, skipped: 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Parse(corpusFile(t, tt.file), "text/calendar", "")
			if tt.errContains != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errContains) {
					t.Fatalf("error %v, want one containing %q", err, tt.errContains)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d kept, %d skipped", len(f.Entries), f.Skipped)
			if len(f.Entries) != tt.entries || f.Skipped != tt.skipped {
				t.Errorf("%d kept, %d skipped; want %d and %d", len(f.Entries), f.Skipped, tt.entries, tt.skipped)
			}
		})
	}
}

// TestICalCorpusHandPicked asserts all-day, TZID (IANA and Windows),
// DURATION and RECURRENCE-ID on corpus files chosen for them; CANCELLED is
// in TestICalCancelledOccurrence.
func TestICalCorpusHandPicked(t *testing.T) {
	la := mustLoad(t, "America/Los_Angeles")
	one := func(t *testing.T, file string) Entry {
		t.Helper()
		f, err := Parse(corpusFile(t, file), "text/calendar", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Entries) != 1 {
			t.Fatalf("%d entries", len(f.Entries))
		}
		return f.Entries[0]
	}
	t.Run("all-day", func(t *testing.T) {
		ev := one(t, "icaljs/samples/only_dtstart_date.ics").Event
		if !ev.AllDay || !ev.Start.Equal(time.Date(2012, 6, 30, 0, 0, 0, 0, time.UTC)) || !ev.End.Equal(time.Date(2012, 7, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("event %+v", ev)
		}
	})
	t.Run("DURATION", func(t *testing.T) {
		ev := one(t, "icaljs/samples/duration_instead_of_dtend.ics").Event
		if ev.TimeZone != "America/Los_Angeles" || !ev.Start.Equal(time.Date(2012, 6, 30, 6, 0, 0, 0, la)) || !ev.End.Equal(time.Date(2012, 7, 1, 6, 0, 0, 0, la)) || ev.AllDay {
			t.Errorf("event %+v", ev)
		}
	})
	t.Run("Windows TZID", func(t *testing.T) {
		ev := one(t, "icalendar-python/src/icalendar/tests/calendars/timezone_same_start.ics").Event
		if ev.TimeZone != "America/Los_Angeles" || !ev.Start.Equal(time.Date(2017, 2, 24, 20, 0, 0, 0, time.UTC)) || !ev.End.Equal(time.Date(2017, 2, 24, 20, 30, 0, 0, time.UTC)) {
			t.Errorf("event %+v", ev)
		}
	})
	t.Run("RECURRENCE-ID", func(t *testing.T) {
		f, err := Parse(corpusFile(t, "icaljs/samples/recur_instances.ics"), "text/calendar", "")
		if err != nil {
			t.Fatal(err)
		}
		uid := "623c13c0-6c2b-45d6-a12b-c33ad61c4868"
		want := []string{uid, uid + " 20121002T170000Z", uid + " 20121105T180000Z"}
		for i, e := range f.Entries {
			if e.Identity != want[i] {
				t.Errorf("entry %d identity %q, want %q", i, e.Identity, want[i])
			}
		}
		if f.Entries[0].Event.RRule != "FREQ=MONTHLY;INTERVAL=1;BYDAY=1TU" || f.Entries[1].Event.RecurrenceID != "20121002T170000Z" {
			t.Errorf("rrule %q recurrence-id %q", f.Entries[0].Event.RRule, f.Entries[1].Event.RecurrenceID)
		}
		if f.Entries[1].Summary != "I HAZ CHANGED!" {
			t.Errorf("exception summary %q", f.Entries[1].Summary)
		}
	})
}

// TestICalCancelledOccurrence keeps a cancelled exception of a series.
func TestICalCancelledOccurrence(t *testing.T) {
	// The corpora's cancelled events are iTIP CANCEL messages without
	// DTSTART, which the rules skip; this file is ours.
	b, err := os.ReadFile("testdata/cancelled.ics")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(b, "text/calendar", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 2 || f.Title != "Reading group" {
		t.Fatalf("%q with %d entries", f.Title, len(f.Entries))
	}
	series, cancelled := f.Entries[0], f.Entries[1]
	if series.Event.Status != "CONFIRMED" || series.Event.RRule != "FREQ=WEEKLY;BYDAY=TH" || series.Event.Location != "Library, room 2" {
		t.Errorf("series %+v", series.Event)
	}
	if cancelled.Event.Status != "CANCELLED" || cancelled.Identity != "reading-group@example.org 20240314T180000Z" {
		t.Errorf("cancelled occurrence %q %+v", cancelled.Identity, cancelled.Event)
	}
}
