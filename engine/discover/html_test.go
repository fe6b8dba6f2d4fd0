package discover

import (
	"net/url"
	"reflect"
	"testing"
)

func TestScanHead(t *testing.T) {
	cases := []struct {
		name, contentType, html string
		base                    string
		alts                    []alternate
	}{
		{"stops at </head>", "text/html",
			`<head><link rel=alternate type=application/rss+xml href=/a></head><link rel=alternate href=/b>`,
			"", []alternate{{href: "/a", typ: "application/rss+xml"}}},
		{"stops at <body>", "text/html",
			`<link rel=alternate href=/a><body><link rel=alternate href=/b>`,
			"", []alternate{{href: "/a"}}},
		{"no head or body tags", "text/html",
			`<title>t</title><link rel="alternate" href="/a" title=" x  y ">`,
			"", []alternate{{href: "/a", title: "x y"}}},
		{"first base wins", "text/html",
			`<base href="/one/"><base href="/two/"><link rel=alternate href=f>`,
			"/one/", []alternate{{href: "f"}}},
		{"rel is a token list", "text/html",
			`<link rel="feed ALTERNATE" href=/a><link rel="alternates" href=/b><link rel="alternate" href="">`,
			"", []alternate{{href: "/a"}}},
		{"links inside script and comments ignored", "text/html",
			`<script>"<link rel=alternate href=/s>"</script><!-- <link rel=alternate href=/c> --><link rel=alternate href=/a>`,
			"", []alternate{{href: "/a"}}},
		{"first of a repeated attribute wins", "text/html",
			`<link rel=alternate href=/a href=/b>`,
			"", []alternate{{href: "/a"}}},
		{"windows-1252 title", "text/html; charset=windows-1252",
			"<link rel=alternate href=/a title=\"Caf\xe9 \x93news\x94\">",
			"", []alternate{{href: "/a", title: "Café “news”"}}},
		{"charset from meta", "",
			"<meta charset=\"iso-8859-1\"><link rel=alternate href=/a title=\"\xbfQu\xe9?\">",
			"", []alternate{{href: "/a", title: "¿Qué?"}}},
	}
	for _, tc := range cases {
		base, alts := scanHead([]byte(tc.html), tc.contentType)
		if base != tc.base || !reflect.DeepEqual(alts, tc.alts) {
			t.Errorf("%s:\n got base %q %+v\nwant base %q %+v", tc.name, base, alts, tc.base, tc.alts)
		}
	}
}

// Relative hrefs resolve against <base>, itself relative to the final URL;
// non-feed types and non-http targets are dropped.
func TestDeclaredInHTML(t *testing.T) {
	final, _ := url.Parse("https://example.org/blog/2026/post.html")
	html := `<head><base href="../"><link rel=alternate type="application/atom+xml; charset=utf-8" href="atom.xml">
<link rel=alternate type=application/json href="/wp-json/"><link rel=alternate type=application/json title="JSON Feed" href="/j">
<link rel=alternate type=application/rss+xml href="//cdn.example.net/rss"><link rel=alternate type=application/rss+xml href="data:,x">`
	got := declaredInHTML([]byte(html), "text/html", final)
	want := []Candidate{
		{URL: "https://example.org/blog/atom.xml", Type: "application/atom+xml"},
		{URL: "https://example.org/j", Title: "JSON Feed", Type: "application/json"},
		{URL: "https://cdn.example.net/rss", Type: "application/rss+xml"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

func TestRank(t *testing.T) {
	found := []Candidate{
		{URL: "https://g/1", Guess: true},
		{URL: "https://a/", Type: "application/rss+xml"},
		{URL: "https://b/"},
		{URL: "https://a/", Title: "A", Type: "text/xml"},
		{URL: "https://b/", Title: "B", Guess: true},
	}
	want := []Candidate{
		{URL: "https://a/", Title: "A", Type: "application/rss+xml"},
		{URL: "https://b/", Title: "B"},
		{URL: "https://g/1", Guess: true},
	}
	if got := rank(found); !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}
}

func TestFeedType(t *testing.T) {
	cases := []struct {
		typ, href, title string
		want             string
		ok               bool
	}{
		{"application/rss+xml", "", "", "application/rss+xml", true},
		{"Application/Atom+XML; charset=UTF-8", "", "", "application/atom+xml", true},
		{"application/feed+json", "", "", "application/feed+json", true},
		{"application/rdf+xml", "", "", "application/rdf+xml", true},
		{"text/calendar", "", "", "text/calendar", true},
		{"text/xml", "", "", "text/xml", true},
		{"application/json", "/wp-json/wp/v2/pages/2", "", "application/json", false},
		{"application/json", "/feed.json", "", "application/json", true},
		{"application/json+oembed", "/feed", "", "application/json+oembed", false},
		{"text/html", "/feed", "", "text/html", false},
		{"", "/feed", "", "", false},
	}
	for _, tc := range cases {
		got, ok := feedType(tc.typ, tc.href, tc.title)
		if got != tc.want || ok != tc.ok {
			t.Errorf("feedType(%q, %q) = %q, %v; want %q, %v", tc.typ, tc.href, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzScanHead(f *testing.F) {
	f.Add(`<head><base href=x><link rel=alternate type=application/rss+xml href=/a title=t></head>`, "text/html")
	f.Add("<link rel=alternate href=\"\xff\">", "text/html; charset=shift_jis")
	f.Add(`<script><link rel=alternate href=/x></script><body>`, "")
	final, _ := url.Parse("https://example.org/dir/page")
	f.Fuzz(func(t *testing.T, html, contentType string) {
		_, alts := scanHead([]byte(html), contentType)
		if len(alts) > maxHTMLLinks {
			t.Fatalf("%d alternates, over the cap", len(alts))
		}
		for _, c := range declaredInHTML([]byte(html), contentType, final) {
			u, err := url.Parse(c.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
				t.Fatalf("bad candidate URL %q", c.URL)
			}
		}
	})
}
