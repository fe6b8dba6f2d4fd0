package templates

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

// corporaDir returns the shared corpora (RSSBOT_CORPORA, else
// ../shared/corpora from the repository root) or skips the test.
func corporaDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("RSSBOT_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpora")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("corpora not found at %s", dir)
	}
	return dir
}

// TestCorpusRendering renders every entry of every feed in the shared
// corpora with the default template in all four media modes and checks
// each call with the validator bot/telegramtest uses, and the limits. The
// target is zero rejected entries.
func TestCorpusRendering(t *testing.T) {
	root := corporaDir(t)
	r := Default(time.UTC)
	// The four media modes, and preview once more with split on.
	options := []Options{{MediaMode: MediaNone}, {MediaMode: MediaPreview}, {MediaMode: MediaPhoto},
		{MediaMode: MediaAlbum}, {MediaMode: MediaPreview, Split: true}}
	var files, feeds, entries, rejected int
	calls := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".xml", ".rss", ".atom", ".rdf", ".json", ".ics", ".jsonfeed":
		default:
			return nil
		}
		files++
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := feed.Parse(body, "", "https://example.org/feed")
		if err != nil {
			return nil // not a feed: the parser's corpus tests judge that
		}
		feeds++
		for i, e := range f.Entries {
			entries++
			bad := false
			for _, o := range options {
				o.FeedTitle = f.Title
				p, err := r.Render(e, o)
				if err == nil {
					for _, c := range p.Calls {
						calls[c.Method]++
						if err = checkCall(c); err != nil {
							break
						}
					}
				}
				if err != nil {
					bad = true
					if rejected < 20 {
						rel, _ := filepath.Rel(root, path)
						t.Errorf("%s entry %d, %+v: %v", rel, i, o, err)
					}
				}
			}
			if bad {
				rejected++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corpus: %d files, %d feeds, %d entries rendered in 4 media modes and split (calls: %v), %d rejected",
		files, feeds, entries, calls, rejected)
	if entries == 0 {
		t.Error("no entries rendered")
	}
}
