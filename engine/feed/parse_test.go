package feed

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const rssSample = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>Example</title>
  <link>/</link>
  <description>An example</description>
  <language>en</language>
  <item>
    <title>With guid</title>
    <guid isPermaLink="false">tag:example.com,2024:1</guid>
    <link>/posts/1</link>
    <description>&lt;p&gt;Hello&lt;/p&gt;</description>
    <pubDate>Mon, 01 Jan 2024 10:00:00 +0200</pubDate>
    <category>go</category><category>go</category><category>feeds</category>
    <dc:creator>Ann</dc:creator>
  </item>
  <item>
    <title>Link only</title>
    <link>https://example.com/posts/2</link>
    <pubDate>not a date</pubDate>
  </item>
  <item>
    <title>Neither</title>
    <description>Only text</description>
  </item>
  <item>
    <title>Permalink guid</title>
    <guid>https://example.com/posts/4</guid>
  </item>
</channel>
</rss>`

func TestParseRSSIdentityLinksDates(t *testing.T) {
	f, err := Parse([]byte(rssSample), "application/rss+xml", "https://example.com/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatRSS || f.Title != "Example" || f.SiteURL != "https://example.com/" || f.Language != "en" {
		t.Errorf("feed fields = %q %q %q %q", f.Format, f.Title, f.SiteURL, f.Language)
	}
	if len(f.Entries) != 4 {
		t.Fatalf("got %d entries, want 4", len(f.Entries))
	}
	e := f.Entries[0]
	// Rule: identity is the guid when present.
	if e.Identity != "tag:example.com,2024:1" {
		t.Errorf("identity = %q", e.Identity)
	}
	// Rule: relative links resolve against the base URL.
	if e.Link != "https://example.com/posts/1" {
		t.Errorf("link = %q", e.Link)
	}
	if want := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC); !e.Published.Equal(want) || e.Published.Location() != time.UTC {
		t.Errorf("published = %v, want %v in UTC", e.Published, want)
	}
	if strings.Join(e.Categories, ",") != "go,feeds" || strings.Join(e.Authors, ",") != "Ann" {
		t.Errorf("categories %v authors %v", e.Categories, e.Authors)
	}
	if e.Summary != "<p>Hello</p>" {
		t.Errorf("summary = %q", e.Summary)
	}
	// Rule: else the link.
	if f.Entries[1].Identity != "https://example.com/posts/2" {
		t.Errorf("identity = %q", f.Entries[1].Identity)
	}
	// Rule: an unparseable date stays unset.
	if !f.Entries[1].Published.IsZero() {
		t.Errorf("unparseable date gave %v", f.Entries[1].Published)
	}
	// Rule: else the SHA-256 of the content.
	if id := f.Entries[2].Identity; !strings.HasPrefix(id, "sha256:") || len(id) != len("sha256:")+64 {
		t.Errorf("content identity = %q", id)
	}
	// A permalink guid doubles as the link.
	if f.Entries[3].Link != "https://example.com/posts/4" {
		t.Errorf("permalink guid link = %q", f.Entries[3].Link)
	}
	for _, e := range f.Entries {
		if len(e.Checksum) != 64 {
			t.Errorf("%q: checksum %q", e.Title, e.Checksum)
		}
	}
}

func TestParseAtomAndJSON(t *testing.T) {
	atomBody := `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">
  <title>Atom</title>
  <link href="https://blog.example/"/>
  <link rel="self" href="https://blog.example/atom"/>
  <link rel="hub" href="https://hub.example/"/>
  <link rel="next" href="?page=2"/>
  <entry><id>urn:1</id><title>One</title><link href="one.html"/>
    <updated>2024-02-03T04:05:06Z</updated><content type="html">&lt;b&gt;x&lt;/b&gt;</content></entry>
</feed>`
	f, err := Parse([]byte(atomBody), "application/atom+xml", "https://blog.example/atom")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatAtom || f.SelfURL != "https://blog.example/atom" || f.HubURL != "https://hub.example/" || f.NextURL != "https://blog.example/?page=2" {
		t.Errorf("atom feed links: %+v", f)
	}
	e := f.Entries[0]
	if e.Identity != "urn:1" || e.Link != "https://blog.example/one.html" || e.ContentHTML != "<b>x</b>" {
		t.Errorf("atom entry: %+v", e)
	}
	// Fallback chain: no published date, so updated stands in.
	if want := time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC); !e.Published.Equal(want) || !e.Updated.Equal(want) {
		t.Errorf("dates %v %v", e.Published, e.Updated)
	}

	jsonBody := `{"version":"https://jsonfeed.org/version/1.1","title":"J","home_page_url":"https://j.example/",
  "next_url":"https://j.example/feed?p=2","hubs":[{"type":"WebSub","url":"https://hub.j.example/"}],
  "items":[{"id":"7","url":"/seven","content_html":"<p>7</p>","date_published":"2024-03-01T00:00:00+01:00","tags":["a"]}]}`
	f, err = Parse([]byte(jsonBody), "application/feed+json", "https://j.example/feed.json")
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != FormatJSON || f.NextURL != "https://j.example/feed?p=2" || f.HubURL != "https://hub.j.example/" {
		t.Errorf("json feed: %+v", f)
	}
	e = f.Entries[0]
	if e.Identity != "7" || e.Link != "https://j.example/seven" || e.ContentHTML != "<p>7</p>" || !e.Published.Equal(time.Date(2024, 2, 29, 23, 0, 0, 0, time.UTC)) {
		t.Errorf("json entry: %+v", e)
	}
}

func TestParseRejectsNonFeeds(t *testing.T) {
	tests := []struct{ body, contentType, want string }{
		{"<!DOCTYPE html><html><body>login</body></html>", "text/html", "looks like an HTML page"},
		{"", "", "empty"},
		{`{"a":1}`, "application/json", "JSON without a jsonfeed.org version"},
		{`<note/>`, "application/xml", "XML whose root"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.body), tt.contentType, "https://x.example/")
		if !errors.Is(err, ErrNotFeed) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "feed: not a feed") {
			t.Errorf("Parse(%q) error = %v, want ErrNotFeed mentioning %q", tt.body, err, tt.want)
		}
	}
}

func TestChecksumTracksVisibleEdits(t *testing.T) {
	parse := func(title, date string) Entry {
		body := `<rss version="2.0"><channel><item><guid>g</guid><title>` + title + `</title><pubDate>` + date + `</pubDate></item></channel></rss>`
		f, err := Parse([]byte(body), "", "")
		if err != nil {
			t.Fatal(err)
		}
		return f.Entries[0]
	}
	a := parse("A", "Mon, 01 Jan 2024 10:00:00 GMT")
	b := parse("A", "Tue, 02 Jan 2024 10:00:00 GMT")
	c := parse("A edited", "Mon, 01 Jan 2024 10:00:00 GMT")
	if a.Checksum != b.Checksum {
		t.Error("a date bump changed the checksum")
	}
	if a.Checksum == c.Checksum {
		t.Error("an edited title kept the checksum")
	}
	if a.Identity != c.Identity {
		t.Error("an edit changed the identity")
	}
}

func TestJSONPlainTextAndInheritedAuthors(t *testing.T) {
	body := `{"version":"https://jsonfeed.org/version/1.1","authors":[{"name":"Feed Author"}],"items":[
  {"id":"1","summary":"a < b","content_text":"line one\nline <two>"},
  {"id":"2","content_html":"<p>x</p>","authors":[{"name":"Own"}]}]}`
	f, err := Parse([]byte(body), "", "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Entries[0], f.Entries[1]
	if a.Summary != "a &lt; b" || a.ContentHTML != "line one<br>line &lt;two&gt;" {
		t.Errorf("plain text not made HTML: %q / %q", a.Summary, a.ContentHTML)
	}
	if strings.Join(a.Authors, ",") != "Feed Author" || strings.Join(b.Authors, ",") != "Own" {
		t.Errorf("authors %v %v", a.Authors, b.Authors)
	}
}

func TestAtomInheritsAuthorAndReadsSyndicationHints(t *testing.T) {
	body := `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">
<author><name>Feed Author</name></author><sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>
<entry><id>1</id><title>x</title></entry></feed>`
	f, err := Parse([]byte(body), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.Entries[0].Authors, ",") != "Feed Author" {
		t.Errorf("authors %v", f.Entries[0].Authors)
	}
	if f.Hints.UpdatePeriod != "hourly" || f.Hints.UpdateFrequency != 4 {
		t.Errorf("hints %+v", f.Hints)
	}
}

func TestParseLooksPastLongLeadingComment(t *testing.T) {
	body := "<?xml version=\"1.0\"?>\n<!--" + strings.Repeat("generated by a very talkative CMS ", 400) + "-->\n" +
		`<rss version="2.0"><channel><title>Late root</title><item><guid>1</guid></item></channel></rss>`
	f, err := Parse([]byte(body), "application/rss+xml", "")
	if err != nil || f.Title != "Late root" || len(f.Entries) != 1 {
		t.Fatalf("feed %+v, error %v", f, err)
	}
}
