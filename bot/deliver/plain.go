package deliver

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/rssbot/rssbot/templates"
	"github.com/rssbot/rssbot/templates/tghtml"
)

// PlainText is what a reader would see of Telegram HTML s, for sending it
// again without a parse mode: the validator's own reading when it parses
// s, else a lenient one (tags dropped, character references decoded). It
// is cut to limit characters, as Telegram counts them.
func PlainText(s string, limit int) string {
	text, err := tghtml.ParseHTML(s)
	if err != nil {
		text = lenientText(s)
	}
	text = tghtml.TrimSpace(text)
	if limit > 0 && tghtml.TextLength(text) > limit {
		runes := []rune(text)
		text = strings.TrimRight(string(runes[:limit-1]), " \t\n") + "…"
	}
	return text
}

// lenientText reads s the way browsers read broken markup: text kept,
// tags gone, whatever cannot be a tag kept as text.
func lenientText(s string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		}
	}
}

// plainCall is c (and its fallback) as plain text within Telegram's
// limits: the caption limit for media, the text limit for messages.
func plainCall(c templates.Call) templates.Call {
	limit := tghtml.MaxTextLength
	if c.Method != templates.SendMessage {
		limit = tghtml.MaxCaptionLength
	}
	c.Text = PlainText(c.Text, limit)
	if c.Fallback != nil {
		f := plainCall(*c.Fallback)
		c.Fallback = &f
	}
	return c
}
