package fetch

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// maxLinks bounds what one response's Link headers can make us hold.
const maxLinks = 256

// ParseLinkHeader parses Link header values (RFC 8288) into one Link per
// relation type, in header order. Targets are resolved against base when
// it is not nil; a target that does not parse, and a link without rel, are
// skipped; only the first rel, type, title and title* of a link count.
// title* (RFC 8187, UTF-8 or ISO-8859-1) wins over title. Malformed parts
// are skipped up to the next link rather than failing the whole header.
func ParseLinkHeader(values []string, base *url.URL) []Link {
	var links []Link
	for _, v := range values {
		s := v
		for len(links) < maxLinks {
			s = strings.TrimLeft(s, " \t,")
			if s == "" {
				break
			}
			if s[0] != '<' {
				s = skipPastComma(s)
				continue
			}
			end := strings.IndexByte(s, '>')
			if end < 0 {
				break
			}
			target := strings.TrimSpace(s[1:end])
			var params linkParams
			params, s = parseLinkParams(s[end+1:])
			links = params.appendLinks(links, target, base)
		}
	}
	if len(links) > maxLinks {
		links = links[:maxLinks]
	}
	return links
}

// linkParams holds the parameters of one link-value that matter here.
type linkParams struct {
	rel, typ, title, titleExt string
	seen                      uint8 // bit per parameter: first occurrence wins
}

const (
	seenRel = 1 << iota
	seenType
	seenTitle
	seenTitleExt
)

// parseLinkParams reads `; name=value` pairs up to the comma that ends the
// link-value, and returns what follows it.
func parseLinkParams(s string) (linkParams, string) {
	var p linkParams
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" || s[0] == ',' {
			return p, s
		}
		if s[0] != ';' {
			return p, skipPastComma(s)
		}
		s = strings.TrimLeft(s[1:], " \t")
		i := 0
		for i < len(s) && !strings.ContainsRune("=;, \t", rune(s[i])) {
			i++
		}
		name := strings.ToLower(s[:i])
		s = strings.TrimLeft(s[i:], " \t")
		var value string
		if strings.HasPrefix(s, "=") {
			s = strings.TrimLeft(s[1:], " \t")
			if strings.HasPrefix(s, `"`) {
				value, s = readQuoted(s)
			} else {
				j := 0
				for j < len(s) && !strings.ContainsRune(";, \t", rune(s[j])) {
					j++
				}
				value, s = s[:j], s[j:]
			}
		}
		p.set(name, value)
	}
}

func (p *linkParams) set(name, value string) {
	var bit uint8
	var field *string
	switch name {
	case "rel":
		bit, field = seenRel, &p.rel
	case "type":
		bit, field = seenType, &p.typ
	case "title":
		bit, field = seenTitle, &p.title
	case "title*":
		bit, field = seenTitleExt, &p.titleExt
	default:
		return
	}
	if p.seen&bit == 0 {
		p.seen |= bit
		*field = value
	}
}

// appendLinks adds one Link per relation type of a parsed link-value.
func (p *linkParams) appendLinks(links []Link, target string, base *url.URL) []Link {
	if p.rel == "" {
		return links
	}
	ref, err := url.Parse(target)
	if err != nil {
		return links
	}
	if base != nil {
		ref = base.ResolveReference(ref)
	}
	title := p.title
	if decoded, ok := decodeExtValue(p.titleExt); ok {
		title = decoded
	}
	typ := strings.ToLower(strings.TrimSpace(p.typ))
	for rel := range strings.FieldsSeq(p.rel) {
		if len(links) == maxLinks {
			break
		}
		links = append(links, Link{URL: ref.String(), Rel: strings.ToLower(rel), Type: typ, Title: title})
	}
	return links
}

// skipPastComma drops s up to the next comma outside a quoted string.
func skipPastComma(s string) string {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if inQuote {
				i++
			}
		case '"':
			inQuote = !inQuote
		case ',':
			if !inQuote {
				return s[i:]
			}
		}
	}
	return ""
}

// decodeExtValue decodes an RFC 8187 ext-value: charset'language'pct-text.
func decodeExtValue(v string) (string, bool) {
	charset, rest, ok := strings.Cut(v, "'")
	if !ok {
		return "", false
	}
	_, encoded, ok := strings.Cut(rest, "'")
	if !ok {
		return "", false
	}
	raw, err := url.PathUnescape(encoded)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(charset) {
	case "utf-8":
		if !utf8.ValidString(raw) {
			return "", false
		}
		return raw, true
	case "iso-8859-1":
		var b strings.Builder
		for i := 0; i < len(raw); i++ {
			b.WriteRune(rune(raw[i]))
		}
		return b.String(), true
	}
	return "", false
}
