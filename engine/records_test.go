package engine

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

func TestRecordsOldestFirst(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name    string
		entries []feed.Entry
		want    []string
	}{
		{"dated, any order → by date", []feed.Entry{
			{Identity: "b", Published: day(2)}, {Identity: "c", Published: day(3)}, {Identity: "a", Published: day(1)},
		}, []string{"a", "b", "c"}},
		{"undated → reverse document order", []feed.Entry{
			{Identity: "new"}, {Identity: "mid"}, {Identity: "old"},
		}, []string{"old", "mid", "new"}},
		{"mixed → reverse document order", []feed.Entry{
			{Identity: "new", Published: day(1)}, {Identity: "old"},
		}, []string{"old", "new"}},
		{"duplicates and empty identities dropped", []feed.Entry{
			{Identity: "x"}, {Identity: ""}, {Identity: "x"},
		}, []string{"x"}},
	}
	for _, tt := range tests {
		recs, err := records(tt.entries)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, r.Identity)
			if r.IdentityHash != IdentityHash(r.Identity) || len(r.Payload) == 0 {
				t.Errorf("%s: record %q incomplete", tt.name, r.Identity)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{" https://Example.ORG/feed ", "https://example.org/feed", false},
		{"HTTP://example.org", "http://example.org/", false},
		{"https://example.org/a#frag", "https://example.org/a", false},
		{"ftp://example.org/feed", "", true},
		{"example.org/feed", "", true},
		{"javascript:alert(1)", "", true},
	}
	for _, tt := range tests {
		got, err := NormalizeURL(tt.in)
		if tt.err {
			if !errors.Is(err, ErrBadURL) {
				t.Errorf("NormalizeURL(%q) error = %v, want ErrBadURL", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSkipRoundTrip(t *testing.T) {
	hours := []int{0, 5, 23}
	if got := splitInts(joinInts(hours)); !reflect.DeepEqual(got, hours) {
		t.Errorf("hours round trip: %v", got)
	}
	days := []time.Weekday{time.Sunday, time.Saturday}
	if got := splitDays(joinDays(days)); !reflect.DeepEqual(got, days) {
		t.Errorf("days round trip: %v", got)
	}
	if got := splitInts(""); got != nil {
		t.Errorf("empty hours = %v", got)
	}
}
