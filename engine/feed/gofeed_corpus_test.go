package feed

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gofeedUniversal is the part of gofeed's universal Feed JSON that the
// translator fixtures pin down and our model keeps.
type gofeedUniversal struct {
	Title string `json:"title"`
	Link  string `json:"link"`
	Items []struct {
		Title           string     `json:"title"`
		Link            string     `json:"link"`
		PublishedParsed *time.Time `json:"publishedParsed"`
		UpdatedParsed   *time.Time `json:"updatedParsed"`
		Enclosures      []struct {
			URL    string `json:"url"`
			Length string `json:"length"`
			Type   string `json:"type"`
		} `json:"enclosures"`
	} `json:"items"`
}

// TestGofeedTranslatorFixtures parses every input of gofeed's translator
// fixtures and compares title, link, item count, item titles, links, dates
// and enclosures with gofeed's expected universal feed. Where gofeed
// leaves a field empty and we fill it (a permalink guid as link, updated as
// published), that is our fallback chain, not a mismatch.
func TestGofeedTranslatorFixtures(t *testing.T) {
	root := filepath.Join(corporaDir(t), "gofeed", "testdata", "translator")
	differences := readDifferences(t, "testdata/gofeed_differences.txt")
	var pass, total int
	for _, format := range []string{"rss", "atom", "json"} {
		inputs, _ := filepath.Glob(filepath.Join(root, format, "*"))
		for _, in := range inputs {
			if strings.HasSuffix(in, ".json") && format != "json" || !strings.HasSuffix(in, ".json") && format == "json" {
				continue
			}
			expected := strings.TrimSuffix(in, filepath.Ext(in)) + ".json"
			if format == "json" {
				expected = strings.TrimSuffix(in, ".json") + "_expected.json"
				if strings.HasSuffix(in, "_expected.json") {
					continue
				}
			}
			rel, _ := filepath.Rel(root, in)
			want, ok := readGofeedExpected(t, expected)
			if !ok {
				continue
			}
			body, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			msg := compareGofeed(body, want)
			if reason, listed := differences[rel]; listed {
				if msg == "" {
					t.Errorf("%s is listed as a deliberate difference (%s) but matches; remove it", rel, reason)
				}
				delete(differences, rel)
				continue
			}
			total++
			if msg == "" {
				pass++
			} else {
				t.Errorf("%s: %s", rel, msg)
			}
		}
	}
	for file := range differences {
		t.Errorf("difference listed for %s, which is not a fixture", file)
	}
	t.Logf("gofeed translator fixtures: %d/%d match", pass, total)
	if total < 90 {
		t.Errorf("only %d fixtures compared; the corpus layout changed", total)
	}
}

func readGofeedExpected(t *testing.T, path string) (gofeedUniversal, bool) {
	var want gofeedUniversal
	b, err := os.ReadFile(path)
	if err != nil {
		return want, false
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Errorf("%s: %v", path, err)
		return want, false
	}
	return want, true
}

func compareGofeed(body []byte, want gofeedUniversal) string {
	f, err := Parse(body, "", "")
	if err != nil {
		return err.Error()
	}
	if f.Title != cleanText(want.Title) {
		return fmt.Sprintf("title %q, want %q", f.Title, want.Title)
	}
	if f.SiteURL != strings.TrimSpace(want.Link) {
		return fmt.Sprintf("link %q, want %q", f.SiteURL, want.Link)
	}
	if len(f.Entries) != len(want.Items) {
		return fmt.Sprintf("%d entries, want %d", len(f.Entries), len(want.Items))
	}
	for i, w := range want.Items {
		e := f.Entries[i]
		if e.Title != cleanText(w.Title) {
			return fmt.Sprintf("item %d title %q, want %q", i, e.Title, w.Title)
		}
		if w.Link != "" && e.Link != strings.TrimSpace(w.Link) {
			return fmt.Sprintf("item %d link %q, want %q", i, e.Link, w.Link)
		}
		if w.PublishedParsed != nil && !e.Published.Equal(*w.PublishedParsed) {
			return fmt.Sprintf("item %d published %v, want %v", i, e.Published, *w.PublishedParsed)
		}
		if w.UpdatedParsed != nil && !e.Updated.Equal(*w.UpdatedParsed) {
			return fmt.Sprintf("item %d updated %v, want %v", i, e.Updated, *w.UpdatedParsed)
		}
		if len(e.Enclosures) != len(w.Enclosures) {
			return fmt.Sprintf("item %d has %d enclosures, want %d", i, len(e.Enclosures), len(w.Enclosures))
		}
		for j, we := range w.Enclosures {
			ge := e.Enclosures[j]
			n, _ := strconv.ParseInt(strings.TrimSpace(we.Length), 10, 64)
			if ge.URL != strings.TrimSpace(we.URL) || ge.Type != strings.TrimSpace(we.Type) || ge.Length != max(n, 0) {
				return fmt.Sprintf("item %d enclosure %d = %+v, want %+v", i, j, ge, we)
			}
		}
	}
	return ""
}
