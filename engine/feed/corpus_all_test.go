package feed

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryCorpusFileParsesOrFails feeds every file of every corpus folder
// to Parse: none may panic, and each yields either a feed or an error that
// names the operation. It logs how many files of each corpus parsed.
func TestEveryCorpusFileParsesOrFails(t *testing.T) {
	root := corporaDir(t)
	type tally struct{ files, feeds, entries, skipped int }
	corpora := map[string]*tally{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		if corpora[name] == nil {
			corpora[name] = &tally{}
		}
		tl := corpora[name]
		tl.files++
		f, perr := parseNoPanic(t, rel, body)
		switch {
		case f != nil && perr != nil:
			t.Errorf("%s: both a feed and an error (%v)", rel, perr)
		case f == nil && perr == nil:
			t.Errorf("%s: neither a feed nor an error", rel)
		case perr != nil && !strings.HasPrefix(perr.Error(), "feed: "):
			t.Errorf("%s: error %q does not name its operation", rel, perr)
		case f != nil:
			tl.feeds++
			tl.entries += len(f.Entries)
			tl.skipped += f.Skipped
			for i := range f.Entries {
				if f.Entries[i].Identity == "" || f.Entries[i].Checksum == "" {
					t.Errorf("%s: entry %d without identity or checksum", rel, i)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, tl := range corpora {
		t.Logf("%-18s %5d files, %5d parsed as feeds, %6d entries, %4d skipped", name, tl.files, tl.feeds, tl.entries, tl.skipped)
	}
}

// parseNoPanic reports a panic as a test error naming the file.
func parseNoPanic(t *testing.T, name string, body []byte) (f *Feed, err error) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", name, r)
			f, err = nil, nil
		}
	}()
	return Parse(body, "", "https://example.com/feed")
}
