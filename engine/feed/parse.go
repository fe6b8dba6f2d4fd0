package feed

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// DefaultMaxDataURLBytes is the default limit on a decoded data: image, the
// same as the limit on downloaded media (MEDIA_MAX_BYTES).
const DefaultMaxDataURLBytes = 20 << 20

// Options tune parsing. The zero value means the defaults.
type Options struct {
	// MaxDataURLBytes limits the decoded size of a data: image URL; larger
	// ones are dropped. 0 means DefaultMaxDataURLBytes.
	MaxDataURLBytes int64
}

func (o Options) maxDataURLBytes() int64 {
	if o.MaxDataURLBytes > 0 {
		return o.MaxDataURLBytes
	}
	return DefaultMaxDataURLBytes
}

// ErrNotFeed is wrapped by the error Parse returns for a body that is not
// in any supported format.
var ErrNotFeed = errors.New("feed: not a feed")

// Parse parses body (any supported format) fetched from baseURL with the
// given HTTP Content-Type, with default options.
func Parse(body []byte, contentType, baseURL string) (*Feed, error) {
	return ParseWith(body, contentType, baseURL, Options{})
}

// ParseWith is Parse with options.
func ParseWith(body []byte, contentType, baseURL string, opts Options) (*Feed, error) {
	body, err := toUTF8(body, contentType)
	if err != nil {
		return nil, fmt.Errorf("feed: decode charset: %w", err)
	}
	format := Detect(body)
	c := converter{res: newResolver(baseURL), doc: newResolver(baseURL), opts: opts}
	if format == FormatRSS || format == FormatAtom || format == FormatRDF {
		body = closeTruncatedEndTag(body)
		// A root xml:base is the base for everything in the document,
		// including HTML content that gofeed leaves alone in RSS.
		if xb := rootXMLBase(body); xb != "" {
			if abs := c.res.resolve(xb); hasScheme(abs) {
				c.res = newResolver(abs)
			}
		}
	}
	var f *Feed
	switch format {
	case FormatRSS, FormatRDF:
		f, err = c.parseRSS(body)
	case FormatAtom:
		f, err = c.parseAtom(body)
	case FormatJSON:
		f, err = c.parseJSON(body)
	case FormatICal:
		f, err = c.parseICal(body)
	default:
		return nil, notFeedError(body, contentType)
	}
	if err != nil {
		return nil, err
	}
	f.Format = format
	f.Description = c.res.resolveHTMLURLs(f.Description)
	f.Entries = disambiguate(f.Entries)
	for i := range f.Entries {
		f.Entries[i].Checksum = checksum(&f.Entries[i])
	}
	return f, nil
}

// notFeedError names what the body looks like, so the admin can tell a
// login page from an empty response.
func notFeedError(body []byte, contentType string) error {
	b := trimLeftSpace(skipBOM(body))
	head := bytes.ToLower(b[:min(len(b), 1024)])
	var what string
	switch {
	case len(b) == 0:
		what = "the body is empty"
	case bytes.Contains(head, []byte("<html")) || bytes.Contains(head, []byte("<!doctype html")) ||
		strings.Contains(strings.ToLower(contentType), "html"):
		what = "looks like an HTML page"
	case b[0] == '{' || b[0] == '[':
		what = "JSON without a jsonfeed.org version"
	case b[0] == '<':
		what = "XML whose root is not rss, feed or RDF"
	default:
		what = "unrecognised content"
	}
	return fmt.Errorf("%w (%s)", ErrNotFeed, what)
}

// closeTruncatedEndTag repairs a document whose last end tag lost its ">"
// ("…</rss"), a truncation that leaves every entry intact but makes the
// XML decoder fail at EOF.
func closeTruncatedEndTag(body []byte) []byte {
	trimmed := bytes.TrimRight(body, " \t\r\n")
	i := bytes.LastIndex(trimmed, []byte("</"))
	if i < 0 || i+2 == len(trimmed) {
		return body
	}
	for _, c := range trimmed[i+2:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ':' || c == '-' || c == '_' || c == '.') {
			return body
		}
	}
	out := make([]byte, len(trimmed), len(trimmed)+1)
	copy(out, trimmed)
	return append(out, '>')
}
