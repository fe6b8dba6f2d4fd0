package templates

import (
	"net/url"
	"strings"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

// Data is what a post template sees. README documents every field.
type Data struct {
	Title      string    // entry title, plain text
	FeedTitle  string    // the feed's title
	Content    string    // entry content (or summary) as plain text
	Summary    string    // entry summary as plain text
	PostLink   string    // absolute link to the entry
	PostDomain string    // host of PostLink without "www."
	Author     string    // authors, comma-separated
	Published  time.Time // publication time in the bot's time zone (zero if unknown)
	Categories []string
}

// NewData builds template data from a stored entry.
func NewData(e feed.Entry, feedTitle string, loc *time.Location) Data {
	content := PlainText(e.ContentHTML)
	summary := PlainText(e.Summary)
	if content == "" {
		content = summary
	}
	d := Data{
		Title:      tidy(e.Title),
		FeedTitle:  feedTitle,
		Content:    content,
		Summary:    summary,
		PostLink:   safeLink(e.Link),
		Author:     strings.Join(e.Authors, ", "),
		Categories: e.Categories,
	}
	if !e.Published.IsZero() {
		d.Published = e.Published.In(loc)
	}
	if u, err := url.Parse(d.PostLink); err == nil {
		d.PostDomain = strings.TrimPrefix(u.Hostname(), "www.")
	}
	return d
}

// safeLink keeps only absolute http(s) links: Telegram refuses others in href.
func safeLink(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}
