package feed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/atom"
	ext "github.com/mmcdole/gofeed/extensions"
	gojson "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"
)

// The translators are stateless; content image scanning is off because
// images.go does it with a tokenizer that stops at the first <img>.
var (
	rssTranslator  = &gofeed.DefaultRSSTranslator{DisableContentImageScan: true}
	atomTranslator = &gofeed.DefaultAtomTranslator{}
	jsonTranslator = &gofeed.DefaultJSONTranslator{}
)

// parseRSS handles RSS 0.9x/2.0 and RSS 1.0 (RDF): gofeed's RSS parser
// reads both. The original rss.Feed is kept for what the universal model
// drops: ttl, skipHours/skipDays, sy:* and atom:link relations.
func (c *converter) parseRSS(body []byte) (*Feed, error) {
	rf, err := (&rss.Parser{}).Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("feed: parse RSS: %w", err)
	}
	uf, err := rssTranslator.Translate(rf)
	if err != nil {
		return nil, fmt.Errorf("feed: translate RSS: %w", err)
	}
	f := c.fromUniversal(uf)
	f.Title = plainTitle(f.Title)
	if f.Description == "" && uf.ITunesExt != nil {
		f.Description = strings.TrimSpace(firstNonEmpty(uf.ITunesExt.Subtitle, uf.ITunesExt.Summary))
	}
	f.Hints = rssHints(rf)
	links := atomLinkExtensions(rf.Extensions)
	f.HubURL = c.res.resolve(links["hub"])
	f.NextURL = c.res.resolve(links["next"])
	if f.SelfURL == "" {
		f.SelfURL = c.res.resolve(links["self"])
	}
	if f.ImageURL == "" && rf.Image != nil {
		f.ImageURL = c.res.resolve(rf.Image.URL)
	}
	var abouts []string
	if rf.Version == "1.0" || strings.HasPrefix(string(trimLeftSpace(body)), "<rdf") || bytes.Contains(body[:min(len(body), 4096)], []byte("rdf:RDF")) {
		abouts = rdfItemAbouts(body, len(rf.Items))
	}
	bodies := c.rssBodies(body, rf)
	for i, it := range uf.Items {
		e := c.fromItem(it)
		e.Title = plainTitle(e.Title)
		ri := rf.Items[i]
		if e.ContentHTML == "" {
			e.ContentHTML = strings.TrimSpace(ri.Custom["fullitem"])
		}
		if e.ContentHTML == "" && bodies != nil {
			if rt := bodies.entries[i]["body"]; rt != nil {
				e.ContentHTML = strings.TrimSpace(rt.markup)
			}
		}
		guid := ""
		if abouts != nil {
			// RSS 1.0 identifies an item by its rdf:about URI.
			guid = abouts[i]
		}
		if ri.GUID != nil && strings.TrimSpace(ri.GUID.Value) != "" {
			guid = ri.GUID.Value
			// An RSS guid is a permalink unless it says otherwise.
			if e.Link == "" && !strings.EqualFold(strings.TrimSpace(ri.GUID.IsPermalink), "false") && looksLikeURL(guid) {
				e.Link = c.res.resolve(guid)
			}
		}
		c.addExtensionImages(&e, it)
		c.finish(&e, guid)
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// parseAtom handles Atom 0.3 and 1.0; the original atom.Feed supplies the
// hub, self and next links.
func (c *converter) parseAtom(body []byte) (*Feed, error) {
	body = rebindAtomRoot(body)
	af, err := (&atom.Parser{}).Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("feed: parse Atom: %w", err)
	}
	uf, err := atomTranslator.Translate(af)
	if err != nil {
		return nil, fmt.Errorf("feed: translate Atom: %w", err)
	}
	f := c.fromUniversal(uf)
	f.Title = plainTitle(f.Title)
	f.Hints = syHints(af.Extensions)
	for _, l := range af.Links {
		c.applyFeedLink(f, l.Rel, l.Href)
	}
	v03 := strings.HasPrefix(af.Version, "0.")
	var raw *rawDoc
	if atomNeedsReread(af) {
		raw = c.rereadAtom(body, len(af.Entries))
	}
	if raw != nil {
		applyAtomFeedRaw(f, raw, v03)
	}
	for i, it := range uf.Items {
		e := c.fromItem(it)
		e.Title = plainTitle(e.Title)
		ae := af.Entries[i]
		if raw != nil {
			applyAtomEntryRaw(&e, raw.entries[i], v03)
		}
		if ae.Content != nil && !isTextualType(ae.Content.Type) && !isText(e.ContentHTML) {
			// RFC 4287 4.1.3.3: other media types are base64; gofeed
			// decodes them, but an image or a PDF is not HTML.
			e.ContentHTML = ""
		}
		if e.Summary == "" && e.ContentHTML == "" && ae.Content != nil && ae.Content.Src != "" {
			e.Link = firstNonEmpty(e.Link, c.res.resolve(ae.Content.Src))
		}
		if len(e.Authors) == 0 {
			e.Authors = personNames(uf.Authors) // RFC 4287 4.2.1: inherited
		}
		c.addExtensionImages(&e, it)
		c.finish(&e, ae.ID)
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// rssBodies rereads the document for items that carry an XHTML body
// (<body xmlns="http://www.w3.org/1999/xhtml">, or a bare <body>), which
// some RSS 2.0 feeds use for full content and which gofeed keeps as text
// only. It returns nil when no item has one, so other feeds are read once.
func (c *converter) rssBodies(body []byte, rf *rss.Feed) *rawDoc {
	need := false
	for _, ri := range rf.Items {
		if _, ok := ri.Custom["body"]; ok || len(ri.Extensions["xhtml"]["body"]) > 0 {
			need = true
			break
		}
	}
	if !need {
		return nil
	}
	doc, err := rereadXML(body, c.doc, rawQuery{
		entry:      "item",
		entryNames: []string{"body"},
		inNS:       func(space string) bool { return space == "" || space == nsXHTML },
	})
	if err != nil || len(doc.entries) != len(rf.Items) {
		return nil
	}
	return doc
}

// jsonHubs is the part of a JSON Feed that gofeed does not decode.
type jsonHubs struct {
	Hubs []struct {
		Type string `json:"type"`
		URL  string `json:"url"`
	} `json:"hubs"`
}

// parseJSON handles JSON Feed 1 and 1.1. next_url comes from json.Feed;
// hubs are read from the raw JSON.
func (c *converter) parseJSON(body []byte) (*Feed, error) {
	jf, err := (&gojson.Parser{}).Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("feed: parse JSON Feed: %w", err)
	}
	uf, err := jsonTranslator.Translate(jf)
	if err != nil {
		return nil, fmt.Errorf("feed: translate JSON Feed: %w", err)
	}
	f := c.fromUniversal(uf)
	f.NextURL = c.res.resolve(jf.NextURL)
	var hubs jsonHubs
	if json.Unmarshal(body, &hubs) == nil {
		for _, h := range hubs.Hubs {
			if strings.EqualFold(strings.TrimSpace(h.Type), "WebSub") {
				f.HubURL = c.res.resolve(h.URL)
				break
			}
		}
	}
	for i, it := range uf.Items {
		e := c.fromItem(it)
		ji := jf.Items[i]
		c.addImage(&e, ji.Image, "")
		c.addImage(&e, ji.BannerImage, "")
		if e.Link == "" {
			e.Link = c.res.resolve(ji.ExternalURL)
		}
		// JSON Feed's summary and content_text are plain text; our
		// summary and content are HTML.
		e.Summary = textToHTML(ji.Summary)
		if ji.ContentHTML == "" {
			e.ContentHTML = textToHTML(ji.ContentText)
		}
		if len(e.Authors) == 0 {
			e.Authors = personNames(uf.Authors) // the feed's author is the item's
		}
		c.finish(&e, ji.ID)
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// applyFeedLink records a feed-level link by its relation.
func (c *converter) applyFeedLink(f *Feed, rel, href string) {
	href = c.res.resolve(href)
	if href == "" {
		return
	}
	switch strings.ToLower(strings.TrimSpace(rel)) {
	case "hub":
		if f.HubURL == "" {
			f.HubURL = href
		}
	case "next":
		if f.NextURL == "" {
			f.NextURL = href
		}
	case "self":
		if f.SelfURL == "" {
			f.SelfURL = href
		}
	}
}

// atomLinkExtensions collects atom:link hrefs inside an RSS channel by rel
// (first of each), whatever prefix the document bound the Atom namespace to.
func atomLinkExtensions(exts ext.Extensions) map[string]string {
	out := map[string]string{}
	for _, prefix := range []string{"atom", "atom10", "atom03"} {
		for _, l := range exts[prefix]["link"] {
			rel := strings.ToLower(strings.TrimSpace(l.Attrs["rel"]))
			if _, ok := out[rel]; !ok && l.Attrs["href"] != "" {
				out[rel] = l.Attrs["href"]
			}
		}
	}
	return out
}

// rssHints reads the publisher's polling hints from an RSS channel.
// sy:* is looked up by gofeed's canonical prefix, which it assigns by the
// namespace URI, so a feed binding the namespace to another prefix works.
func rssHints(rf *rss.Feed) Hints {
	var h Hints
	if n, err := strconv.Atoi(strings.TrimSpace(rf.TTL)); err == nil && n > 0 {
		h.TTLMinutes = n
	}
	for _, s := range rf.SkipHours {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 && n <= 24 {
			n %= 24 // some feeds write 24 for midnight
			if !containsInt(h.SkipHours, n) {
				h.SkipHours = append(h.SkipHours, n)
			}
		}
	}
	for _, s := range rf.SkipDays {
		if d, ok := parseWeekday(s); ok && !containsWeekday(h.SkipDays, d) {
			h.SkipDays = append(h.SkipDays, d)
		}
	}
	sy := syHints(rf.Extensions)
	h.UpdatePeriod, h.UpdateFrequency = sy.UpdatePeriod, sy.UpdateFrequency
	return h
}

// syHints reads the Syndication module (sy:updatePeriod,
// sy:updateFrequency), which RSS 1.0, RSS 2.0 and Atom feeds all use.
func syHints(exts ext.Extensions) Hints {
	var h Hints
	sy := exts["sy"]
	if v := firstExtValue(sy["updatePeriod"]); v != "" {
		switch p := strings.ToLower(v); p {
		case "hourly", "daily", "weekly", "monthly", "yearly":
			h.UpdatePeriod = p
		}
	}
	if n, err := strconv.Atoi(firstExtValue(sy["updateFrequency"])); err == nil && n > 0 {
		h.UpdateFrequency = n
	}
	return h
}

func firstExtValue(list []ext.Extension) string {
	if len(list) == 0 {
		return ""
	}
	return strings.TrimSpace(list[0].Value)
}

func parseWeekday(s string) (time.Weekday, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if s == name || (len(s) >= 3 && strings.HasPrefix(name, s)) {
			return d, true
		}
	}
	return 0, false
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

func containsWeekday(list []time.Weekday, d time.Weekday) bool {
	for _, x := range list {
		if x == d {
			return true
		}
	}
	return false
}

func looksLikeURL(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// rdfItemStart matches the start of an RSS 1.0 item element, any prefix.
var rdfItemStart = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?item[\s>/]`)

// rdfAboutAttr matches an rdf:about attribute (any prefix) in a start tag.
var rdfAboutAttr = regexp.MustCompile(`\s(?:[A-Za-z_][\w.-]*:)?about\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// rdfItemAbouts returns the rdf:about of each item in document order;
// gofeed does not keep it. When the scan does not find exactly want items
// (an item inside a comment or CDATA would shift them) it returns nil and
// no about is used.
func rdfItemAbouts(body []byte, want int) []string {
	locs := rdfItemStart.FindAllIndex(body, -1)
	if len(locs) != want {
		return nil
	}
	out := make([]string, want)
	for i, loc := range locs {
		end := bytes.IndexByte(body[loc[0]:], '>')
		if end < 0 {
			return nil
		}
		if m := rdfAboutAttr.FindSubmatch(body[loc[0] : loc[0]+end]); m != nil {
			out[i] = html.UnescapeString(string(m[1]) + string(m[2]))
		}
	}
	return out
}
