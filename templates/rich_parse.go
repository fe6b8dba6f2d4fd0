package templates

import (
	"strconv"
	"unicode/utf8"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// parseTelegramHTML reads Telegram HTML back into rich text, exactly as
// Telegram would read it, trimmed as Telegram trims. It fails with
// Telegram's own refusal for text Telegram would refuse.
func parseTelegramHTML(s string) (richText, error) {
	text, entities, err := tghtml.ParseHTMLEntities(s)
	if err != nil {
		return richText{}, err
	}
	at := utf16Offsets(text)
	r := richText{text: text, spans: make([]span, 0, len(entities))}
	for _, e := range entities {
		if e.Offset+e.Length >= len(at) {
			continue // cannot happen: the parser's offsets lie inside its text
		}
		s, ok := entitySpan(e)
		if !ok {
			continue
		}
		s.start, s.end = at[e.Offset], at[e.Offset+e.Length]
		r.spans = append(r.spans, s)
	}
	return r.normalize().trim(), nil
}

// utf16Offsets maps each UTF-16 offset into text to its byte offset; the
// second unit of a surrogate pair maps to its character's start.
func utf16Offsets(text string) []int {
	at := make([]int, 0, len(text)+1)
	for i, r := range text {
		at = append(at, i)
		if r > 0xFFFF {
			at = append(at, i)
		}
	}
	return append(at, len(text))
}

// entitySpan is the span that serializes back to an entity.
func entitySpan(e tghtml.Entity) (span, bool) {
	switch e.Type {
	case "bold":
		return span{tag: "b"}, true
	case "italic":
		return span{tag: "i"}, true
	case "underline":
		return span{tag: "u"}, true
	case "strikethrough":
		return span{tag: "s"}, true
	case "spoiler":
		return span{tag: "tg-spoiler"}, true
	case "code":
		return span{tag: "code"}, true
	case "pre":
		return span{tag: "pre", arg: e.Language}, true
	case "blockquote":
		return span{tag: "blockquote"}, true
	case "expandable_blockquote":
		return span{tag: "blockquote", arg: "expandable"}, true
	case "text_link":
		return span{tag: "a", arg: e.URL}, true
	case "text_mention":
		if e.User != nil {
			return span{tag: "a", arg: "tg://user?id=" + strconv.FormatInt(e.User.ID, 10)}, true
		}
	case "custom_emoji":
		return span{tag: "tg-emoji", arg: e.CustomEmojiID}, true
	case "date_time":
		return span{tag: "tg-time", arg: strconv.FormatInt(e.UnixTime, 10), arg2: e.DateTimeFormat}, true
	}
	return span{}, false
}

// trim removes the white space Telegram trims from both ends.
func (r richText) trim() richText {
	start, end := 0, len(r.text)
	for start < end && isTrimSpace(r.text[start]) {
		start++
	}
	for end > start && isTrimSpace(r.text[end-1]) {
		end--
	}
	if start == 0 && end == len(r.text) {
		return r
	}
	return r.slice(start, end)
}

func isTrimSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// length is the text's length as Telegram counts it.
func (r richText) length() int { return utf8.RuneCountInString(r.text) }
