package deliver

import (
	"sync"
	"time"
)

// Telegram's sending limits (Bot FAQ, "My bot is hitting limits"): about one
// message a second in one chat, twenty a minute in a group or channel, and
// about thirty a second over all chats.
const (
	PrivateGap = time.Second
	GroupGap   = 3 * time.Second
	GlobalGap  = time.Second / 30
)

// Pacer spaces messages so the bot stays inside Telegram's limits instead of
// running into 429s. It is pure bookkeeping: callers ask how long to wait
// and report what they sent.
type Pacer struct {
	mu         sync.Mutex
	next       map[int64]time.Time // per chat: the earliest time of its next message
	nextGlobal time.Time
}

// NewPacer returns an empty Pacer.
func NewPacer() *Pacer { return &Pacer{next: map[int64]time.Time{}} }

// Wait returns how long to wait before the next message to chatID.
func (p *Pacer) Wait(chatID int64, now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	at := p.nextGlobal
	if c := p.next[chatID]; c.After(at) {
		at = c
	}
	return max(at.Sub(now), 0)
}

// Sent records that messages were sent to a chat of chatType ("private",
// "group", "supergroup", "channel") at now.
func (p *Pacer) Sent(chatID int64, chatType string, messages int, now time.Time) {
	if messages <= 0 {
		return
	}
	gap := PrivateGap
	if chatType != "private" {
		gap = GroupGap
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next[chatID] = later(p.next[chatID], now).Add(time.Duration(messages) * gap)
	p.nextGlobal = later(p.nextGlobal, now).Add(time.Duration(messages) * GlobalGap)
	for id, at := range p.next { // forget chats whose pause is over
		if !at.After(now) {
			delete(p.next, id)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
