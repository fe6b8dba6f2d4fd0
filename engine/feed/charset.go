package feed

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
)

// toUTF8 returns body as UTF-8. The choice of source encoding, in order:
// a Unicode BOM or UTF-16/32 layout; UTF-8 when the bytes are valid UTF-8
// (a prolog or header naming a legacy charset for valid UTF-8 is wrong far
// more often than legacy text happens to be valid UTF-8); otherwise the
// XML prolog's encoding, then the HTTP charset, skipping either when it is
// unknown or claims UTF-8 for bytes that are not; finally windows-1252, the
// usual reality of unlabelled 8-bit feeds. The prolog comes first because
// the document's author wrote it, while servers attach default charsets.
// For XML the prolog's encoding declaration is rewritten so that the XML
// decoder does not convert a second time.
func toUTF8(body []byte, contentType string) ([]byte, error) {
	if enc := unicodeEncoding(body); enc != "" {
		if enc == "utf-8" {
			body = body[3:]
		} else {
			decoded, err := decodeUnicode(body, enc)
			if err != nil {
				return nil, err
			}
			body = decoded
		}
		return fixProlog(body), nil
	}
	if utf8.Valid(body) {
		return fixProlog(demoronize(body)), nil
	}
	for _, label := range []string{prologEncoding(body), contentTypeCharset(contentType)} {
		enc, name := lookupCharset(label)
		if enc == nil || name == "utf-8" {
			continue
		}
		out, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			continue
		}
		return fixProlog(demoronize(out)), nil
	}
	enc, _ := charset.Lookup("windows-1252")
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return nil, err
	}
	return fixProlog(out), nil
}

// lookupCharset resolves a WHATWG encoding label; unknown labels give nil.
func lookupCharset(label string) (encoding.Encoding, string) {
	label = strings.Trim(strings.TrimSpace(label), `"'`)
	if label == "" {
		return nil, ""
	}
	return charset.Lookup(label)
}

// contentTypeCharset returns the charset parameter of an HTTP Content-Type.
func contentTypeCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		// Tolerate sloppy headers such as "text/xml;charset= 'us-ascii'".
		_, after, ok := strings.Cut(strings.ToLower(contentType), "charset")
		if !ok {
			return ""
		}
		after = strings.TrimLeft(after, " =")
		if i := strings.IndexByte(after, ';'); i >= 0 {
			after = after[:i]
		}
		return strings.Trim(strings.TrimSpace(after), `"'`)
	}
	return params["charset"]
}

// xmlProlog returns the XML declaration at the start of b (after
// whitespace), or nil.
func xmlProlog(b []byte) []byte {
	b = trimLeftSpace(b)
	if !bytes.HasPrefix(b, []byte("<?xml")) || len(b) < 6 || !isNameEnd(b[5]) && b[5] != '?' {
		return nil
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 || end > 512 {
		return nil
	}
	return b[:end+2]
}

// prologEncoding returns the encoding pseudo-attribute of the XML prolog.
func prologEncoding(b []byte) string {
	p := xmlProlog(b)
	if p == nil {
		return ""
	}
	i := bytes.Index(p, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(p[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	j := bytes.IndexByte(rest[1:], q)
	if j < 0 {
		return ""
	}
	return string(rest[1 : 1+j])
}

// fixProlog replaces an XML prolog that declares an encoding other than
// UTF-8 with a plain one, because the body has already been converted.
func fixProlog(b []byte) []byte {
	enc := strings.ToLower(prologEncoding(b))
	if enc == "" || enc == "utf-8" || enc == "utf8" {
		return b
	}
	p := xmlProlog(b)
	start := bytes.Index(b, p)
	out := make([]byte, 0, len(b))
	out = append(out, b[:start]...)
	out = append(out, `<?xml version="1.0" encoding="utf-8"?>`...)
	return append(out, b[start+len(p):]...)
}

// demoronize replaces C1 control characters (U+0080–U+009F), which appear
// when windows-1252 text was converted as if it were ISO-8859-1, with the
// windows-1252 characters they stood for (’ for U+0092). Feeds never mean
// the controls themselves.
func demoronize(b []byte) []byte {
	if !hasC1(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xC2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9F {
			if r := windows1252C1[b[i+1]-0x80]; r != 0 {
				out = utf8.AppendRune(out, r)
				i++
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

func hasC1(b []byte) bool {
	for i := bytes.IndexByte(b, 0xC2); i >= 0 && i+1 < len(b); {
		if b[i+1] >= 0x80 && b[i+1] <= 0x9F {
			return true
		}
		next := bytes.IndexByte(b[i+1:], 0xC2)
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// windows1252C1 maps bytes 0x80–0x9F of windows-1252 to Unicode; 0 marks
// the five bytes it leaves undefined.
var windows1252C1 = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}
