package discover

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// maxHTMLLinks bounds the alternates taken from one page.
const maxHTMLLinks = 64

// alternate is one <link rel="alternate"> as written in the page.
type alternate struct {
	href, typ, title string
}

// declaredInHTML returns the feeds a page declares in its head, with hrefs
// resolved against its <base> and final URL.
func declaredInHTML(body []byte, contentType string, final *url.URL) []Candidate {
	baseHref, alts := scanHead(body, contentType)
	base := final
	if baseHref != "" {
		if b, err := final.Parse(strings.TrimSpace(baseHref)); err == nil {
			base = b
		}
	}
	var out []Candidate
	for _, a := range alts {
		ref, err := base.Parse(strings.TrimSpace(a.href))
		if err != nil || (ref.Scheme != "http" && ref.Scheme != "https") || ref.Host == "" {
			continue
		}
		ref.Fragment, ref.RawFragment = "", ""
		if typ, ok := feedType(a.typ, ref.String(), a.title); ok {
			out = append(out, Candidate{URL: ref.String(), Title: a.title, Type: typ})
		}
	}
	return out
}

// scanHead tokenizes the page up to </head> or <body> and collects the
// first <base href> and every <link> whose rel includes "alternate". Only
// the head is read: that is where the elements belong, and a page can be
// megabytes long.
func scanHead(body []byte, contentType string) (baseHref string, alts []alternate) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		r = bytes.NewReader(body) // unknown charset: hrefs are ASCII anyway
	}
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return baseHref, alts
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return baseHref, alts
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return baseHref, alts
			case "base":
				if href, ok := attrs(z, hasAttr)["href"]; ok && baseHref == "" {
					baseHref = href
				}
			case "link":
				if a, ok := alternateLink(attrs(z, hasAttr)); ok && len(alts) < maxHTMLLinks {
					alts = append(alts, a)
				}
			}
		}
	}
}

// alternateLink reads a <link>'s attributes as an alternate, if it is one.
func alternateLink(at map[string]string) (alternate, bool) {
	href, ok := at["href"]
	if !ok || strings.TrimSpace(href) == "" {
		return alternate{}, false
	}
	for rel := range strings.FieldsSeq(strings.ToLower(at["rel"])) {
		if rel == "alternate" {
			return alternate{href: href, typ: at["type"], title: collapseSpace(at["title"])}, true
		}
	}
	return alternate{}, false
}

// attrs collects a tag's attributes; the first of a repeated name wins, as
// in browsers.
func attrs(z *html.Tokenizer, more bool) map[string]string {
	out := make(map[string]string, 4)
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if _, seen := out[string(k)]; !seen {
			out[string(k)] = string(v)
		}
	}
	return out
}

func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
