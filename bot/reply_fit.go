package bot

import (
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// maxPlainLine is how many characters of a single over-long reply line
// are kept, as plain text, leaving room for the rest of a message.
const maxPlainLine = 4000

// fitReply makes a reply Telegram accepts. A reply within the limits is
// sent as it is. A longer one (a listing of long rules, an error echoing a
// huge argument) is sent in several messages cut at line ends, since one
// refused message would leave the admin with no answer at all; a single
// line that is too long on its own is shortened to plain text.
func fitReply(text string) []string {
	if fitsMessage(text) {
		return []string{text}
	}
	var parts []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) != "" && !fitsMessage(line) {
			line = plainLine(line)
		}
		if cur == "" {
			cur = line
			continue
		}
		if joined := cur + "\n" + line; fitsMessage(joined) {
			cur = joined
			continue
		}
		if fitsMessage(cur) {
			parts = append(parts, cur)
		}
		cur = line
	}
	if fitsMessage(cur) {
		parts = append(parts, cur)
	}
	return parts
}

// fitsMessage reports whether Telegram accepts text as an HTML message.
func fitsMessage(text string) bool {
	_, err := tghtml.CheckText(text, string(models.ParseModeHTML))
	return err == nil
}

// plainLine is a line's visible text, shortened and escaped again.
func plainLine(line string) string {
	plain, err := tghtml.ParseHTML(line)
	if err != nil {
		plain = line
	}
	return escape(clip(plain, maxPlainLine))
}
