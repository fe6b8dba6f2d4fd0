package feed

import (
	"strings"
	"testing"
	"time"
)

func item(guid, link, title string) string {
	s := "<item>"
	if guid != "" {
		s += "<guid isPermaLink=\"false\">" + guid + "</guid>"
	}
	if link != "" {
		s += "<link>" + link + "</link>"
	}
	return s + "<title>" + title + "</title></item>"
}

func identities(t *testing.T, items ...string) []string {
	t.Helper()
	f, err := Parse([]byte(`<rss version="2.0"><channel>`+strings.Join(items, "")+`</channel></rss>`), "", "https://x.example/")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range f.Entries {
		out = append(out, e.Identity)
	}
	return out
}

func TestDuplicateGUIDs(t *testing.T) {
	// Rule: a repeated guid is told apart by guid + link…
	got := identities(t, item("g", "https://x.example/1", "One"), item("g", "https://x.example/2", "Two"))
	if len(got) != 2 || got[0] != "g https://x.example/1" || got[1] != "g https://x.example/2" {
		t.Errorf("by link: %q", got)
	}
	// …then by guid + content hash…
	got = identities(t, item("g", "https://x.example/1", "One"), item("g", "https://x.example/1", "Two"))
	if len(got) != 2 || got[0] == got[1] || !strings.HasPrefix(got[0], "g https://x.example/1 sha256:") {
		t.Errorf("by content: %q", got)
	}
	// …never by position: adding an entry in front changes nobody's identity.
	before := identities(t, item("g", "", "One"), item("g", "", "Two"))
	after := identities(t, item("g", "", "Zero"), item("g", "", "One"), item("g", "", "Two"))
	if before[0] != after[1] || before[1] != after[2] {
		t.Errorf("identities shifted: %q then %q", before, after)
	}
	// The same entry listed twice is one entry.
	got = identities(t, item("g", "", "Same"), item("g", "", "Same"))
	if len(got) != 1 || got[0] != "g" {
		t.Errorf("exact duplicate: %q", got)
	}
	// Unique guids stay exactly as written.
	got = identities(t, item("a", "https://x.example/1", "One"), item("b", "https://x.example/1", "Two"))
	if got[0] != "a" || got[1] != "b" {
		t.Errorf("unique: %q", got)
	}
}

func TestContentIdentityIsStable(t *testing.T) {
	a := identities(t, item("", "", "Only a title"))
	b := identities(t, item("", "", "Only a title"))
	c := identities(t, item("", "", "Another title"))
	if a[0] != b[0] || a[0] == c[0] || !strings.HasPrefix(a[0], contentHashPrefix) {
		t.Errorf("content identities %q %q %q", a, b, c)
	}
}

func TestFeedHintsAndLinks(t *testing.T) {
	body := `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:syn="http://purl.org/rss/1.0/modules/syndication/">
<channel><title>Hints</title><link>https://h.example/</link>
<atom:link rel="self" href="https://h.example/feed"/>
<atom:link rel="hub" href="https://hub.example/"/>
<atom:link rel="next" href="/feed?page=2"/>
<ttl>90</ttl>
<syn:updatePeriod>Daily</syn:updatePeriod><syn:updateFrequency>2</syn:updateFrequency>
<skipHours><hour>0</hour><hour>24</hour><hour>7</hour><hour>x</hour></skipHours>
<skipDays><day>Saturday</day><day>sunday</day><day>Funday</day></skipDays>
</channel></rss>`
	f, err := Parse([]byte(body), "", "https://h.example/feed")
	if err != nil {
		t.Fatal(err)
	}
	h := f.Hints
	// The sy: namespace is bound to the prefix "syn" here: hints are read
	// by namespace, not by prefix.
	if h.TTLMinutes != 90 || h.UpdatePeriod != "daily" || h.UpdateFrequency != 2 {
		t.Errorf("hints %+v", h)
	}
	if len(h.SkipHours) != 2 || h.SkipHours[0] != 0 || h.SkipHours[1] != 7 {
		t.Errorf("skip hours %v", h.SkipHours)
	}
	if len(h.SkipDays) != 2 || h.SkipDays[0] != time.Saturday || h.SkipDays[1] != time.Sunday {
		t.Errorf("skip days %v", h.SkipDays)
	}
	if f.SelfURL != "https://h.example/feed" || f.HubURL != "https://hub.example/" || f.NextURL != "https://h.example/feed?page=2" {
		t.Errorf("links self %q hub %q next %q", f.SelfURL, f.HubURL, f.NextURL)
	}
}

func TestRelativeURLsInContent(t *testing.T) {
	body := `<rss version="2.0" xml:base="https://base.example/blog/"><channel><item><guid>1</guid>
<link>post.html</link>
<description>&lt;a href="/about"&gt;a&lt;/a&gt; &lt;img src="i.png" srcset="i2.png 2x"&gt; &lt;a href="#top"&gt;t&lt;/a&gt; &lt;a href="mailto:x@y"&gt;m&lt;/a&gt;</description>
</item></channel></rss>`
	f, err := Parse([]byte(body), "", "https://other.example/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	e := f.Entries[0]
	if e.Link != "https://base.example/blog/post.html" {
		t.Errorf("link %q", e.Link)
	}
	want := `<a href="https://base.example/about">a</a> <img src="https://base.example/blog/i.png" srcset="https://base.example/blog/i2.png 2x"> <a href="#top">t</a> <a href="mailto:x@y">m</a>`
	if e.Summary != want {
		t.Errorf("summary\n got %s\nwant %s", e.Summary, want)
	}
	// Absolute-only HTML is returned as it was, byte for byte.
	r := newResolver("https://x.example/")
	doc := `<P CLASS=x><a href='https://a.example/'>x</a>`
	if got := r.resolveHTMLURLs(doc); got != doc {
		t.Errorf("rewrote absolute HTML: %q", got)
	}
}

func TestTruncatedEndTag(t *testing.T) {
	f, err := Parse([]byte("<rss><channel><title>T</title><item><title>I</title></item></channel></rss"), "", "")
	if err != nil || len(f.Entries) != 1 || f.Title != "T" {
		t.Fatalf("feed %+v, %v", f, err)
	}
	if got := string(closeTruncatedEndTag([]byte("<a>x</a> "))); got != "<a>x</a> " {
		t.Errorf("complete document changed: %q", got)
	}
}

func TestPersonName(t *testing.T) {
	tests := map[[2]string]string{
		{"Ann", ""}:                   "Ann",
		{"Ann <ann@example.com>", ""}: "Ann",
		{"ann@example.com (Ann)", ""}: "Ann",
		{"", "ann@example.com"}:       "ann@example.com",
		{"  Ann \n Lee ", ""}:         "Ann Lee",
		{"Acme (the company)", ""}:    "Acme (the company)",
	}
	for in, want := range tests {
		if got := personName(in[0], in[1]); got != want {
			t.Errorf("personName(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}
