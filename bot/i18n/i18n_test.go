package i18n

import (
	"encoding/json"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Every language must carry every message id of the fallback language.
func TestCatalogsComplete(t *testing.T) {
	files, err := fs.Glob(locales, "locales/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalogs: %v", err)
	}
	ids := map[string][]string{}
	for _, name := range files {
		parts := strings.Split(path.Base(name), ".")
		if len(parts) != 3 || !slices.Contains(Languages(), parts[1]) {
			t.Errorf("%s: want locales/<topic>.<language>.json with a language of %v", name, Languages())
			continue
		}
		raw, err := locales.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for id := range m {
			ids[parts[1]] = append(ids[parts[1]], parts[0]+":"+id)
		}
	}
	for _, lang := range Languages() {
		sort.Strings(ids[lang])
	}
	want := strings.Join(ids["en"], ",")
	for _, lang := range Languages() {
		if got := strings.Join(ids[lang], ","); got != want {
			t.Errorf("%s ids differ from en:\n got %s\nwant %s", lang, got, want)
		}
	}
}

func TestLocalize(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, id string
		count    int
		want     string
	}{
		{"en", "rss_header", 1, "1 subscription:"},
		{"en", "rss_header", 3, "3 subscriptions:"},
		{"de", "rss_header", 2, "2 Abos:"},
		{"fr", "rss_header", 2, "2 subscriptions:"}, // unknown language falls back to English
	}
	for _, tt := range tests {
		if got := c.For(tt.lang).N(tt.id, tt.count, nil); got != tt.want {
			t.Errorf("%s %s %d: %q, want %q", tt.lang, tt.id, tt.count, got, tt.want)
		}
	}
	if got := c.For("en").T("sub_failed", map[string]any{"URL": "u", "Error": "e"}); got != "❌ Could not subscribe to u: e" {
		t.Errorf("sub_failed = %q", got)
	}
	if got := c.For("en").T("no_such_id", nil); got != "no_such_id" {
		t.Errorf("missing id = %q", got)
	}
}
