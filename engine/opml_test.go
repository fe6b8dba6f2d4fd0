package engine

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestParseOPML(t *testing.T) {
	in, err := os.ReadFile("testdata/nested.opml")
	if err != nil {
		t.Fatal(err)
	}
	feeds, err := ParseOPML(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []OPMLFeed{
		{URL: "https://example.org/feed.xml", Title: "Example News", SiteURL: "https://example.org/"},
		{URL: "http://CAFE.example/rss#top", Title: "Café Blog"},
		{URL: "https://example.org/feed.xml", Title: "Again"},
		{URL: "ftp://files.example/feed", Title: "FTP"},
		{URL: "/feed.xml", Title: "Relative"},
		{URL: "https://pod.example/episodes?format=rss&x=1", Title: "Podcast"},
	}
	if len(feeds) != len(want) {
		t.Fatalf("ParseOPML = %+v; want %d feeds", feeds, len(want))
	}
	for i := range want {
		if feeds[i] != want[i] {
			t.Errorf("feed %d = %+v, want %+v", i, feeds[i], want[i])
		}
	}
	for _, bad := range []string{"", "<rss><channel/></rss>", "not xml at all"} {
		if _, err := ParseOPML(strings.NewReader(bad)); !errors.Is(err, ErrNotOPML) {
			t.Errorf("ParseOPML(%q) = %v, want ErrNotOPML", bad, err)
		}
	}
}

func TestImportExportOPML(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	e := newTestEngine(t, st, newClock(), nil)
	in, err := os.Open("testdata/nested.opml")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	res, err := e.ImportOPML(ctxT(t), in, 77, 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Added, " ") != "https://example.org/feed.xml http://cafe.example/rss https://pod.example/episodes?format=rss&x=1" ||
		res.NewFeeds != 3 || len(res.Existing) != 0 {
		t.Errorf("added %v (%d new feeds), existing %v", res.Added, res.NewFeeds, res.Existing)
	}
	if len(res.Duplicates) != 1 || res.Duplicates[0] != "https://example.org/feed.xml" {
		t.Errorf("duplicates = %v", res.Duplicates)
	}
	if len(res.Invalid) != 2 || res.Invalid[0].URL != "ftp://files.example/feed" || res.Invalid[1].URL != "/feed.xml" {
		t.Errorf("invalid = %+v", res.Invalid)
	}
	// Nothing was fetched: every new feed is due now, never polled.
	if n, err := st.CountDueFeeds(ctxT(t), e.opts.Now()); err != nil || n != 3 {
		t.Errorf("due feeds = %d, %v; want 3", n, err)
	}
	// Importing again adds nothing; another chat gets its own subscriptions.
	again, err := e.ImportOPML(ctxT(t), strings.NewReader(`<opml><body><outline xmlUrl="https://example.org/feed.xml"/></body></opml>`), 77, 0)
	if err != nil || len(again.Added) != 0 || len(again.Existing) != 1 {
		t.Errorf("second import = %+v, %v", again, err)
	}
	if _, err := e.ImportOPML(ctxT(t), strings.NewReader(`<opml><body><outline xmlUrl="https://example.org/feed.xml"/></body></opml>`), 88, 5); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if err := e.ExportOPML(ctxT(t), &out, 0); err != nil {
		t.Fatal(err)
	}
	exported := out.String()
	back, err := ParseOPML(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 4 || back[0].URL != "https://example.org/feed.xml" || back[3].URL != "https://example.org/feed.xml" {
		t.Errorf("export of all chats = %+v; want 3 feeds of chat 77 and 1 of 88/5", back)
	}
	for _, group := range []string{`text="77"`, `text="88/5"`} {
		if !strings.Contains(exported, group) {
			t.Errorf("export does not group by chat: %s missing", group)
		}
	}
	out.Reset()
	if err := e.ExportOPML(ctxT(t), &out, 88); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `text="88/5"`) || !strings.Contains(out.String(), `xmlUrl="https://example.org/feed.xml"`) {
		t.Errorf("export of one chat and topic should be flat:\n%s", out.String())
	}
}

func FuzzParseOPML(f *testing.F) {
	seed, err := os.ReadFile("testdata/nested.opml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`<opml><body><outline xmlUrl="x"><outline xmlUrl="y"/></outline></body></opml>`))
	f.Add([]byte(`<opml><body><outline xmlUrl="&bogus;"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		feeds, err := ParseOPML(bytes.NewReader(data))
		if err != nil {
			return
		}
		// Whatever parsed can be written and read back unchanged.
		var out bytes.Buffer
		if err := WriteOPML(&out, "t", []OPMLGroup{{Feeds: feeds}}); err != nil {
			t.Fatal(err)
		}
		back, err := ParseOPML(&out)
		if err != nil {
			t.Fatalf("round trip: %v\n%s", err, out.String())
		}
		if len(back) != len(feeds) {
			t.Fatalf("round trip: %d feeds, want %d", len(back), len(feeds))
		}
	})
}
