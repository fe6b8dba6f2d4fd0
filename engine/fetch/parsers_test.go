package fetch

import (
	"net/url"
	"reflect"
	"testing"
	"time"
)

// Rule (issue 3): Retry-After is delta-seconds or an HTTP-date; a past date
// means no delay; malformed, duplicated or outside 0–2147483647 s is
// ignored.
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		values []string
		want   time.Duration
		ok     bool
	}{
		{"absent", nil, 0, false},
		{"delta seconds", []string{"120"}, 120 * time.Second, true},
		{"zero", []string{"0"}, 0, true},
		{"surrounding space", []string{"  30 "}, 30 * time.Second, true},
		{"largest allowed", []string{"2147483647"}, 2147483647 * time.Second, true},
		{"one past the largest", []string{"2147483648"}, 0, false},
		{"huge", []string{"999999999999999999999999"}, 0, false},
		{"negative", []string{"-5"}, 0, false},
		{"plus sign", []string{"+5"}, 0, false},
		{"fraction", []string{"1.5"}, 0, false},
		{"trailing junk", []string{"10s"}, 0, false},
		{"empty", []string{""}, 0, false},
		{"IMF-fixdate", []string{"Tue, 03 Mar 2026 10:02:00 GMT"}, 2 * time.Minute, true},
		{"RFC 850 date", []string{"Tuesday, 03-Mar-26 10:00:30 GMT"}, 30 * time.Second, true},
		{"asctime date", []string{"Tue Mar  3 10:01:00 2026"}, time.Minute, true},
		{"past date means no delay", []string{"Mon, 02 Mar 2026 10:00:00 GMT"}, 0, true},
		{"date now", []string{"Tue, 03 Mar 2026 10:00:00 GMT"}, 0, true},
		{"date too far", []string{"Fri, 01 Jan 2100 00:00:00 GMT"}, 0, false},
		{"malformed date", []string{"Tue, 33 Mar 2026 10:00:00 GMT"}, 0, false},
		{"garbage", []string{"soon"}, 0, false},
		{"duplicated", []string{"120", "120"}, 0, false},
		{"duplicated mixed", []string{"120", "Tue, 03 Mar 2026 10:02:00 GMT"}, 0, false},
		{"list in one line", []string{"120, 60"}, 0, false},
	}
	for _, tc := range cases {
		got, ok := ParseRetryAfter(tc.values, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: ParseRetryAfter(%q) = %v, %v; want %v, %v", tc.name, tc.values, got, ok, tc.want, tc.ok)
		}
	}
	// Sub-second now: the date's moment must have passed when we return.
	got, _ := ParseRetryAfter([]string{"Tue, 03 Mar 2026 10:00:10 GMT"}, now.Add(300*time.Millisecond))
	if got != 10*time.Second {
		t.Errorf("rounding: got %v, want 10s", got)
	}
}

// Rule: Cache-Control max-age (RFC 9111 5.2.2.1) is a scheduling hint.
func TestParseMaxAge(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"max-age=3600", time.Hour, true},
		{"public, max-age=600", 10 * time.Minute, true},
		{"MAX-AGE=60", time.Minute, true},
		{`max-age="120"`, 2 * time.Minute, true},
		{"max-age = 30", 30 * time.Second, true},
		{"max-age=0", 0, true},
		{"no-cache, max-age=0, must-revalidate", 0, true},
		{"s-maxage=100", 0, false},
		{"s-maxage=100, max-age=5", 5 * time.Second, true},
		{"max-age=60, max-age=120", time.Minute, true}, // first wins, RFC 9111 4.2.1
		{`private="Set-Cookie, max-age=1", max-age=7`, 7 * time.Second, true},
		{`private="a\"b, max-age=1", max-age=8`, 8 * time.Second, true},
		{"max-age=-1", 0, false},
		{"max-age=", 0, false},
		{"max-age", 0, false},
		{"max-age=1h", 0, false},
		{"max-age=99999999999999", (1 << 31) * time.Second, true}, // RFC 9111 1.2.2 cap
		{"no-store", 0, false},
		{"xmax-age=5", 0, false},
	}
	for _, tc := range cases {
		got, ok := ParseMaxAge(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseMaxAge(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Rule: RFC 8288 Link headers; hub, self and alternate feeds are what
// discovery and WebSub read.
func TestParseLinkHeader(t *testing.T) {
	base, _ := url.Parse("https://example.org/blog/post")
	cases := []struct {
		name   string
		values []string
		want   []Link
	}{
		{"none", nil, nil},
		{"one", []string{`<https://example.org/feed>; rel="alternate"; type="application/rss+xml"; title="Posts"`},
			[]Link{{URL: "https://example.org/feed", Rel: "alternate", Type: "application/rss+xml", Title: "Posts"}}},
		{"relative resolved against base", []string{`</feed.xml>; rel=alternate`, `<atom>; rel=self`},
			[]Link{{URL: "https://example.org/feed.xml", Rel: "alternate"}, {URL: "https://example.org/blog/atom", Rel: "self"}}},
		{"several in one value", []string{`<https://hub.example/>; rel="hub", <https://example.org/f>; rel="self"`},
			[]Link{{URL: "https://hub.example/", Rel: "hub"}, {URL: "https://example.org/f", Rel: "self"}}},
		{"rel list", []string{`<https://example.org/f>; rel="self Alternate"`},
			[]Link{{URL: "https://example.org/f", Rel: "self"}, {URL: "https://example.org/f", Rel: "alternate"}}},
		{"comma and semicolon inside quotes", []string{`<https://example.org/f>; title="a, b; c"; rel=alternate`},
			[]Link{{URL: "https://example.org/f", Rel: "alternate", Title: "a, b; c"}}},
		{"first rel wins", []string{`<https://example.org/f>; rel=hub; rel=self`},
			[]Link{{URL: "https://example.org/f", Rel: "hub"}}},
		{"title* wins", []string{`<https://example.org/f>; rel=alternate; title="Euro"; title*=UTF-8'de'%e2%82%ac%20rates`},
			[]Link{{URL: "https://example.org/f", Rel: "alternate", Title: "€ rates"}}},
		{"title* latin-1", []string{`<https://example.org/f>; rel=alternate; title*=iso-8859-1'en'%A3%20rates`},
			[]Link{{URL: "https://example.org/f", Rel: "alternate", Title: "£ rates"}}},
		{"bad title* falls back", []string{`<https://example.org/f>; rel=alternate; title="T"; title*=UTF-8''%ff`},
			[]Link{{URL: "https://example.org/f", Rel: "alternate", Title: "T"}}},
		{"no rel skipped", []string{`<https://example.org/a>; type="text/html", <https://example.org/b>; rel=next`},
			[]Link{{URL: "https://example.org/b", Rel: "next"}}},
		{"type lower-cased", []string{`<f>; rel=alternate; type="Application/Atom+XML"`},
			[]Link{{URL: "https://example.org/blog/f", Rel: "alternate", Type: "application/atom+xml"}}},
		{"garbage before a good link", []string{`junk; rel=x, <https://example.org/ok>; rel=ok`},
			[]Link{{URL: "https://example.org/ok", Rel: "ok"}}},
		{"unterminated target", []string{`<https://example.org/ok; rel=ok`}, nil},
		{"unparsable URL skipped", []string{`<http://[::1>; rel=bad, <https://example.org/ok>; rel=ok`},
			[]Link{{URL: "https://example.org/ok", Rel: "ok"}}},
	}
	for _, tc := range cases {
		got := ParseLinkHeader(tc.values, base)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	if got := ParseLinkHeader([]string{`<rel/x>; rel=a`}, nil); len(got) != 1 || got[0].URL != "rel/x" {
		t.Errorf("nil base keeps the reference as is: %+v", got)
	}
}

// Rule (DESIGN.md): "host" means the lower-cased hostname, port ignored;
// every spelling of one server gives one key.
func TestHostOf(t *testing.T) {
	cases := []struct {
		in, want string
		err      bool
	}{
		{"https://Example.ORG/feed", "example.org", false},
		{"https://example.org:8443/feed", "example.org", false},
		{"http://example.org./rss", "example.org", false},
		{"https://user:pw@example.org/", "example.org", false},
		{"https://xn--bcher-kva.example/feed", "xn--bcher-kva.example", false}, // punycode kept
		{"https://bücher.example/feed", "xn--bcher-kva.example", false},        // IDN to punycode
		{"https://BÜCHER.example/feed", "xn--bcher-kva.example", false},
		{"https://my_host.example/", "my_host.example", false},
		{"http://127.0.0.1:8080/", "127.0.0.1", false},
		{"http://[::1]:8080/", "::1", false},
		{"http://[2001:DB8:0:0::1]/", "2001:db8::1", false},
		{"example.org/feed", "", true},
		{"/just/a/path", "", true},
		{"http://[::1", "", true},
		{"", "", true},
	}
	for _, tc := range cases {
		got, err := HostOf(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("HostOf(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}
