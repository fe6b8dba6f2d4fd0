package feed

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestFeedparserDateCases runs feedparser's date parser cases (72 strings
// with the UTC result, or null for unparseable) through ParseDate and
// requires a 95% match.
func TestFeedparserDateCases(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corporaDir(t), "feedparser", "date_parser_cases.json"))
	if err != nil {
		t.Skipf("date cases: %v", err)
	}
	var cases []struct {
		Parser   string `json:"parser"`
		Input    string `json:"input"`
		Expected []int  `json:"expected_utc_struct_time"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	pass := 0
	for _, c := range cases {
		got, ok := ParseDate(c.Input)
		switch {
		case c.Expected == nil && !ok:
			pass++
		case c.Expected == nil:
			t.Logf("MISMATCH %s %q: got %v, want unparseable", c.Parser, c.Input, got)
		case !ok:
			t.Logf("MISMATCH %s %q: unparseable, want %v", c.Parser, c.Input, c.Expected[:6])
		default:
			e := c.Expected
			if got.Year() == e[0] && int(got.Month()) == e[1] && got.Day() == e[2] &&
				got.Hour() == e[3] && got.Minute() == e[4] && got.Second() == e[5] {
				pass++
			} else {
				t.Logf("MISMATCH %s %q: got %v, want %v", c.Parser, c.Input, got, e[:6])
			}
		}
	}
	rate := float64(pass) / float64(len(cases))
	t.Logf("feedparser date cases: %d/%d %.1f%%", pass, len(cases), 100*rate)
	if len(cases) < 50 || rate < 0.95 {
		t.Errorf("date cases: %d/%d (%.1f%%), want at least 95%%", pass, len(cases), 100*rate)
	}
}
