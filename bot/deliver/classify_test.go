package deliver

import (
	"errors"
	"fmt"
	"testing"

	tgbot "github.com/go-telegram/bot"

	"github.com/rssbot/rssbot/bot/telegramtest"
)

// apiErr builds an error as go-telegram/bot returns it for code and desc.
func apiErr(code int, desc string) error {
	switch code {
	case 400:
		return fmt.Errorf("%w, %s", tgbot.ErrorBadRequest, desc)
	case 401:
		return fmt.Errorf("%w, %s", tgbot.ErrorUnauthorized, desc)
	case 403:
		return fmt.Errorf("%w, %s", tgbot.ErrorForbidden, desc)
	case 404:
		return fmt.Errorf("%w, %s", tgbot.ErrorNotFound, desc)
	}
	return fmt.Errorf("error response from telegram for method sendMessage, %d %s", code, desc)
}

// The rules are BOTAPI.md's error descriptions: what each says about the
// chat, the topic or the post.
func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want Problem
	}{
		{&tgbot.TooManyRequestsError{Message: "too many requests", RetryAfter: 3}, RateLimited},
		{&tgbot.MigrateError{Message: "bad request: " + telegramtest.DescMigrated, MigrateToChatID: -1001}, Migrated},
		// The bot cannot post in the chat.
		{apiErr(403, telegramtest.DescBlocked), ChatGone},
		{apiErr(403, telegramtest.DescKickedGroup), ChatGone},
		{apiErr(403, "Forbidden: bot was kicked from the supergroup chat"), ChatGone},
		{apiErr(403, telegramtest.DescKickedChannel), ChatGone},
		{apiErr(403, telegramtest.DescNotMember), ChatGone},
		{apiErr(403, "Forbidden: bot is not a member of the supergroup chat"), ChatGone},
		{apiErr(403, telegramtest.DescDeactivated), ChatGone},
		{apiErr(403, "Forbidden: the group chat was deleted"), ChatGone},
		{apiErr(403, telegramtest.DescCantInitiate), ChatGone},
		{apiErr(400, telegramtest.DescChatNotFound), ChatGone},
		{apiErr(400, "Bad Request: not enough rights to send text messages to the chat"), ChatGone},
		// The topic is gone.
		{apiErr(400, telegramtest.DescThreadNotFound), TopicGone},
		{apiErr(400, "Bad Request: TOPIC_CLOSED"), TopicGone},
		// The post's HTML.
		{apiErr(400, telegramtest.DescParsePrefix+`Unsupported start tag "p" at byte offset 0`), BadEntities},
		// The bot itself.
		{apiErr(401, telegramtest.DescUnauthorized), BotRefused},
		{apiErr(404, telegramtest.DescNotFound), BotRefused},
		// The post itself: only the image, or the text.
		{apiErr(400, "Bad Request: not enough rights to send photos to the chat"), Refused},
		{apiErr(400, telegramtest.DescTooLong), Refused},
		{apiErr(400, telegramtest.DescWrongFile), Refused},
		// Anything else may pass.
		{apiErr(500, "Internal Server Error"), Transient},
		{apiErr(502, "Bad Gateway"), Transient},
		{errors.New(`Post "http://127.0.0.1/bot1:x/sendMessage": connection reset by peer`), Transient},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("Classify(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestTelegramText(t *testing.T) {
	if got := telegramText(apiErr(403, telegramtest.DescBlocked)); got != telegramtest.DescBlocked {
		t.Errorf("telegramText = %q, want Telegram's description", got)
	}
	if got := telegramText(errors.New("connection reset")); got != "connection reset" {
		t.Errorf("telegramText = %q", got)
	}
}
