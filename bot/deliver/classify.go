package deliver

import (
	"errors"
	"strings"

	tgbot "github.com/go-telegram/bot"
)

// Problem says what a failed Bot API call means for delivery: whose fault
// it is and so what happens to the row.
type Problem int

// The problems, from Telegram's answers (BOTAPI.md "Error descriptions").
const (
	// Transient: network errors, 5xx, anything not recognised. Retried
	// with exponential backoff; after MaxAttempts the row fails.
	Transient Problem = iota
	// RateLimited: 429 with retry_after. The chat (or every chat) waits;
	// the row goes back without counting an attempt.
	RateLimited
	// ChatGone: the bot cannot post in the chat any more (blocked, kicked,
	// not a member, user deactivated, chat deleted or not found, no right
	// to write). The chat's subscriptions pause; rows wait for a resume.
	ChatGone
	// TopicGone: the forum topic was deleted or closed. The topic's
	// subscriptions pause; rows wait for a resume.
	TopicGone
	// Migrated: the group became a supergroup with a new id.
	Migrated
	// BadEntities: Telegram refused the HTML. Sent again as plain text.
	BadEntities
	// BotRefused: 401 or 404, a revoked token or a wrong API URL. Every
	// chat fails alike; nothing is the rows' fault, so they wait.
	BotRefused
	// Refused: any other refusal of this post (400, 403). Retrying cannot
	// change it: the row fails at once.
	Refused
)

var problemNames = [...]string{"transient", "rate_limited", "chat_gone", "topic_gone", "migrated", "bad_entities", "bot_refused", "refused"}

// String names the problem for logs.
func (p Problem) String() string {
	if int(p) < len(problemNames) {
		return problemNames[p]
	}
	return "unknown"
}

// Telegram's descriptions, lower-cased, that mean the bot cannot post in
// the chat. "not enough rights to send text messages" is the chat's, while
// "…to send photos" is only the image's: the text fallback still goes.
var chatGone = []string{
	"bot was blocked by the user",
	"bot was kicked from the",
	"bot is not a member of the",
	"user is deactivated",
	"group chat was deleted",
	"chat not found",
	"bot can't initiate conversation with a user",
	"bot can't send messages to bots",
	"not enough rights to send text messages",
	"need administrator rights in the channel chat",
	"chat_write_forbidden",
	"have no rights to send a message",
	"channel_private",
}

// Descriptions that mean the forum topic is gone or closed.
var topicGone = []string{
	"message thread not found",
	"topic_closed",
	"topic_deleted",
}

// Classify tells what a failed call's error means for delivery.
func Classify(err error) Problem {
	if err == nil {
		return Transient
	}
	var tooMany *tgbot.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return RateLimited
	}
	var migrate *tgbot.MigrateError
	if errors.As(err, &migrate) && migrate.MigrateToChatID != 0 {
		return Migrated
	}
	if errors.Is(err, tgbot.ErrorUnauthorized) || errors.Is(err, tgbot.ErrorNotFound) {
		return BotRefused
	}
	if !errors.Is(err, tgbot.ErrorBadRequest) && !errors.Is(err, tgbot.ErrorForbidden) {
		return Transient
	}
	msg := strings.ToLower(err.Error())
	switch {
	case containsAny(msg, topicGone):
		return TopicGone
	case containsAny(msg, chatGone):
		return ChatGone
	case strings.Contains(msg, "can't parse entities"):
		return BadEntities
	}
	return Refused
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// migrateTo is the supergroup id of a migration error; 0 for others.
func migrateTo(err error) int64 {
	var migrate *tgbot.MigrateError
	if errors.As(err, &migrate) {
		return int64(migrate.MigrateToChatID)
	}
	return 0
}

// telegramText is the description Telegram gave, without the client's
// prefix ("bad request, Bad Request: chat not found" → "Bad Request: chat
// not found"), for pause reasons and notices.
func telegramText(err error) string {
	msg := err.Error()
	for _, sentinel := range []error{tgbot.ErrorBadRequest, tgbot.ErrorForbidden, tgbot.ErrorUnauthorized, tgbot.ErrorNotFound} {
		if rest, ok := strings.CutPrefix(msg, sentinel.Error()+", "); ok {
			return rest
		}
	}
	return msg
}
