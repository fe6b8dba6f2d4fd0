package feed

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"unicode/utf16"
)

// Format names returned by Detect and stored in Feed.Format.
const (
	FormatRSS  = "rss"
	FormatAtom = "atom"
	FormatRDF  = "rdf"
	FormatJSON = "json"
	FormatICal = "ical"
)

// detectLimit bounds how far Detect walks through leading comments, doctypes
// and processing instructions. It is far above gofeed's 4 KB window, because
// some generators put a long licence comment before the root element.
const detectLimit = 1 << 20

// Detect sniffs the format from content: "rss", "atom", "rdf", "json",
// "ical" or "" (not a feed). It skips a byte order mark, whitespace, the XML
// prolog, comments, a doctype and processing instructions, then looks at the
// root element; a JSON object must carry a jsonfeed.org version; a calendar
// starts with BEGIN:VCALENDAR. UTF-16 and UTF-32 bodies are recognised by
// their BOM or by the zero bytes of an ASCII "<" start.
func Detect(body []byte) string {
	body = asciiView(body)
	body = skipBOM(body)
	body = trimLeftSpace(body)
	if len(body) == 0 {
		return ""
	}
	switch body[0] {
	case '{':
		if isJSONFeed(body) {
			return FormatJSON
		}
		return ""
	case '<':
		return detectXML(body)
	}
	if hasPrefixFold(body, "BEGIN:VCALENDAR") {
		return FormatICal
	}
	return ""
}

// detectXML classifies the root element by its local name.
func detectXML(b []byte) string {
	root := rootElement(b)
	if root == nil {
		return ""
	}
	return rootFormat(root[1:])
}

// rootElement skips the prolog and everything else allowed before the root
// element and returns the body from the root's "<" on, or nil.
func rootElement(b []byte) []byte {
	if len(b) > detectLimit {
		b = b[:detectLimit]
	}
	for {
		b = trimLeftSpace(b)
		if len(b) < 2 || b[0] != '<' {
			return nil
		}
		var end []byte
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			end = []byte("?>")
		case bytes.HasPrefix(b, []byte("<!--")):
			end = []byte("-->")
		case bytes.HasPrefix(b, []byte("<!")):
			b = skipDoctype(b)
			if b == nil {
				return nil
			}
			continue
		default:
			return b
		}
		i := bytes.Index(b[2:], end)
		if i < 0 {
			return nil
		}
		b = b[2+i+len(end):]
	}
}

// skipDoctype skips a <!DOCTYPE …> declaration, including an internal subset
// in brackets (where ">" may appear inside entity declarations). It returns
// nil when the declaration does not end.
func skipDoctype(b []byte) []byte {
	depth := 0
	var quote byte
	for i := 2; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			return b[i+1:]
		}
	}
	return nil
}

// rootFormat maps the root element's local name (after any prefix) to a format.
func rootFormat(b []byte) string {
	end := 0
	for end < len(b) && !isNameEnd(b[end]) {
		end++
	}
	name := b[:end]
	if i := bytes.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	switch string(bytes.ToLower(name)) {
	case "rss":
		return FormatRSS
	case "feed":
		return FormatAtom
	case "rdf":
		return FormatRDF
	}
	return ""
}

func isNameEnd(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/'
}

// isJSONFeed reports whether body is a JSON object whose "version" names
// jsonfeed.org. It streams the top-level keys and stops at "version", which
// feeds put first, so the rest of the document is not scanned. A bare
// version number ("1", "1.0", "1.1", as some generators and gofeed's
// fixtures write) counts only together with an "items" member.
func isJSONFeed(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	bareVersion, hasItems := false, false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "version":
			var v string
			if dec.Decode(&v) != nil {
				return false
			}
			if strings.Contains(v, "jsonfeed.org/version") {
				return true
			}
			switch strings.TrimSpace(v) {
			case "1", "1.0", "1.1":
				bareVersion = true
			default:
				return false
			}
		case "items":
			hasItems = true
			fallthrough
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
		if bareVersion && hasItems {
			return true
		}
	}
	return false
}

func skipBOM(b []byte) []byte {
	return bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n' || b[0] == '\f') {
		b = b[1:]
	}
	return b
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// asciiView returns an 8-bit view of a UTF-16 or UTF-32 body (by BOM or by
// the zero-byte pattern of a leading ASCII character) so that sniffing sees
// the markup; other bodies are returned as they are. Only a bounded prefix
// is converted: sniffing needs no more.
func asciiView(b []byte) []byte {
	enc := unicodeEncoding(b)
	if enc == "" || enc == "utf-8" {
		return b
	}
	prefix := b[:min(len(b), 4*detectLimit)]
	decoded, err := decodeUnicode(prefix, enc)
	if err != nil {
		return b
	}
	return decoded
}

// unicodeEncoding recognises a BOM or the zero-byte layout of "<" in the
// UTF-16/32 encodings (XML 1.0 appendix F). It returns "" when unsure.
func unicodeEncoding(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0x00, 0x00, 0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0, 0, 0, '<'}):
		return "utf-32be"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0x00, 0x00}), bytes.HasPrefix(b, []byte{'<', 0, 0, 0}):
		return "utf-32le"
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return "utf-8"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}), bytes.HasPrefix(b, []byte{0, '<', 0, '?'}), bytes.HasPrefix(b, []byte{0, '<', 0}):
		return "utf-16be"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}), bytes.HasPrefix(b, []byte{'<', 0, '?', 0}), bytes.HasPrefix(b, []byte{'<', 0}):
		return "utf-16le"
	}
	return ""
}

// decodeUnicode converts UTF-16/32 (either byte order, BOM optional) to UTF-8.
func decodeUnicode(b []byte, enc string) ([]byte, error) {
	var out []rune
	switch enc {
	case "utf-16be", "utf-16le":
		b = bytes.TrimPrefix(bytes.TrimPrefix(b, []byte{0xFE, 0xFF}), []byte{0xFF, 0xFE})
		u := make([]uint16, len(b)/2)
		for i := range u {
			if enc == "utf-16be" {
				u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			} else {
				u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
			}
		}
		out = utf16.Decode(u)
	case "utf-32be", "utf-32le":
		b = bytes.TrimPrefix(bytes.TrimPrefix(b, []byte{0, 0, 0xFE, 0xFF}), []byte{0xFF, 0xFE, 0, 0})
		out = make([]rune, len(b)/4)
		for i := range out {
			q := b[4*i : 4*i+4]
			if enc == "utf-32be" {
				out[i] = rune(q[0])<<24 | rune(q[1])<<16 | rune(q[2])<<8 | rune(q[3])
			} else {
				out[i] = rune(q[3])<<24 | rune(q[2])<<16 | rune(q[1])<<8 | rune(q[0])
			}
		}
	}
	return []byte(string(out)), nil
}

// rootXMLBase returns the xml:base attribute of the root element, if any.
func rootXMLBase(body []byte) string {
	root := rootElement(body)
	if root == nil {
		return ""
	}
	end := bytes.IndexByte(root, '>')
	if end < 0 {
		return ""
	}
	tag := root[:end]
	i := bytes.Index(tag, []byte("xml:base"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(tag[i+len("xml:base"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return ""
	}
	return html.UnescapeString(string(rest[1 : 1+j]))
}
