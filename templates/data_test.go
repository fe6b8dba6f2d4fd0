package templates

import (
	"reflect"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

func TestNewView(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	published := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	e := feed.Entry{
		Title:       "  Big\n news:  SPAM  ",
		Link:        "https://www.example.org/post?id=1",
		Summary:     "<p>Short</p>",
		ContentHTML: `<p>Long <b>text</b> SPAM</p><img src="/a.jpg">`,
		Authors:     []string{"Ann", "Bob"},
		Categories:  []string{"Go News", "go-news", "2026", "C++"},
		Published:   published,
		Images:      []feed.Image{{URL: "https://cdn.example.org/lead.jpg"}},
		Enclosures:  []feed.Enclosure{{URL: "https://example.org/ep.mp3", Type: "audio/mpeg", Length: 99}, {URL: "https://example.org/e.png", Type: "image/png"}},
	}
	v := newView(newHTMLConverter(), e, input{feedTitle: "Feed", rules: []*Replacement{mustRule(t, " SPAM", false, "")}, loc: berlin})
	d := v.data
	checks := []struct {
		field     string
		got, want any
	}{
		{"Title: tidied, replaced", d.Title, "Big news:"},
		{"Content: plain, replaced", d.Content, "Long text"},
		{"ContentHTML", string(d.ContentHTML), "Long <b>text</b>"},
		{"Summary", d.Summary, "Short"},
		{"PostLink", d.PostLink, "https://www.example.org/post?id=1"},
		{"PostDomain: no www.", d.PostDomain, "example.org"},
		{"Author", d.Author, "Ann, Bob"},
		{"Published: bot's zone", d.Published.Location().String() + " " + d.Published.Format("15:04"), "Europe/Berlin 11:00"},
		{"Hashtags: safe, deduplicated, no digits-only", d.Hashtags, []string{"#Go_News", "#C"}},
		{"Image: the feed's first", d.Image, "https://cdn.example.org/lead.jpg"},
		{"images: feed, content, enclosures", v.images, []string{"https://cdn.example.org/lead.jpg", "https://www.example.org/a.jpg", "https://example.org/e.png"}},
		{"Enclosures", d.Enclosures[0], Enclosure{URL: "https://example.org/ep.mp3", Type: "audio/mpeg", Length: 99}},
		{"Event: none", d.Event == nil, true},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.field, c.got, c.want)
		}
	}
}

func TestNewViewEvent(t *testing.T) {
	ev := &feed.Event{Start: time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC), End: time.Date(2026, 5, 1, 9, 30, 0, 0, time.UTC),
		Location: "Hall", Status: "cancelled", RRule: "FREQ=WEEKLY", URL: "https://example.org/ev"}
	v := newView(newHTMLConverter(), feed.Entry{Title: "Meet", Event: ev}, input{loc: time.UTC})
	want := &Event{Start: ev.Start, End: ev.End, Location: "Hall", Status: "CANCELLED", Recurring: true, URL: "https://example.org/ev"}
	if !reflect.DeepEqual(v.data.Event, want) {
		t.Errorf("Event = %+v, want %+v", v.data.Event, want)
	}
	if v.data.PostLink != "https://example.org/ev" {
		t.Errorf("PostLink = %q, want the event's URL when the entry has no link", v.data.PostLink)
	}
}

func TestHashtags(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"Go"}, []string{"#Go"}},
		{[]string{"open source", "Open-Source"}, []string{"#open_source"}},
		{[]string{"  ", "123", "#"}, nil},
		{[]string{"Übersicht & Co."}, []string{"#Übersicht_Co"}},
		{[]string{"日本語"}, []string{"#日本語"}},
	}
	for _, tt := range tests {
		if got := hashtags(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("hashtags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMediaImages(t *testing.T) {
	e := feed.Entry{Images: []feed.Image{{URL: "https://e.org/logo.svg"}, {URL: "ftp://e.org/x.jpg"}, {URL: "data:image/svg+xml;base64,AA=="}, {URL: "data:image/png;base64,AA=="}}}
	got := mediaImages(e, []string{"https://e.org/a.jpg", "https://e.org/a.jpg"})
	want := []string{"data:image/png;base64,AA==", "https://e.org/a.jpg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mediaImages = %q, want %q", got, want)
	}
}
