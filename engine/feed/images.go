package feed

import (
	"strconv"
	"strings"

	"github.com/mmcdole/gofeed"
	ext "github.com/mmcdole/gofeed/extensions"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// addImage appends an image with a resolved URL unless it is empty or
// already present. A data: URL is kept only when it is an image within the
// size limit, and it gets its DataSHA256 handle.
func (c *converter) addImage(e *Entry, rawURL, title string) {
	u := c.res.resolve(rawURL)
	if u == "" {
		return
	}
	for _, have := range e.Images {
		if have.URL == u {
			return
		}
	}
	img := Image{URL: u, Title: cleanText(title)}
	if _, isData := cutPrefixFold(u, "data:"); isData {
		d, err := parseDataURLHeader(u)
		if err != nil || !strings.HasPrefix(d.mime, "image/") || d.decodedSizeBound() > c.opts.maxDataURLBytes() && d.exactSize() > c.opts.maxDataURLBytes() {
			return
		}
		img.DataSHA256 = DataURLID(u)
	}
	e.Images = append(e.Images, img)
}

// addExtensionImages collects Media RSS (media:content of an image type,
// media:thumbnail, both also inside media:group) and itunes:image.
func (c *converter) addExtensionImages(e *Entry, it *gofeed.Item) {
	media := it.Extensions["media"]
	groups := append([]ext.Extension{{Children: media}}, media["group"]...)
	for _, g := range groups {
		for _, m := range g.Children["content"] {
			if isImageMedia(m.Attrs) {
				c.addImage(e, m.Attrs["url"], firstExtValue(m.Children["title"]))
			}
		}
	}
	for _, g := range groups {
		for _, m := range g.Children["thumbnail"] {
			c.addImage(e, m.Attrs["url"], "")
		}
		for _, m := range g.Children["content"] {
			for _, th := range m.Children["thumbnail"] {
				c.addImage(e, th.Attrs["url"], "")
			}
		}
	}
	if it.ITunesExt != nil {
		c.addImage(e, it.ITunesExt.Image, "")
	}
	for _, im := range it.Extensions["itunes"]["image"] {
		c.addImage(e, im.Attrs["href"], "")
	}
}

func isImageMedia(attrs map[string]string) bool {
	if strings.EqualFold(attrs["medium"], "image") {
		return true
	}
	if t := strings.ToLower(attrs["type"]); t != "" {
		return strings.HasPrefix(t, "image/")
	}
	if attrs["medium"] != "" {
		return false
	}
	return hasImageExtension(attrs["url"])
}

func hasImageExtension(u string) bool {
	u = strings.ToLower(u)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	for _, ext := range []string{".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"} {
		if strings.HasSuffix(u, ext) {
			return true
		}
	}
	return false
}

// addContentImage adds the first real <img> of the content (else of the
// summary).
func (c *converter) addContentImage(e *Entry) {
	for _, doc := range []string{e.ContentHTML, e.Summary} {
		if src := firstImageSrc(doc); src != "" {
			c.addImage(e, src, "")
			return
		}
	}
}

// firstImageSrc returns the best source of the first <img> in an HTML
// fragment that is not a tracking pixel: the largest srcset candidate by
// width or density, else src. It tokenizes only up to that element.
func firstImageSrc(doc string) string {
	if !containsFold(doc, "<img") {
		return ""
	}
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if atom.Lookup(name) != atom.Img || !hasAttr {
				continue
			}
			var src, srcset, width, height string
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				switch string(k) {
				case "src":
					src = string(v)
				case "srcset":
					srcset = string(v)
				case "width":
					width = string(v)
				case "height":
					height = string(v)
				}
			}
			if isPixel(width) && isPixel(height) {
				continue
			}
			if best := bestSrcsetCandidate(srcset); best != "" {
				return best
			}
			if s := strings.TrimSpace(src); s != "" {
				return s
			}
		}
	}
}

func isPixel(dim string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(dim, "px")))
	return err == nil && n <= 1
}

// bestSrcsetCandidate picks the candidate with the largest width
// descriptor; without width descriptors, the largest density (a missing
// descriptor means 1x).
func bestSrcsetCandidate(srcset string) string {
	var bestW, bestX float64
	var byW, byX string
	for _, cand := range parseSrcset(srcset) {
		desc := cand.desc
		if desc == "" {
			desc = "1x"
		}
		v, err := strconv.ParseFloat(desc[:len(desc)-1], 64)
		if err != nil || v <= 0 {
			continue
		}
		switch desc[len(desc)-1] {
		case 'w':
			if v > bestW {
				bestW, byW = v, cand.url
			}
		case 'x':
			if v > bestX {
				bestX, byX = v, cand.url
			}
		}
	}
	return firstNonEmpty(byW, byX)
}

type srcsetCandidate struct{ url, desc string }

// parseSrcset follows the HTML srcset grammar closely enough for feeds: a
// URL is a run of non-space characters (trailing commas end a candidate
// without descriptor), then descriptors run to the next comma. Only the
// first descriptor is kept, lower-cased.
func parseSrcset(s string) []srcsetCandidate {
	var out []srcsetCandidate
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t\r\n\f,")
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t\r\n\f")
		if end < 0 {
			end = len(s)
		}
		u := s[:end]
		s = s[end:]
		if trimmed := strings.TrimRight(u, ","); trimmed != u {
			out = append(out, srcsetCandidate{url: trimmed})
			continue
		}
		descs := s
		if i := strings.IndexByte(s, ','); i >= 0 {
			descs, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		c := srcsetCandidate{url: u}
		if f := strings.Fields(descs); len(f) > 0 {
			c.desc = strings.ToLower(f[0])
		}
		out = append(out, c)
	}
	return out
}

// containsFold reports whether s contains the ASCII needle, ignoring case;
// needle must start with a non-letter (it is matched exactly).
func containsFold(s, needle string) bool {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if s[i] == needle[0] && strings.EqualFold(s[i:i+n], needle) {
			return true
		}
	}
	return false
}
