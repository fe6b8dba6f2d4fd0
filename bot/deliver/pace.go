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

// How the Pacer learns from 429s: each one doubles the spacing of the chat
// it hit (or of all sends, for a global one) up to maxSlowdown times, and
// the spacing returns to normal slowdownFor after the last 429.
const (
	maxSlowdown = 8
	slowdownFor = 10 * time.Minute
	// recentSend is how long a send to a chat is remembered for telling
	// a chat's own 429 from the bot-wide limit.
	recentSend = time.Minute
)

// slowdown is a learned factor on a spacing, until a time.
type slowdown struct {
	factor int
	until  time.Time
}

func (s slowdown) at(now time.Time) time.Duration {
	if s.factor > 1 && now.Before(s.until) {
		return time.Duration(s.factor)
	}
	return 1
}

func (s slowdown) doubled(now time.Time) slowdown {
	f := max(int(s.at(now)), 1) * 2
	return slowdown{factor: min(f, maxSlowdown), until: now.Add(slowdownFor)}
}

// Pacer spaces messages so the bot stays inside Telegram's limits instead of
// running into 429s, and learns from the 429s it gets anyway. It is pure
// bookkeeping, safe for concurrent use: callers ask when a chat is ready,
// reserve the bot-wide slot, and report what they sent and what Telegram
// answered.
type Pacer struct {
	mu         sync.Mutex
	next       map[int64]time.Time // per chat: the earliest time of its next message
	last       map[int64]time.Time // per chat: its last message, kept recentSend
	slow       map[int64]slowdown  // per chat: learned from 429s
	limited    map[int64]time.Time // per chat: the end of its last 429 wait
	nextGlobal time.Time           // the next bot-wide slot
	holdGlobal time.Time           // a bot-wide 429 wait ends then
	slowGlobal slowdown
}

// NewPacer returns an empty Pacer.
func NewPacer() *Pacer {
	return &Pacer{
		next: map[int64]time.Time{}, last: map[int64]time.Time{},
		slow: map[int64]slowdown{}, limited: map[int64]time.Time{},
	}
}

// Ready returns when the next message may go to chatID; a time not after
// now means at once.
func (p *Pacer) Ready(chatID int64) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return later(p.next[chatID], p.holdGlobal)
}

// Held returns the end of a bot-wide 429 wait; nothing should be sent
// before it.
func (p *Pacer) Held() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.holdGlobal
}

// Reserve books bot-wide slots for messages about to go and returns how
// long to wait before sending them: a short wait that keeps all chats
// together under the global limit.
func (p *Pacer) Reserve(messages int, now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	start := later(p.nextGlobal, now)
	p.nextGlobal = start.Add(time.Duration(max(messages, 1)) * GlobalGap * p.slowGlobal.at(now))
	return start.Sub(now)
}

// Sent records that messages were sent to a chat of chatType ("private",
// "group", "supergroup", "channel") at now. An unknown type (a chat stored
// before the bot saw it) is told by the id: users' ids are positive.
func (p *Pacer) Sent(chatID int64, chatType string, messages int, now time.Time) {
	if messages <= 0 {
		return
	}
	gap := GroupGap
	if chatType == "private" || chatType == "" && chatID > 0 {
		gap = PrivateGap
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	gap *= p.slow[chatID].at(now)
	p.next[chatID] = later(p.next[chatID], now).Add(time.Duration(messages) * gap)
	p.last[chatID] = now
	p.forget(now)
}

// Backoff records Telegram's 429 for chatID: the chat waits retryAfter and
// is spaced wider from now on. When the limit looks bot-wide (see
// GlobalLimit) every chat waits; Backoff reports whether it did.
func (p *Pacer) Backoff(chatID int64, retryAfter time.Duration, now time.Time) (global bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	until := now.Add(retryAfter)
	others := false
	for id, end := range p.limited {
		if id != chatID && end.After(now) {
			others = true
		}
	}
	last, sent := p.last[chatID]
	global = GlobalLimit(sent && now.Sub(last) < recentSend, others)
	p.next[chatID] = later(p.next[chatID], until)
	p.limited[chatID] = until
	p.slow[chatID] = p.slow[chatID].doubled(now)
	if global {
		p.holdGlobal = later(p.holdGlobal, until)
		p.slowGlobal = p.slowGlobal.doubled(now)
	}
	return global
}

// Hold makes every chat wait until then (a revoked token, a wrong API URL).
func (p *Pacer) Hold(until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holdGlobal = later(p.holdGlobal, until)
}

// GlobalLimit decides whether a 429 is the bot-wide limit rather than the
// chat's own. Telegram does not say which, but its answers do: a chat that
// got nothing lately cannot have broken its own limit, and several chats
// limited at once point at the bot's.
func GlobalLimit(chatSentRecently, otherChatsLimited bool) bool {
	return !chatSentRecently || otherChatsLimited
}

// forget drops what no longer matters, so the maps stay as small as the
// set of busy chats.
func (p *Pacer) forget(now time.Time) {
	for id, at := range p.next {
		if !at.After(now) {
			delete(p.next, id)
		}
	}
	for id, at := range p.last {
		if now.Sub(at) >= recentSend {
			delete(p.last, id)
		}
	}
	for id, s := range p.slow {
		if !now.Before(s.until) {
			delete(p.slow, id)
		}
	}
	for id, end := range p.limited {
		if !end.After(now) {
			delete(p.limited, id)
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
