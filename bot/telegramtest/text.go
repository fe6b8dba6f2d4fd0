package telegramtest

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Telegram's limits on message text (Bot API "Limits"; TDLib's message_text_length_max
// and message_caption_length_max; the Bot API server's raw text size check).
const (
	MaxTextLength    = 4096  // code points after entity parsing and trimming
	MaxCaptionLength = 1024  // code points after entity parsing and trimming
	MaxRawTextBytes  = 32768 // bytes of the text parameter before parsing
)

// Entity is a MessageEntity as the Bot API reports it; offsets and lengths are in
// UTF-16 code units.
type Entity struct {
	Type           string      `json:"type"`
	Offset         int         `json:"offset"`
	Length         int         `json:"length"`
	URL            string      `json:"url,omitempty"`
	User           *EntityUser `json:"user,omitempty"`
	Language       string      `json:"language,omitempty"`
	CustomEmojiID  string      `json:"custom_emoji_id,omitempty"`
	UnixTime       int64       `json:"unix_time,omitempty"`
	DateTimeFormat string      `json:"date_time_format,omitempty"`
}

// EntityUser is the user of a text_mention entity.
type EntityUser struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
}

// Formatted is a text as Telegram stores it: the visible text, trimmed, and its
// entities.
type Formatted struct {
	Text     string
	Entities []Entity
}

// ParseText parses text under parseMode ("HTML" in any letter case, or "" for
// plain text) and trims it as Telegram does before it checks lengths. Markdown
// modes are accepted but not parsed: their text counts as written. Any other mode
// fails with "Bad Request: unsupported parse_mode".
func ParseText(text, parseMode string) (Formatted, error) {
	f, err := parseText(text, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	return f, nil
}

func parseText(text, parseMode string) (Formatted, *APIError) {
	var f Formatted
	switch strings.ToLower(parseMode) {
	case "html":
		plain, entities, err := parseHTMLEntities(text)
		if err != nil {
			return Formatted{}, err
		}
		f = Formatted{Text: plain, Entities: entities}
	case "", "markdown", "markdownv2":
		f = Formatted{Text: text}
	default:
		return Formatted{}, badRequest("Bad Request: unsupported parse_mode")
	}
	f = trimFormatted(f)
	f.Entities = dropForbiddenNesting(f.Entities)
	return f, nil
}

// CheckText validates the text of sendMessage or editMessageText and returns nil
// or the error Telegram answers with: raw size, parse errors, emptiness after
// trimming, and the 4096 code point limit.
func CheckText(text, parseMode string) error {
	if _, err := checkText(text, parseMode); err != nil {
		return err
	}
	return nil
}

func checkText(text, parseMode string) (Formatted, *APIError) {
	if len(text) > MaxRawTextBytes {
		return Formatted{}, badRequest(DescRawTextTooLong)
	}
	if text == "" {
		return Formatted{}, badRequest(DescTextEmpty)
	}
	f, err := parseText(text, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	if f.Text == "" {
		return Formatted{}, badRequest(DescTextEmpty)
	}
	if TextLength(f.Text) > MaxTextLength {
		return Formatted{}, badRequest(DescTooLong)
	}
	return f, nil
}

// CheckCaption validates a media caption (which may be empty) and returns nil or
// Telegram's error: parse errors and the 1024 code point limit.
func CheckCaption(caption, parseMode string) error {
	if _, err := checkCaption(caption, parseMode); err != nil {
		return err
	}
	return nil
}

func checkCaption(caption, parseMode string) (Formatted, *APIError) {
	if caption == "" {
		return Formatted{}, nil
	}
	f, err := parseText(caption, parseMode)
	if err != nil {
		return Formatted{}, err
	}
	if TextLength(f.Text) > MaxCaptionLength {
		return Formatted{}, badRequest(DescCaptionTooLong)
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

// utf16Len counts UTF-16 code units the way the parser does.
func utf16Len(s string) int {
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
	lo, hi := start, start+utf16Len(f.Text[start:end])
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

// dropForbiddenNesting applies Telegram's nesting rules to properly nested
// entities (HTML can't produce overlapping ones): bold, italic, underline,
// strikethrough and spoiler may sit inside anything but pre and code; blockquotes
// don't nest; the other kinds can't contain each other. Telegram drops what breaks
// a rule rather than failing. Entities must be sorted.
func dropForbiddenNesting(entities []Entity) []Entity {
	var kept, open []Entity
	for _, e := range entities {
		for len(open) > 0 {
			top := open[len(open)-1]
			if e.Offset < top.Offset+top.Length {
				break
			}
			open = open[:len(open)-1]
		}
		if nestingAllowed(open, e) {
			kept = append(kept, e)
			open = append(open, e)
		}
	}
	return kept
}

func nestingAllowed(ancestors []Entity, e Entity) bool {
	for _, a := range ancestors {
		ok := pairAllowed(a.Type, e.Type)
		if a.Offset == e.Offset && a.Length == e.Length {
			// Same range: either may count as the outer one.
			ok = ok || pairAllowed(e.Type, a.Type)
		}
		if !ok {
			return false
		}
	}
	return true
}

// pairAllowed reports whether an inner entity may sit inside an outer one.
func pairAllowed(outer, inner string) bool {
	switch {
	case outer == "pre" || outer == "code":
		return false
	case isBlockquote(outer) && isBlockquote(inner):
		return false
	case isStyle(inner) || isBlockquote(outer) || isStyle(outer):
		return true
	}
	return false
}

func isStyle(t string) bool {
	switch t {
	case "bold", "italic", "underline", "strikethrough", "spoiler":
		return true
	}
	return false
}

func isBlockquote(t string) bool { return t == "blockquote" || t == "expandable_blockquote" }

// entityPriority orders entities that share a range, as TDLib's sort does.
func entityPriority(e Entity) int {
	switch e.Type {
	case "blockquote":
		return 0
	case "expandable_blockquote":
		return 1
	case "pre":
		if e.Language != "" {
			return 10
		}
		return 11
	case "code":
		return 20
	case "text_link", "text_mention":
		return 49
	case "bold":
		return 90
	case "italic":
		return 91
	case "underline":
		return 92
	case "strikethrough":
		return 93
	case "spoiler":
		return 94
	case "custom_emoji":
		return 99
	}
	return 50
}

// sortEntities orders by offset, then longer first, then priority.
func sortEntities(entities []Entity) {
	sort.SliceStable(entities, func(i, j int) bool {
		a, b := entities[i], entities[j]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Length != b.Length {
			return a.Length > b.Length
		}
		return entityPriority(a) < entityPriority(b)
	})
}

// linkUserID recognises tg://user?id=N links, which become text mentions.
func linkUserID(link string) (int64, bool) {
	l := strings.ToLower(strings.TrimSpace(link))
	rest, ok := strings.CutPrefix(l, "tg:")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "//")
	rest, ok = strings.CutPrefix(rest, "user")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "/")
	query, ok := strings.CutPrefix(rest, "?")
	if !ok {
		return 0, false
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(values.Get("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// checkLink approximates TDLib's link check: http(s) links need a host, a link
// without a scheme is taken as http, tg: and ton: links pass, anything else is
// dropped.
func checkLink(link string) (string, bool) {
	link = strings.TrimSpace(link)
	if link == "" {
		return "", false
	}
	if !strings.Contains(link, "://") && !strings.HasPrefix(strings.ToLower(link), "tg:") {
		link = "http://" + link
	}
	u, err := url.Parse(link)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Hostname() == "" {
			return "", false
		}
	case "tg", "ton", "tonsite":
	default:
		return "", false
	}
	return link, true
}
