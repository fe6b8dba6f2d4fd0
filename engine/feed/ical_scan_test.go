package feed

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestScanICalStructure(t *testing.T) {
	longParam := "X-A;P=" + strings.Repeat("p", maxICalParamBytes) + ":v\r\n"
	foldedParam := "X-A;P=" + strings.Repeat("p\r\n ", maxICalParamBytes/3) + "\r\n"
	tests := []struct {
		name       string
		body       string
		calendars  []bool // kind of each top-level component: true for VCALENDAR
		errContain string
	}{
		{name: "one calendar", body: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
			calendars: []bool{true}},
		// Names compare without regard to case, as go-ical compares them.
		{name: "lower case", body: "begin:vcalendar\nBegin:VEvent\nend:vevent\nEND:VCALENDAR\n",
			calendars: []bool{true}},
		// A BEGIN or END line may carry parameters, even a quoted colon.
		{name: "parameters on BEGIN", body: "BEGIN;X=\"a:b\":VCALENDAR\r\nEND;Y=1:VCALENDAR\r\n", calendars: []bool{true}},
		// libical's data appends bare components after a calendar; lines
		// between top-level components are ignored.
		{name: "bare components and stray lines", body: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n\r\nX-CACHE:1\r\n \t\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nEND:VTODO",
			calendars: []bool{true, false, false}},
		// Continuation lines belong to the line before, so a folded
		// "BEGIN" is not read as one.
		{name: "continuation is not a BEGIN", body: "BEGIN:VCALENDAR\r\nX-A:x\r\n BEGIN:VEVENT\r\nEND:VCALENDAR\r\n", calendars: []bool{true}},
		// A long value is fine; only the parameters are limited.
		{name: "long value", body: "BEGIN:VCALENDAR\r\nX-A:" + strings.Repeat("v", 2*maxICalParamBytes) + "\r\nEND:VCALENDAR\r\n", calendars: []bool{true}},
		{name: "mismatched END", body: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", errContain: "unexpected END"},
		{name: "END first", body: "END:VCALENDAR\r\n", errContain: "unexpected END"},
		{name: "BEGIN without a name", body: "BEGIN:VCALENDAR\r\nBEGIN: \r\n", errContain: "BEGIN without a component name"},
		{name: "content before the calendar", body: "X-A:1\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", errContain: "content before BEGIN:VCALENDAR"},
		{name: "no calendar first", body: "BEGIN:VEVENT\r\nEND:VEVENT\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", errContain: "no VCALENDAR"},
		{name: "empty", body: "\r\n  \r\n", errContain: "no VCALENDAR"},
		{name: "cut short", body: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n", errContain: "cut short"},
		// Rule: go-ical recurses per BEGIN and copies parameter values a
		// byte at a time, so nesting and parameter length are bounded.
		{name: "too deep", body: "BEGIN:VCALENDAR\r\n" + strings.Repeat("BEGIN:X\r\n", maxICalDepth), errContain: "nested deeper"},
		{name: "long parameters", body: "BEGIN:VCALENDAR\r\n" + longParam + "END:VCALENDAR\r\n", errContain: "parameters longer"},
		{name: "long folded parameters", body: "BEGIN:VCALENDAR\r\n" + foldedParam + "END:VCALENDAR\r\n", errContain: "parameters longer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks, err := scanICal([]byte(tt.body))
			if tt.errContain != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errContain) {
					t.Fatalf("error %v, want one containing %q", err, tt.errContain)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var kinds []bool
			for _, ch := range chunks {
				kinds = append(kinds, ch.calendar)
				if chunk := tt.body[ch.start:ch.end]; !strings.HasPrefix(strings.ToUpper(chunk), "BEGIN") {
					t.Errorf("chunk %q does not start with its BEGIN", chunk)
				}
			}
			if len(kinds) != len(tt.calendars) {
				t.Fatalf("chunks %v, want %v", kinds, tt.calendars)
			}
			for i := range kinds {
				if kinds[i] != tt.calendars[i] {
					t.Fatalf("chunks %v, want %v", kinds, tt.calendars)
				}
			}
		})
	}
}

// TestSameComponent pins go-ical's END rule: the BEGIN name is upper-cased
// and the END name compared with it without regard to case.
func TestSameComponent(t *testing.T) {
	tests := []struct {
		end, begin string
		want       bool
	}{
		{"VEVENT", "VEVENT", true},
		{"vevent", "VEvent", true},
		{"VEVENT", "VTODO", false},
		{"VEVENTS", "VEVENT", false},
		{"X-A@", "X-A`", false},   // @ and ` differ only in bit 0x20 but are not letters
		{"X-\u212A", "X-k", true}, // the Kelvin sign folds to k
		// go-ical upper-cases the dotless ı to I, which does not fold back.
		{"VI", "Vı", true},
		{"Vı", "Vı", false},
	}
	for _, tt := range tests {
		if got := sameComponent([]byte(tt.end), []byte(tt.begin)); got != tt.want {
			t.Errorf("sameComponent(%q, %q) = %v, want %v", tt.end, tt.begin, got, tt.want)
		}
	}
}

// TestICalStream checks that go-ical is fed exactly the top-level
// components, bare ones wrapped in a VCALENDAR, whatever the read size.
func TestICalStream(t *testing.T) {
	body := "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nX-GAP:1\r\nBEGIN:VTODO\r\nEND:VTODO\r\n\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT"
	chunks, err := scanICal([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" +
		icalWrapOpen + "BEGIN:VTODO\r\nEND:VTODO\r\n" + "END:VCALENDAR\r\n" +
		icalWrapOpen + "BEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT" + icalWrapClose
	for _, size := range []int{1, 7, 4096} {
		r := newICalStream([]byte(body), chunks)
		buf := make([]byte, size)
		var got strings.Builder
		for {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if got.String() != want {
			t.Errorf("read size %d: got %q, want %q", size, got.String(), want)
		}
	}
	if err := iotest.TestReader(newICalStream([]byte(body), chunks), []byte(want)); err != nil {
		t.Error(err)
	}
}
