package feed

import (
	"strings"
	"testing"
)

// checkFuzzResult holds for any input: a feed or an error, never both; an
// error names the operation; every entry has an identity and a checksum.
func checkFuzzResult(t *testing.T, f *Feed, err error) {
	if (f == nil) == (err == nil) {
		t.Fatalf("feed %v and error %v", f, err)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "feed: ") {
			t.Fatalf("error %q does not name the operation", err)
		}
		return
	}
	for i, e := range f.Entries {
		if e.Identity == "" || len(e.Checksum) != 64 {
			t.Fatalf("entry %d: identity %q checksum %q", i, e.Identity, e.Checksum)
		}
		if e.Event != nil && e.Event.Start.IsZero() {
			t.Fatalf("entry %d: event without start", i)
		}
	}
}

func FuzzParseXML(f *testing.F) {
	f.Add([]byte(rssSample), "application/rss+xml")
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/b/"><title>A</title><entry><id>1</id><link href="x"/><content type="html">&lt;img srcset="a 1x, b 2x"&gt;</content></entry></feed>`), "")
	f.Add([]byte(`<?xml version="1.0" encoding="windows-1251"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><item rdf:about="u"><title>`+"\xcf\xf0"+`</title></item></rdf:RDF>`), "")
	f.Add([]byte("<rss><channel><item><guid>g</guid></item><item><guid>g</guid></item></channel></rss"), "text/xml; charset=koi8-r")
	f.Add([]byte("<!--"+strings.Repeat("x", 5000)+"--><rss><channel><ttl>5</ttl><skipHours><hour>24</hour></skipHours></channel></rss>"), "")
	f.Add([]byte(`<rss><channel><item><description>&lt;img src="data:image/png;base64,AAAA"&gt;</description></item></channel></rss>`), "")
	// The second-pass reader (xmlraw.go): Atom 0.3 modes, prefixed XHTML,
	// an RSS xhtml:body, and a root in a pre-Atom namespace.
	f.Add([]byte(`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title mode="base64">PGI+eDwvYj4=</title><entry><content type="application/xhtml+xml" xml:base="/b/"><div xmlns="http://www.w3.org/1999/xhtml"><a href="c">d</a></div></content></entry></feed>`), "")
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:s="http://www.w3.org/2000/svg"><entry><id>1</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><s:svg><s:circle r="1"/></s:svg></div></content></entry></feed>`), "")
	f.Add([]byte(`<rss><channel><item><body xmlns="http://www.w3.org/1999/xhtml"><p>x<br/>y</p></body></item></channel></rss>`), "")
	f.Add([]byte(`<feed version="0.3" xmlns="http://purl.org/pie/"><title>&lt;b&gt;t&lt;/b&gt;</title></feed>`), "")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		feed, err := ParseWith(body, contentType, "https://example.com/feed", Options{MaxDataURLBytes: 1 << 10})
		checkFuzzResult(t, feed, err)
	})
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"version":"https://jsonfeed.org/version/1.1","title":"J","next_url":"/p2","hubs":[{"type":"WebSub","url":"/hub"}],"items":[{"id":"1","url":"/a","content_html":"<img src=x>","date_published":"2024-01-01T00:00:00Z","attachments":[{"url":"/a.mp3","mime_type":"audio/mpeg","size_in_bytes":3}]}]}`))
	f.Add([]byte(`{"version":"1.0","items":[{"id":1},{"id":1}]}`))
	f.Add([]byte(`{"version":"https://jsonfeed.org/version/1","items":[{"id":"x","image":"data:image/gif;base64,R0lGODlh"}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		feed, err := ParseWith(body, "application/feed+json", "https://example.com/feed.json", Options{MaxDataURLBytes: 1 << 10})
		checkFuzzResult(t, feed, err)
	})
}

func FuzzParseICal(f *testing.F) {
	f.Add(calendar("UID:a\nDTSTAMP:20240101T000000Z\nDTSTART;TZID=\"W. Europe Standard Time\":20240310T180000\nDURATION:P1DT2H\nRRULE:FREQ=DAILY"))
	f.Add(calendar("UID:b\nDTSTAMP:20240101T000000Z\nDTSTART;VALUE=DATE:20240310\nRECURRENCE-ID;VALUE=DATE:20240310\nSTATUS:CANCELLED"))
	f.Add([]byte("BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:X\r\nBEGIN:STANDARD\r\nTZOFFSETTO:+0130\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20240101T000000Z\r\nDTSTART;TZID=X:20240101T000000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:d\r\nEND:VEVENT\r\n"))
	f.Add([]byte("BEGIN:VCALENDAR\r\nX;A=\"b\"c:d\r\nEND:VCALENDAR\r\n"))
	f.Add([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		feed, err := Parse(body, "text/calendar", "https://example.com/cal.ics")
		checkFuzzResult(t, feed, err)
	})
}

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"<rss/>", "<feed/>", "<rdf:RDF/>", `{"version":"https://jsonfeed.org/version/1"}`, "BEGIN:VCALENDAR", "<!DOCTYPE x [<!ENTITY a '>'>]><rss/>", "\xFF\xFE<\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		switch got := Detect(body); got {
		case "", FormatRSS, FormatAtom, FormatRDF, FormatJSON, FormatICal:
		default:
			t.Fatalf("Detect returned %q", got)
		}
	})
}
