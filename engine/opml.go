package engine

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
)

// OPMLFeed is one feed an OPML file lists.
type OPMLFeed struct {
	URL     string // xmlUrl, as written
	Title   string // title, else text
	SiteURL string // htmlUrl
}

// MaxOPMLBytes bounds an OPML file; a subscription list is far smaller.
const MaxOPMLBytes = 16 << 20

// ErrNotOPML is wrapped when a file is not an OPML document.
var ErrNotOPML = errors.New("not an OPML document")

// ParseOPML reads the feeds of an OPML file: every outline with an xmlUrl,
// at any depth, in document order. Attribute names are matched without
// regard to case (xmlUrl, xmlURL), since exporters differ; the encoding
// the XML declaration names is honoured.
func ParseOPML(r io.Reader) ([]OPMLFeed, error) {
	dec := xml.NewDecoder(io.LimitReader(r, MaxOPMLBytes))
	dec.CharsetReader = charset.NewReaderLabel
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	var (
		feeds  []OPMLFeed
		isOPML bool
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return feeds, fmt.Errorf("engine: OPML: %w", err)
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch strings.ToLower(start.Name.Local) {
		case "opml":
			isOPML = true
		case "outline":
			if f := outlineFeed(start.Attr); isOPML && f.URL != "" {
				feeds = append(feeds, f)
			}
		}
	}
	if !isOPML {
		return nil, fmt.Errorf("engine: %w", ErrNotOPML)
	}
	return feeds, nil
}

func outlineFeed(attrs []xml.Attr) OPMLFeed {
	var f OPMLFeed
	var text string
	for _, a := range attrs {
		v := strings.TrimSpace(a.Value)
		switch strings.ToLower(a.Name.Local) {
		case "xmlurl":
			f.URL = v
		case "htmlurl":
			f.SiteURL = v
		case "title":
			f.Title = v
		case "text":
			text = v
		}
	}
	if f.Title == "" {
		f.Title = text
	}
	return f
}

// opmlOutline is an outline as written by WriteOPML.
type opmlOutline struct {
	Text     string        `xml:"text,attr"`
	Title    string        `xml:"title,attr,omitempty"`
	Type     string        `xml:"type,attr,omitempty"`
	XMLURL   string        `xml:"xmlUrl,attr,omitempty"`
	HTMLURL  string        `xml:"htmlUrl,attr,omitempty"`
	Outlines []opmlOutline `xml:"outline"`
}

type opmlDoc struct {
	XMLName xml.Name      `xml:"opml"`
	Version string        `xml:"version,attr"`
	Title   string        `xml:"head>title"`
	Body    []opmlOutline `xml:"body>outline"`
}

// OPMLGroup is a named list of feeds; WriteOPML nests each group in an
// outline of its own unless there is only one group without a name.
type OPMLGroup struct {
	Name  string
	Feeds []OPMLFeed
}

// WriteOPML writes an OPML 2.0 document listing the groups' feeds.
func WriteOPML(w io.Writer, title string, groups []OPMLGroup) error {
	doc := opmlDoc{Version: "2.0", Title: title}
	for _, g := range groups {
		var outlines []opmlOutline
		for _, f := range g.Feeds {
			text := f.Title
			if text == "" {
				text = f.URL
			}
			outlines = append(outlines, opmlOutline{Text: text, Title: f.Title, Type: "rss", XMLURL: f.URL, HTMLURL: f.SiteURL})
		}
		if len(groups) == 1 && g.Name == "" {
			doc.Body = outlines
			continue
		}
		doc.Body = append(doc.Body, opmlOutline{Text: g.Name, Title: g.Name, Outlines: outlines})
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("engine: writing OPML: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("engine: writing OPML: %w", err)
	}
	return nil
}

// OPMLProblem is a listed feed that was not added, and why.
type OPMLProblem struct {
	URL    string
	Reason string
}

// OPMLImport is what ImportOPML did.
type OPMLImport struct {
	Added      []string      // URLs the chat follows now (normalized)
	NewFeeds   int           // of those, feeds the bot did not know: due at once
	Existing   []string      // URLs the chat followed already
	Duplicates []string      // URLs listed again after their first appearance
	Invalid    []OPMLProblem // entries that are not absolute http(s) URLs
}

// ImportOPML subscribes a chat (and forum topic, 0 = none) to every feed of
// an OPML file. Nothing is fetched: a feed the bot does not know yet is
// due at once and its first poll stores what it lists as seen; a disabled
// feed is enabled again. Duplicates and bad URLs are reported, the rest
// added.
func (e *Engine) ImportOPML(ctx context.Context, r io.Reader, chatID, topicID int64) (OPMLImport, error) {
	listed, err := ParseOPML(r)
	if err != nil {
		return OPMLImport{}, err
	}
	var (
		out  OPMLImport
		refs []storage.FeedRef
		seen = map[string]bool{}
	)
	for _, f := range listed {
		u, err := NormalizeURL(f.URL)
		if err != nil {
			out.Invalid = append(out.Invalid, OPMLProblem{URL: f.URL, Reason: ErrBadURL.Error()})
			continue
		}
		host, err := fetch.HostOf(u)
		if err != nil {
			out.Invalid = append(out.Invalid, OPMLProblem{URL: f.URL, Reason: err.Error()})
			continue
		}
		if seen[u] {
			out.Duplicates = append(out.Duplicates, u)
			continue
		}
		seen[u] = true
		refs = append(refs, storage.FeedRef{URL: u, Host: host})
	}
	results, err := e.store.SubscribeMany(ctx, chatID, topicID, refs, e.opts.Now())
	for i, res := range results {
		switch {
		case res.NewSub:
			out.Added = append(out.Added, refs[i].URL)
		default:
			out.Existing = append(out.Existing, refs[i].URL)
		}
		if res.NewFeed {
			out.NewFeeds++
		}
	}
	return out, err
}

// ExportOPML writes the subscriptions of a chat (all topics), or with
// chatID 0 of every chat, as OPML: one group per chat and topic when there
// is more than one.
func (e *Engine) ExportOPML(ctx context.Context, w io.Writer, chatID int64) error {
	var (
		subs []storage.SubscriptionView
		err  error
	)
	if chatID == 0 {
		subs, err = e.store.AllSubscriptions(ctx)
	} else {
		subs, err = e.store.SubscriptionsByChat(ctx, chatID)
	}
	if err != nil {
		return err
	}
	var groups []OPMLGroup
	index := map[[2]int64]int{}
	for _, s := range subs {
		key := [2]int64{s.ChatID, s.TopicID}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, OPMLGroup{Name: targetName(s.ChatID, s.TopicID)})
		}
		groups[i].Feeds = append(groups[i].Feeds, OPMLFeed{URL: s.FeedURL, Title: s.FeedTitle, SiteURL: s.FeedSiteURL})
	}
	if len(groups) == 1 {
		groups[0].Name = ""
	}
	return WriteOPML(w, "rssbot subscriptions", groups)
}

// targetName names a chat and topic as the bot's commands write them.
func targetName(chatID, topicID int64) string {
	if topicID != 0 {
		return fmt.Sprintf("%d/%d", chatID, topicID)
	}
	return fmt.Sprint(chatID)
}
