package fetch

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "0", "2147483647", "2147483648", "-1", "1.5", "",
		"Tue, 03 Mar 2026 10:02:00 GMT", "Tuesday, 03-Mar-26 10:00:30 GMT", "Tue Mar  3 10:01:00 2026",
		"Fri, 01 Jan 2100 00:00:00 GMT", "9999999999999999999999"} {
		f.Add(s, false)
	}
	f.Add("120", true)
	now := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string, twice bool) {
		values := []string{v}
		if twice {
			values = append(values, v)
		}
		d, ok := ParseRetryAfter(values, now)
		if !ok && d != 0 {
			t.Fatalf("ignored value with a delay: %v", d)
		}
		if d < 0 || d > maxDeltaSeconds*time.Second {
			t.Fatalf("delay %v out of range", d)
		}
		if twice && ok {
			t.Fatal("a duplicated header must be ignored")
		}
		if secs, isNum := parseDeltaSeconds(strings.TrimSpace(v)); isNum && !twice {
			if ok != (secs <= maxDeltaSeconds) || (ok && d != time.Duration(secs)*time.Second) {
				t.Fatalf("delta-seconds %q read as %v, %v", v, d, ok)
			}
		}
	})
}

func FuzzParseMaxAge(f *testing.F) {
	for _, s := range []string{"max-age=3600", "public, max-age=60", `max-age="5"`, `private="a, b", max-age=7`,
		"max-age=99999999999999", "max-age=-1", "no-store", `x="\"`, ",,,=,", "max-age"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseMaxAge(s)
		if !ok && d != 0 {
			t.Fatalf("no max-age but %v", d)
		}
		if d < 0 || d > maxAgeCap {
			t.Fatalf("max-age %v out of range", d)
		}
		// Prepending an unrelated directive must not change the answer.
		d2, ok2 := ParseMaxAge("public, " + s)
		if d2 != d || ok2 != ok {
			t.Fatalf("%q: %v,%v but with a prefix %v,%v", s, d, ok, d2, ok2)
		}
	})
}

func FuzzParseLinkHeader(f *testing.F) {
	for _, s := range []string{
		`<https://example.org/feed>; rel="alternate"; type="application/rss+xml"; title="Posts"`,
		`</hub>; rel=hub, <self>; rel=self`,
		`<a>; title="x, y"; rel="a b c"`,
		`<a>; rel=x; title*=UTF-8''%e2%82%ac`,
		`<<>>;;;,,,"`, `<a>; rel="unterminated`,
	} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.org/dir/page")
	f.Fuzz(func(t *testing.T, s string) {
		links := ParseLinkHeader([]string{s, s}, base)
		if len(links) > maxLinks {
			t.Fatalf("%d links, over the cap", len(links))
		}
		for _, l := range links {
			if l.Rel == "" || strings.ContainsAny(l.Rel, " \t") || l.Rel != strings.ToLower(l.Rel) {
				t.Fatalf("bad rel %q", l.Rel)
			}
			u, err := url.Parse(l.URL)
			if err != nil || !u.IsAbs() {
				t.Fatalf("target %q is not an absolute URL: %v", l.URL, err)
			}
		}
		// Two copies of one value give twice the links of one copy (up to
		// the cap): values are parsed independently.
		one := ParseLinkHeader([]string{s}, base)
		if want := min(2*len(one), maxLinks); len(links) != want {
			t.Fatalf("%d links from two copies, %d from one", len(links), len(one))
		}
	})
}
