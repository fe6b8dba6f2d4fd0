package telegramtest

import (
	"errors"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// The validator itself lives in templates/tghtml, shared with the renderer so
// that what rssbot produces and what this server accepts are judged by one
// implementation. This file adapts it to the server's error type.

// Telegram's limits on message text (Bot API "Limits").
const (
	MaxTextLength    = tghtml.MaxTextLength    // code points after entity parsing and trimming
	MaxCaptionLength = tghtml.MaxCaptionLength // code points after entity parsing and trimming
	MaxRawTextBytes  = tghtml.MaxRawTextBytes  // bytes of the text parameter before parsing
)

// Entity is a MessageEntity as the Bot API reports it; offsets and lengths are in
// UTF-16 code units.
type Entity = tghtml.Entity

// EntityUser is the user of a text_mention entity.
type EntityUser = tghtml.EntityUser

// Formatted is a text as Telegram stores it: the visible text, trimmed, and its
// entities.
type Formatted = tghtml.Formatted

// ParseHTML parses s as Telegram parses parse_mode=HTML text and returns the text
// the recipient sees (tags removed, character references decoded, not yet trimmed),
// or the error Telegram answers with, as an *APIError whose description reads
// "Bad Request: can't parse entities: …". It never panics, whatever s holds.
func ParseHTML(s string) (string, error) {
	text, _, err := ParseHTMLEntities(s)
	return text, err
}

// ParseHTMLEntities is ParseHTML that also returns the entities, with offsets and
// lengths in UTF-16 code units as the Bot API reports them, sorted as TDLib sorts
// them.
func ParseHTMLEntities(s string) (string, []Entity, error) {
	text, entities, err := tghtml.ParseHTMLEntities(s)
	if err != nil {
		return "", nil, asAPIError(err)
	}
	return text, entities, nil
}

// ParseText parses text under parseMode ("HTML" in any letter case, or "" for
// plain text) and trims it as Telegram does before it checks lengths. Markdown
// modes are accepted but not parsed: their text counts as written. Any other mode
// fails with "Bad Request: unsupported parse_mode".
func ParseText(text, parseMode string) (Formatted, error) {
	f, err := tghtml.ParseText(text, parseMode)
	if err != nil {
		return Formatted{}, asAPIError(err)
	}
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
	f, err := tghtml.CheckText(text, parseMode)
	if err != nil {
		return Formatted{}, asAPIError(err)
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
	f, err := tghtml.CheckCaption(caption, parseMode)
	if err != nil {
		return Formatted{}, asAPIError(err)
	}
	return f, nil
}

// TextLength counts characters as Telegram counts text length: Unicode code
// points.
func TextLength(s string) int { return tghtml.TextLength(s) }

// utf16Len counts UTF-16 code units, the unit of entity offsets.
func utf16Len(s string) int { return tghtml.UTF16Len(s) }

// asAPIError turns the validator's refusal into the 400 the server answers with.
func asAPIError(err error) *APIError {
	var tgErr *tghtml.Error
	if errors.As(err, &tgErr) {
		return badRequest(tgErr.Description)
	}
	return badRequest("Bad Request: " + err.Error())
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
