package tghtml

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The HTML dialect here follows TDLib's parse_html, which the Bot API runs for
// parse_mode=HTML: a byte-oriented scanner over a NUL-terminated string, so reads
// past the end see 0, and 0 counts as white space. Byte offsets in errors are
// offsets into the raw text.

// ParseHTML parses s as Telegram parses parse_mode=HTML text and returns the text
// the recipient sees (tags removed, character references decoded, not yet trimmed),
// or the error Telegram answers with, as an *Error whose description reads
// "Bad Request: can't parse entities: …". It never panics, whatever s holds.
func ParseHTML(s string) (string, error) {
	text, _, err := ParseHTMLEntities(s)
	if err != nil {
		return "", err
	}
	return text, nil
}

// ParseHTMLEntities is ParseHTML that also returns the entities, with offsets and
// lengths in UTF-16 code units as the Bot API reports them, sorted as TDLib sorts
// them. A non-nil error is always an *Error.
func ParseHTMLEntities(s string) (string, []Entity, error) {
	p := htmlParser{src: s, out: make([]byte, 0, len(s))}
	if detail := p.run(); detail != "" {
		return "", nil, &Error{Description: DescParsePrefix + detail}
	}
	sortEntities(p.entities)
	return string(p.out), p.entities, nil
}

// openTag is a start tag waiting for its end tag.
type openTag struct {
	name     string
	argument string // href, language, spoiler class, emoji id, or "1" for expandable
	unix     string // tg-time unix attribute
	format   string // tg-time format attribute
	offset   int    // UTF-16 offset of the entity in the output
	outPos   int    // byte position of the entity in the output
}

type htmlParser struct {
	src       string
	out       []byte
	utf16     int
	entities  []Entity
	stack     []openTag
	surrogate bool
}

// at reads the source as TDLib reads its C string: 0 past the end.
func (p *htmlParser) at(i int) byte {
	if i < len(p.src) {
		return p.src[i]
	}
	return 0
}

// run scans the whole source and returns an error detail, or "" on success.
func (p *htmlParser) run() string {
	for i := 0; i < len(p.src); i++ {
		c := p.src[i]
		if c == '&' {
			if code, next := decodeCharRef(p, i); code != 0 {
				p.appendCode(code)
				i = next - 1
				continue
			}
		}
		if c != '<' {
			p.appendByte(c)
			continue
		}
		var detail string
		if p.at(i+1) != '/' {
			i, detail = p.startTag(i)
		} else {
			i, detail = p.endTag(i)
		}
		if detail != "" {
			return detail
		}
	}
	if len(p.stack) > 0 {
		return `Can't find end tag corresponding to start tag "` + p.stack[len(p.stack)-1].name + `"`
	}
	for i := range p.entities {
		// A language belongs to pre only; a lone code keeps none.
		if p.entities[i].Type == "code" {
			p.entities[i].Language = ""
		}
	}
	if p.surrogate {
		return "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units"
	}
	return ""
}

func (p *htmlParser) appendByte(c byte) {
	if c&0xC0 != 0x80 { // first byte of a character
		p.utf16++
		if c >= 0xF0 { // four-byte characters are surrogate pairs in UTF-16
			p.utf16++
		}
	}
	p.out = append(p.out, c)
}

func (p *htmlParser) appendCode(code uint32) {
	p.utf16++
	if code > 0xFFFF {
		p.utf16++
	}
	if code >= 0xD800 && code <= 0xDFFF {
		// Go's encoder would replace a surrogate with U+FFFD; Telegram rejects it.
		p.surrogate = true
		p.out = append(p.out, 0xED, byte(0x80|(code>>6)&0x3F), byte(0x80|code&0x3F))
		return
	}
	p.out = utf8.AppendRune(p.out, rune(code))
}

// decodeCharRef decodes the character reference at pos (src[pos] == '&'): numeric
// references and the four named ones, with or without ';'. It returns 0 for
// anything else, which then stays literal text.
func decodeCharRef(p *htmlParser, pos int) (code uint32, next int) {
	end := pos + 1
	var v uint64
	if p.at(pos+1) == '#' {
		end++
		if p.at(pos+2) == 'x' {
			end++
			for isHexDigit(p.at(end)) {
				v = v*16 + uint64(hexValue(p.at(end)))
				end++
			}
		} else {
			for isDigit(p.at(end)) {
				v = v*10 + uint64(p.at(end)-'0')
				end++
			}
		}
		if v == 0 || v >= 0x10FFFF || end-pos >= 10 {
			return 0, pos
		}
	} else {
		for isAlpha(p.at(end)) {
			end++
		}
		switch p.src[pos+1 : end] {
		case "lt":
			v = '<'
		case "gt":
			v = '>'
		case "amp":
			v = '&'
		case "quot":
			v = '"'
		default:
			return 0, pos
		}
	}
	if p.at(end) == ';' {
		end++
	}
	return uint32(v), end
}

// startTag reads the start tag at begin and returns the index of its '>'.
func (p *htmlParser) startTag(begin int) (int, string) {
	i := begin + 1
	for !isSpace(p.at(i)) && p.at(i) != '>' {
		i++
	}
	if p.at(i) == 0 {
		return i, "Unclosed start tag at byte offset " + strconv.Itoa(begin)
	}
	tag := openTag{name: asciiLower(p.src[begin+1 : i]), offset: p.utf16, outPos: len(p.out)}
	if !isSupportedTag(tag.name) {
		return i, `Unsupported start tag "` + tag.name + `" at byte offset ` + strconv.Itoa(begin)
	}
	i, detail := p.attributes(&tag, begin, i)
	if detail != "" {
		return i, detail
	}
	if tag.name == "span" && tag.argument != "spoiler" {
		return i, `Tag "span" must have class "tg-spoiler" at byte offset ` + strconv.Itoa(begin)
	}
	p.stack = append(p.stack, tag)
	return i, ""
}

// attributes reads a start tag's attributes from i up to its '>'.
func (p *htmlParser) attributes(tag *openTag, begin, i int) (int, string) {
	unclosedNamed := `Unclosed start tag "` + tag.name + `" at byte offset ` + strconv.Itoa(begin)
	for p.at(i) != '>' {
		for p.at(i) != 0 && isSpace(p.at(i)) {
			i++
		}
		if p.at(i) == '>' {
			break
		}
		nameBegin := i
		for !isSpace(p.at(i)) && !isAttrNameEnd(p.at(i)) {
			i++
		}
		name := p.src[nameBegin:i]
		if name == "" {
			return i, `Empty attribute name in the tag "` + tag.name + `" at byte offset ` + strconv.Itoa(begin)
		}
		for p.at(i) != 0 && isSpace(p.at(i)) {
			i++
		}
		if p.at(i) != '=' {
			if p.at(i) == 0 {
				return i, unclosedNamed
			}
			if tag.name == "blockquote" && name == "expandable" {
				tag.argument = "1"
			}
			continue
		}
		i++
		for p.at(i) != 0 && isSpace(p.at(i)) {
			i++
		}
		if p.at(i) == 0 {
			return i, unclosedNamed
		}
		var value, detail string
		i, value, detail = p.attributeValue(i)
		if detail != "" {
			return i, detail
		}
		if p.at(i) == 0 {
			return i, "Unclosed start tag at byte offset " + strconv.Itoa(begin)
		}
		tag.setAttribute(name, value)
	}
	return i, ""
}

// attributeValue reads a quoted string (references decoded) or a name token
// (letters, digits, '.', '-'; lower-cased, as name tokens are case-insensitive).
func (p *htmlParser) attributeValue(i int) (int, string, string) {
	quote := p.at(i)
	if quote != '"' && quote != '\'' {
		begin := i
		for isAlnum(p.at(i)) || p.at(i) == '.' || p.at(i) == '-' {
			i++
		}
		if !isSpace(p.at(i)) && p.at(i) != '>' {
			return i, "", "Unexpected end of name token at byte offset " + strconv.Itoa(begin)
		}
		return i, asciiLower(p.src[begin:i]), ""
	}
	i++
	var b strings.Builder
	for p.at(i) != quote && p.at(i) != 0 {
		if p.at(i) == '&' {
			if code, next := decodeCharRef(p, i); code != 0 {
				if code >= 0xD800 && code <= 0xDFFF {
					b.WriteString("\uFFFD")
				} else {
					b.WriteRune(rune(code))
				}
				i = next
				continue
			}
		}
		b.WriteByte(p.at(i))
		i++
	}
	if p.at(i) == quote {
		i++
	}
	return i, b.String(), ""
}

// setAttribute keeps the attributes Telegram reads; it ignores all others.
// Attribute names compare case-sensitively, as TDLib compares them.
func (t *openTag) setAttribute(name, value string) {
	switch {
	case t.name == "a" && name == "href", t.name == "tg-emoji" && name == "emoji-id":
		t.argument = value
	case t.name == "code" && name == "class" && strings.HasPrefix(value, "language-"):
		t.argument = value[len("language-"):]
	case t.name == "span" && name == "class" && strings.HasPrefix(value, "tg-"):
		t.argument = value[len("tg-"):]
	case t.name == "blockquote" && name == "expandable":
		t.argument = "1"
	case t.name == "tg-time" && name == "unix":
		t.unix = value
	case t.name == "tg-time" && name == "format":
		t.format = value
	}
}

// endTag reads the end tag at begin, closes the innermost start tag and adds its
// entity; it returns the index of the '>'.
func (p *htmlParser) endTag(begin int) (int, string) {
	if len(p.stack) == 0 {
		return begin + 1, "Unexpected end tag at byte offset " + strconv.Itoa(begin)
	}
	i := begin + 2
	for !isSpace(p.at(i)) && p.at(i) != '>' {
		i++
	}
	name := asciiLower(p.src[begin+2 : i])
	for isSpace(p.at(i)) && p.at(i) != 0 {
		i++
	}
	if p.at(i) != '>' {
		return i, "Unclosed end tag at byte offset " + strconv.Itoa(begin)
	}
	open := p.stack[len(p.stack)-1]
	if name != "" && name != open.name {
		return i, "Unmatched end tag at byte offset " + strconv.Itoa(begin) +
			`, expected "</` + open.name + `>", found "</` + name + `>"`
	}
	p.stack = p.stack[:len(p.stack)-1]
	if p.utf16 > open.offset {
		if detail := p.addEntity(open, p.utf16-open.offset); detail != "" {
			return i, detail
		}
	}
	return i, ""
}

// addEntity turns a closed, non-empty tag into its entity.
func (p *htmlParser) addEntity(t openTag, length int) string {
	e := Entity{Offset: t.offset, Length: length}
	switch t.name {
	case "b", "strong":
		e.Type = "bold"
	case "i", "em":
		e.Type = "italic"
	case "u", "ins":
		e.Type = "underline"
	case "s", "strike", "del":
		e.Type = "strikethrough"
	case "tg-spoiler", "span":
		e.Type = "spoiler"
	case "blockquote":
		e.Type = "blockquote"
		if t.argument != "" {
			e.Type = "expandable_blockquote"
		}
	case "tg-emoji":
		id, err := strconv.ParseInt(t.argument, 10, 64)
		if err != nil || id == 0 {
			return "Invalid custom emoji identifier specified"
		}
		e.Type, e.CustomEmojiID = "custom_emoji", t.argument
	case "tg-time":
		unix, err := strconv.ParseInt(t.unix, 10, 64)
		if err != nil || unix <= 0 {
			return "" // no entity; the text stays
		}
		e.Type, e.UnixTime, e.DateTimeFormat = "date_time", unix, t.format
	case "a":
		return p.addLink(t, e)
	case "pre", "code":
		p.addCode(t, e)
		return ""
	}
	p.entities = append(p.entities, e)
	return ""
}

// addLink adds a text_link, or a text_mention for tg://user?id= links; a link
// Telegram can't use is dropped silently, as Telegram drops it.
func (p *htmlParser) addLink(t openTag, e Entity) string {
	href := t.argument
	if href == "" {
		href = string(p.out[t.outPos:])
	}
	if id, ok := linkUserID(href); ok {
		e.Type = "text_mention"
		e.User = &EntityUser{ID: id}
		p.entities = append(p.entities, e)
		return ""
	}
	if u, ok := checkLink(href); ok {
		e.Type, e.URL = "text_link", u
		p.entities = append(p.entities, e)
	}
	return ""
}

// addCode merges <pre><code class="language-x"> (either nesting order) into one
// pre entity with a language.
func (p *htmlParser) addCode(t openTag, e Entity) {
	var last *Entity
	if n := len(p.entities); n > 0 {
		last = &p.entities[n-1]
	}
	same := last != nil && last.Offset == e.Offset && last.Length == e.Length
	if t.name == "pre" {
		if same && last.Type == "code" && last.Language != "" {
			last.Type = "pre"
			return
		}
		e.Type = "pre"
	} else {
		if same && last.Type == "pre" && t.argument != "" {
			last.Language = t.argument
			return
		}
		e.Type, e.Language = "code", t.argument
	}
	p.entities = append(p.entities, e)
}

func isSupportedTag(name string) bool {
	switch name {
	case "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins",
		"tg-spoiler", "tg-emoji", "tg-time", "span", "pre", "code", "blockquote":
		return true
	}
	return false
}

// isSpace is TDLib's is_space, which counts NUL (the end of its string) as space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0 || c == '\v'
}

func isAttrNameEnd(c byte) bool {
	return c == '=' || c == '>' || c == '/' || c == '"' || c == '\''
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool    { return isAlpha(c) || isDigit(c) }
func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func hexValue(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// asciiLower lower-cases ASCII letters only, as TDLib's to_lower does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
