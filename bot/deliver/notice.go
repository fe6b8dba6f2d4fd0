package deliver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// Notice kinds of delivery; the bot's catalogs word them (notice_<kind>).
const (
	NoticeChatPaused     = "chat_paused"     // the bot cannot post in a chat: its subscriptions paused
	NoticeChatResumed    = "chat_resumed"    // the bot is back in a chat: those subscriptions resumed
	NoticeTopicPaused    = "topic_paused"    // a forum topic is gone: its subscriptions paused
	NoticeChatMigrated   = "chat_migrated"   // a group became a supergroup: subscriptions moved
	NoticeDeliveryFailed = "delivery_failed" // posts given up after their retries (a summary)
)

// Pause reasons start with these prefixes, so that a pause can later be
// undone by what caused it, and never one the admin made.
const (
	ReasonChat  = "chat unreachable: "
	ReasonTopic = "topic unreachable: "
)

// SummaryDelay is how long a failure summary waits for more failures to
// join it before it goes to the admin.
const SummaryDelay = time.Minute

// maxSummaryChats bounds the chats a failure summary names.
const maxSummaryChats = 5

// NoticeFields are the details of a delivery notice. They are stored as
// the notice's text, in JSON, so that the bot words them in its language
// when it sends the notice.
type NoticeFields struct {
	Chat    string   `json:"chat,omitempty"`    // the chat, as ChatLabel names it
	Topic   int64    `json:"topic,omitempty"`   // forum topic id
	Reason  string   `json:"reason,omitempty"`  // Telegram's description, or the last error
	Count   int      `json:"count,omitempty"`   // subscriptions paused, resumed or moved; posts failed
	Waiting int      `json:"waiting,omitempty"` // posts that wait for a resume
	From    int64    `json:"from,omitempty"`    // a migration's old chat id
	To      int64    `json:"to,omitempty"`      // a migration's new chat id
	Chats   []string `json:"chats,omitempty"`   // the chats of failed posts (at most a few)
}

// Encode is the notice text holding f.
func (f NoticeFields) Encode() string {
	b, err := json.Marshal(f)
	if err != nil { // a struct of strings and numbers always encodes
		panic(fmt.Sprintf("deliver: encode notice fields: %v", err))
	}
	return string(b)
}

// DecodeNoticeFields reads the fields of a delivery notice's text; false
// when the text is not such fields.
func DecodeNoticeFields(text string) (NoticeFields, bool) {
	var f NoticeFields
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &f) != nil {
		return NoticeFields{}, false
	}
	return f, true
}

// IsDeliveryNotice reports whether kind is one of delivery's notices,
// whose text holds NoticeFields.
func IsDeliveryNotice(kind string) bool {
	switch kind {
	case NoticeChatPaused, NoticeChatResumed, NoticeTopicPaused, NoticeChatMigrated, NoticeDeliveryFailed:
		return true
	}
	return false
}

// ChatLabel names a chat for the admin: its title or @username, and its id.
func ChatLabel(c storage.Chat) string {
	name := strings.TrimSpace(c.Title)
	if c.Username != "" {
		if name != "" {
			name += " "
		}
		name += "@" + c.Username
	}
	if name == "" {
		return fmt.Sprint(c.ID)
	}
	return fmt.Sprintf("%s (%d)", name, c.ID)
}

// Notifier leaves delivery notices for the admin. Use one per process:
// it serialises the summaries of its callers (the deliverer's workers),
// so that failures at the same moment join one summary. Only the Telegram
// leader delivers, so no other process adds summaries meanwhile.
type Notifier struct {
	Store   *storage.Store
	AdminID int64 // 0: no notices
	Logger  *slog.Logger

	mu sync.Mutex // one summary merge at a time
}

// Add stores a notice of kind with fields, due at once.
func (n *Notifier) Add(ctx context.Context, kind string, fields NoticeFields, now time.Time) {
	if n.AdminID == 0 {
		return
	}
	_, err := n.Store.AddNotice(context.WithoutCancel(ctx), storage.Notice{
		ChatID: n.AdminID, Kind: kind, Text: fields.Encode(), CreatedAt: now,
	})
	if err != nil {
		n.Logger.Error("deliver: storing a notice", "kind", kind, "error", err)
	}
}

// Failed counts a post given up into the failure summary that waits to go
// out, or starts one due after SummaryDelay: the admin hears of a burst
// of failures once.
func (n *Notifier) Failed(ctx context.Context, chat string, reason string, now time.Time) {
	if n.AdminID == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	first := NoticeFields{Count: 1, Reason: reason, Chats: []string{chat}}
	_, err := n.Store.MergeNotice(context.WithoutCancel(ctx), storage.Notice{
		ChatID: n.AdminID, Kind: NoticeDeliveryFailed, Text: first.Encode(),
		NextAttemptAt: now.Add(SummaryDelay), CreatedAt: now,
	}, func(prev string) string {
		f, _ := DecodeNoticeFields(prev)
		return mergeFailure(f, chat, reason).Encode()
	})
	if err != nil {
		n.Logger.Error("deliver: storing the failure summary", "error", err)
	}
}

// mergeFailure adds one failed post in chat to a summary.
func mergeFailure(f NoticeFields, chat, reason string) NoticeFields {
	f.Count++
	f.Reason = reason
	if !slices.Contains(f.Chats, chat) && len(f.Chats) < maxSummaryChats {
		f.Chats = append(f.Chats, chat)
	}
	return f
}
