package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// TestOPMLImportPollExport drives `rssbot opml import`, `rssbot poll` and
// `rssbot opml export` the way an operator would.
func TestOPMLImportPollExport(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			fmt.Fprintf(w, `<rss version="2.0"><channel><title>Feed %s</title><item><guid>%s#1</guid><title>One</title></item></channel></rss>`, r.URL.Path, r.URL.Path)
		}))
		defer srv.Close()
		dir := t.TempDir()
		file := filepath.Join(dir, "subs.opml")
		opml := fmt.Sprintf(`<?xml version="1.0"?><opml version="2.0"><body><outline text="group">
			<outline xmlUrl="%[1]s/a.xml"/><outline xmlUrl="%[1]s/b.xml"/><outline xmlUrl="%[1]s/a.xml"/>
			</outline><outline xmlUrl="%[1]s/c.xml"/><outline xmlUrl="gopher://nope/"/></body></opml>`, srv.URL)
		if err := os.WriteFile(file, []byte(opml), 0o600); err != nil {
			t.Fatal(err)
		}
		settings := map[string]string{"DATABASE_URL": databaseURL, "ADMIN_ID": "5151", "ALLOW_PRIVATE_NETWORKS": "true", "LOG_LEVEL": "error"}

		code, stdout, stderr := runWith(t, settings, "opml", "import", file)
		if code != 0 || !strings.Contains(stdout, "subscribed chat 5151 to 3 feeds (3 new to the bot), 0 already subscribed, 1 duplicates, 1 invalid") ||
			!strings.Contains(stdout, "duplicate: "+srv.URL+"/a.xml") || !strings.Contains(stdout, `invalid: "gopher://nope/"`) {
			t.Fatalf("opml import: exit %d\n%s%s", code, stdout, stderr)
		}
		code, stdout, stderr = runWith(t, settings, "opml", "import", "--chat", "-1007/3", file)
		if code != 0 || !strings.Contains(stdout, "subscribed chat -1007/3 to 3 feeds (0 new to the bot)") {
			t.Fatalf("opml import --chat: exit %d\n%s%s", code, stdout, stderr)
		}

		steps := []struct {
			args []string
			want []string
		}{
			{[]string{"poll"}, []string{"polled 3 feeds on 1 hosts", "  ok             3", "imported 3 entries, queued 0 posts"}},
			{[]string{"poll"}, []string{"polled 0 feeds on 0 hosts"}},
			{[]string{"poll", "--all"}, []string{"polled 3 feeds on 1 hosts", "  not_modified   3", "imported 0 entries"}},
		}
		for _, s := range steps {
			code, stdout, stderr = runWith(t, settings, s.args...)
			for _, w := range s.want {
				if code != 0 || !strings.Contains(stdout, w) {
					t.Fatalf("%v: exit %d, want %q in\n%s%s", s.args, code, w, stdout, stderr)
				}
			}
		}
		code, stdout, stderr = runWith(t, settings, "opml", "export")
		if code != 0 || strings.Count(stdout, `xmlUrl="`+srv.URL) != 6 || !strings.Contains(stdout, `text="-1007/3"`) || !strings.Contains(stdout, `title="Feed /b.xml"`) {
			t.Fatalf("opml export: exit %d\n%s%s", code, stdout, stderr)
		}
	})
}

func TestPollAndOPMLUsage(t *testing.T) {
	db := storagetest.SQLiteURL(t)
	tests := []struct {
		settings map[string]string
		args     []string
		code     int
		stderr   string
	}{
		{nil, []string{"poll", "extra"}, 2, "usage: rssbot poll [--all]"},
		{nil, []string{"poll", "--every"}, 2, "usage: rssbot poll [--all]"},
		{nil, []string{"opml"}, 2, "usage: rssbot opml import FILE"},
		{nil, []string{"opml", "import"}, 2, "usage: rssbot opml import FILE"},
		{nil, []string{"opml", "export", "x"}, 2, "usage: rssbot opml import FILE"},
		{map[string]string{"DATABASE_URL": db}, []string{"opml", "import", "x.opml"}, 2, "pass --chat ID or set ADMIN_ID"},
		{map[string]string{"DATABASE_URL": db}, []string{"opml", "import", "x.opml", "--chat", "@name"}, 2, "want a numeric chat id"},
		{map[string]string{"DATABASE_URL": db, "ADMIN_ID": "1"}, []string{"opml", "import", "/nonexistent.opml"}, 1, "no such file"},
	}
	for _, tt := range tests {
		code, _, stderr := runWith(t, tt.settings, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}
