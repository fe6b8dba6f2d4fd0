package templates

import (
	"html/template"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/rssbot/rssbot/engine/feed"
)

// Data is what a post template sees. README's "Templates" section
// documents every field with an example; keep the two in step.
type Data struct {
	Title       string        // entry title, plain text, replacements applied
	FeedTitle   string        // the feed's title
	Content     string        // content (else summary) as plain text, replacements applied
	ContentHTML template.HTML // the same content as Telegram HTML
	Summary     string        // summary as plain text, replacements applied
	PostLink    string        // absolute http(s) link to the entry; empty otherwise
	PostDomain  string        // host of PostLink without "www."
	Author      string        // authors, comma-separated
	Published   time.Time     // publication time in the bot's time zone; zero if unknown
	Updated     time.Time     // last update in the bot's time zone; zero if unknown
	Categories  []string      // categories as the feed names them
	Hashtags    []string      // categories as Telegram hashtags ("#Go_News")
	Image       string        // URL of the entry's first image; empty if none
	Enclosures  []Enclosure   // attached files (podcast audio, video, PDF)
	Event       *Event        // the calendar part of an iCalendar entry; nil otherwise
}

// Enclosure is a file attached to an entry.
type Enclosure struct {
	URL    string
	Type   string // media type, e.g. audio/mpeg; may be empty
	Length int64  // size in bytes as the feed states it; 0 if unknown
}

// Event is the calendar part of an entry.
type Event struct {
	Start, End time.Time // in the bot's time zone; all-day events: midnight UTC of their dates, End exclusive
	AllDay     bool
	Location   string
	Status     string // TENTATIVE, CONFIRMED or CANCELLED; may be empty
	Recurring  bool   // one occurrence of a repeating event
	URL        string
}

// view is an entry prepared for templating: the data, plus the rich
// content and plain summary the length limits shorten, and the media.
type view struct {
	data    Data
	content richText
	summary string
	images  []string
}

// input is what a view is made of besides the entry.
type input struct {
	feedTitle string
	feedURL   string
	rules     []*Replacement
	loc       *time.Location
}

// newView converts an entry's HTML, applies the replacements and fills the
// template data.
func newView(conv *htmlConverter, e feed.Entry, in input) view {
	link := safeLink(e.Link)
	if link == "" && e.Event != nil {
		link = safeLink(e.Event.URL)
	}
	base := link
	if base == "" {
		base = in.feedURL
	}
	summary := conv.convert(e.Summary, base)
	content := summary
	if strings.TrimSpace(e.ContentHTML) != "" {
		content = conv.convert(e.ContentHTML, base)
	}
	v := view{
		content: replaceRich(in.rules, content.rich),
		summary: richText{text: replaceAll(in.rules, summary.rich.text)}.tidy().text,
		images:  mediaImages(e, content.images),
	}
	v.data = Data{
		Title:       tidyLine(replaceAll(in.rules, tidyLine(e.Title))),
		FeedTitle:   tidyLine(in.feedTitle),
		Content:     v.content.text,
		ContentHTML: template.HTML(v.content.html()),
		Summary:     v.summary,
		PostLink:    link,
		PostDomain:  domainOf(link),
		Author:      tidyLine(strings.Join(e.Authors, ", ")),
		Published:   inZone(e.Published, in.loc),
		Updated:     inZone(e.Updated, in.loc),
		Categories:  e.Categories,
		Hashtags:    hashtags(e.Categories),
		Event:       newEvent(e.Event, in.loc),
	}
	for _, img := range v.images {
		if strings.HasPrefix(img, "http") {
			v.data.Image = img
			break
		}
	}
	for _, enc := range e.Enclosures {
		v.data.Enclosures = append(v.data.Enclosures, Enclosure{URL: enc.URL, Type: enc.Type, Length: enc.Length})
	}
	return v
}

func newEvent(e *feed.Event, loc *time.Location) *Event {
	if e == nil {
		return nil
	}
	ev := &Event{
		Start: e.Start, End: e.End, AllDay: e.AllDay,
		Location: tidyLine(e.Location), Status: strings.ToUpper(e.Status),
		Recurring: e.RRule != "" || e.RecurrenceID != "",
		URL:       safeLink(e.URL),
	}
	if !e.AllDay {
		ev.Start, ev.End = inZone(e.Start, loc), inZone(e.End, loc)
	}
	return ev
}

func inZone(t time.Time, loc *time.Location) time.Time {
	if t.IsZero() || loc == nil {
		return t
	}
	return t.In(loc)
}

// safeLink keeps only absolute http(s) links: Telegram refuses others in href.
func safeLink(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

func domainOf(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// tidyLine makes one line of plain text: valid UTF-8, control characters
// dropped, runs of white space folded into single spaces, ends trimmed.
func tidyLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case invisible(r):
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
