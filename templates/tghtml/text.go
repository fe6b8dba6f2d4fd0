package tghtml

import "strings"

// Telegram's limits on message text (Bot API "Limits"; TDLib's message_text_length_max
// and message_caption_length_max; the Bot API server's raw text size check).
const (
	MaxTextLength    = 4096  // code points after entity parsing and trimming
	MaxCaptionLength = 1024  // code points after entity parsing and trimming
	MaxRawTextBytes  = 32768 // bytes of the text parameter before parsing
)

// Formatted is a text as Telegram stores it: the visible text, trimmed, and its
// entities.
type Formatted struct {
	Text     string
	Entities []Entity
}

// ParseText parses text under parseMode ("HTML" in any letter case, or "" for
// plain text) and trims it as Telegram does before it checks lengths. Markdown
// modes are accepted but not parsed: their text counts as written. Any other mode
// fails with "Bad Request: unsupported parse_mode". A non-nil error is always an
// *Error.
func ParseText(text, parseMode string) (Formatted, error) {
	f, err := parseText(text, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	return f, nil
}

func parseText(text, parseMode string) (Formatted, *Error) {
	var f Formatted
	switch strings.ToLower(parseMode) {
	case "html":
		p := htmlParser{src: text, out: make([]byte, 0, len(text))}
		if detail := p.run(); detail != "" {
			return Formatted{}, refuse(DescParsePrefix + detail)
		}
		sortEntities(p.entities)
		f = Formatted{Text: string(p.out), Entities: p.entities}
	case "", "markdown", "markdownv2":
		f = Formatted{Text: text}
	default:
		return Formatted{}, refuse(DescUnsupportedParseMode)
	}
	f = trimFormatted(f)
	f.Entities = dropForbiddenNesting(f.Entities)
	return f, nil
}

// CheckText validates the text of sendMessage or editMessageText and returns
// what the recipient will see, or Telegram's refusal as an *Error: raw size,
// parse errors, emptiness after trimming, and the 4096 code point limit.
func CheckText(text, parseMode string) (Formatted, error) {
	f, err := checkText(text, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	return f, nil
}

func checkText(text, parseMode string) (Formatted, *Error) {
	if len(text) > MaxRawTextBytes {
		return Formatted{}, refuse(DescRawTextTooLong)
	}
	if text == "" {
		return Formatted{}, refuse(DescTextEmpty)
	}
	f, err := parseText(text, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	if f.Text == "" {
		return Formatted{}, refuse(DescTextEmpty)
	}
	if TextLength(f.Text) > MaxTextLength {
		return Formatted{}, refuse(DescTooLong)
	}
	return f, nil
}

// CheckCaption validates a media caption (which may be empty) and returns what
// the recipient will see, or Telegram's refusal as an *Error: parse errors and
// the 1024 code point limit.
func CheckCaption(caption, parseMode string) (Formatted, error) {
	f, err := checkCaption(caption, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	return f, nil
}

func checkCaption(caption, parseMode string) (Formatted, *Error) {
	if caption == "" {
		return Formatted{}, nil
	}
	f, err := parseText(caption, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	if TextLength(f.Text) > MaxCaptionLength {
		return Formatted{}, refuse(DescCaptionTooLong)
	}
	return f, nil
}

// TextLength counts characters as Telegram counts text length: Unicode code
// points (TDLib's utf8_length counts the first bytes of UTF-8 sequences).
func TextLength(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// UTF16Len counts the UTF-16 code units of s, the unit of entity offsets.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c&0xC0 != 0x80 {
			n++
			if c >= 0xF0 {
				n++
			}
		}
	}
	return n
}

func isTrimSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// TrimSpace trims s as Telegram trims a text before measuring it.
func TrimSpace(s string) string {
	start, end := 0, len(s)
	for start < end && isTrimSpace(s[start]) {
		start++
	}
	for end > start && isTrimSpace(s[end-1]) {
		end--
	}
	return s[start:end]
}

// trimFormatted removes leading and trailing white space and clips the entities
// to what remains, dropping those left empty.
func trimFormatted(f Formatted) Formatted {
	start, end := 0, len(f.Text)
	for start < end && isTrimSpace(f.Text[start]) {
		start++
	}
	for end > start && isTrimSpace(f.Text[end-1]) {
		end--
	}
	if start == 0 && end == len(f.Text) {
		return f
	}
	// The trimmed bytes are ASCII, so bytes and UTF-16 units agree there.
	lo, hi := start, start+UTF16Len(f.Text[start:end])
	out := Formatted{Text: f.Text[start:end]}
	for _, e := range f.Entities {
		from, to := max(e.Offset, lo), min(e.Offset+e.Length, hi)
		if to <= from {
			continue
		}
		e.Offset, e.Length = from-lo, to-from
		out.Entities = append(out.Entities, e)
	}
	return out
}
