package feed

import (
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
	ext "github.com/mmcdole/gofeed/extensions"
)

// converter turns gofeed's universal model (plus the format-specific
// original) into ours. It carries the per-parse settings.
type converter struct {
	// res resolves against the root's xml:base, else the document URL.
	res resolver
	// doc resolves against the document URL alone (rereadXML applies
	// every xml:base itself).
	doc  resolver
	opts Options
}

// fromUniversal fills the feed-level fields every gofeed format shares.
func (c *converter) fromUniversal(uf *gofeed.Feed) *Feed {
	f := &Feed{
		Title:       cleanText(uf.Title),
		SiteURL:     c.res.resolve(uf.Link),
		Description: strings.TrimSpace(uf.Description),
		Language:    strings.TrimSpace(uf.Language),
		SelfURL:     c.res.resolve(uf.FeedLink),
	}
	if uf.Image != nil {
		f.ImageURL = c.res.resolve(uf.Image.URL)
	}
	f.Entries = make([]Entry, 0, len(uf.Items))
	return f
}

// fromItem converts one universal item, filling what gofeed's translator
// leaves out from the item's extensions: Dublin Core terms dates, every
// dc:creator, and Media RSS title, description and categories.
func (c *converter) fromItem(it *gofeed.Item) Entry {
	e := Entry{
		Title:       cleanText(it.Title),
		Link:        c.res.resolve(it.Link),
		Summary:     strings.TrimSpace(it.Description),
		ContentHTML: strings.TrimSpace(it.Content),
		Authors:     personNames(it.Authors),
		Categories:  uniqueTrimmed(it.Categories),
	}
	if e.Link == "" {
		for _, l := range it.Links {
			if l = c.res.resolve(l); l != "" {
				e.Link = l
				break
			}
		}
	}
	if dc := it.DublinCoreExt; dc != nil && len(dc.Creator) > 1 {
		for _, name := range dc.Creator {
			e.Authors = appendUnique(e.Authors, personName(name, ""))
		}
	}
	c.applyMedia(&e, it.Extensions["media"])
	for _, cat := range it.Extensions["itunes"]["category"] {
		e.Categories = appendITunesCategory(e.Categories, cat)
	}
	dcterms := it.Extensions["dcterms"]
	e.Published = firstTime(
		pickDate(it.PublishedParsed, it.Published),
		pickDate(nil, firstExtValue(dcterms["issued"])),
		pickDate(nil, firstExtValue(dcterms["created"])),
	)
	e.Updated = firstTime(
		pickDate(it.UpdatedParsed, it.Updated),
		pickDate(nil, firstExtValue(dcterms["modified"])),
	)
	if e.Published.IsZero() {
		e.Published = e.Updated
	}
	for _, enc := range it.Enclosures {
		if enc == nil {
			continue
		}
		c.addEnclosure(&e, enc.URL, enc.Type, enc.Length)
	}
	return e
}

// applyMedia uses Media RSS fields (also inside media:group and
// media:content) where the item lacks its own: media:title and
// media:description stand in for title and summary; media:category adds
// categories.
func (c *converter) applyMedia(e *Entry, media map[string][]ext.Extension) {
	if len(media) == 0 {
		return
	}
	scopes := []map[string][]ext.Extension{media}
	for _, g := range media["group"] {
		scopes = append(scopes, g.Children)
	}
	for _, m := range media["content"] {
		scopes = append(scopes, m.Children)
	}
	for _, sc := range scopes {
		if e.Title == "" {
			e.Title = cleanText(firstExtValue(sc["title"]))
		}
		if e.Summary == "" {
			if d := firstExtValue(sc["description"]); d != "" {
				e.Summary = d
				if len(sc["description"]) > 0 && sc["description"][0].Attrs["type"] != "html" {
					e.Summary = html.EscapeString(d)
				}
			}
		}
		for _, cat := range sc["category"] {
			e.Categories = appendUnique(e.Categories, strings.TrimSpace(cat.Value))
		}
	}
}

// appendITunesCategory adds an itunes:category's text and its nested
// subcategories.
func appendITunesCategory(list []string, cat ext.Extension) []string {
	list = appendUnique(list, strings.TrimSpace(cat.Attrs["text"]))
	for _, sub := range cat.Children["category"] {
		list = appendITunesCategory(list, sub)
	}
	return list
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// finish settles identity and derived images once every source of fields
// has been applied to the entry.
func (c *converter) finish(e *Entry, guid string) {
	e.Summary = c.res.resolveHTMLURLs(e.Summary)
	e.ContentHTML = c.res.resolveHTMLURLs(e.ContentHTML)
	c.addContentImage(e)
	e.Identity = baseIdentity(guid, e)
}

// addEnclosure appends an enclosure with a resolved URL, skipping empty and
// repeated URLs; image enclosures also count as images.
func (c *converter) addEnclosure(e *Entry, rawURL, typ, length string) {
	u := c.res.resolve(rawURL)
	if u == "" {
		return
	}
	for _, have := range e.Enclosures {
		if have.URL == u {
			return
		}
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(length), 10, 64)
	if n < 0 {
		n = 0
	}
	typ = strings.TrimSpace(typ)
	e.Enclosures = append(e.Enclosures, Enclosure{URL: u, Type: typ, Length: n})
	if strings.HasPrefix(strings.ToLower(typ), "image/") {
		c.addImage(e, u, "")
	}
}

// pickDate prefers gofeed's parsed time and falls back to our own parser
// for the raw text; an unparseable date stays unset.
func pickDate(parsed *time.Time, raw string) time.Time {
	if parsed != nil && !parsed.IsZero() {
		return parsed.UTC()
	}
	if t, ok := ParseDate(raw); ok {
		return t
	}
	return time.Time{}
}

func personNames(people []*gofeed.Person) []string {
	var out []string
	for _, p := range people {
		if p != nil {
			out = appendUnique(out, personName(p.Name, p.Email))
		}
	}
	return out
}

// personName returns the display name of an author as feeds write it:
// "Name", "Name <mail>", "mail (Name)" or only an address.
func personName(name, email string) string {
	name = cleanText(name)
	if name == "" {
		name = cleanText(email)
	}
	if open := strings.LastIndexByte(name, '<'); open > 0 && strings.HasSuffix(name, ">") && strings.Contains(name[open:], "@") {
		name = strings.TrimSpace(name[:open])
	}
	if open := strings.IndexByte(name, '('); open > 0 && strings.HasSuffix(name, ")") && strings.Contains(name[:open], "@") {
		name = strings.TrimSpace(name[open+1 : len(name)-1])
	}
	return strings.Trim(name, `"`)
}

func appendUnique(list []string, s string) []string {
	if s == "" || containsString(list, s) {
		return list
	}
	return append(list, s)
}

func uniqueTrimmed(in []string) []string {
	var out []string
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s != "" && !containsString(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cleanText trims a plain-text field and folds inner runs of ASCII
// whitespace, which feeds use for indentation inside titles. Other spaces
// (no-break, em space…) are content and stay.
func cleanText(s string) string {
	s = strings.Trim(s, " \t\r\n")
	if !strings.ContainsAny(s, "\t\r\n") && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}
