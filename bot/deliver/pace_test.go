package deliver

import (
	"testing"
	"time"
)

var p0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestPacerReady(t *testing.T) {
	type step struct {
		sendTo   int64
		chatType string
		messages int
		at       time.Duration // since p0
	}
	tests := []struct {
		name string
		sent []step
		ask  int64
		want time.Duration // since p0; 0: ready at once
	}{
		// Rule: about one message a second in one private chat.
		{"private chat waits 1s", []step{{1, "private", 1, 0}}, 1, time.Second},
		// Rule: twenty messages a minute in a group or channel.
		{"channel waits 3s", []step{{-100, "channel", 1, 0}}, -100, 3 * time.Second},
		{"album of 3 in a group counts 3", []step{{-5, "supergroup", 3, 0}}, -5, 9 * time.Second},
		// A chat stored before the bot saw it: users' ids are positive.
		{"unknown type, user id", []step{{1, "", 1, 0}}, 1, time.Second},
		{"unknown type, group id", []step{{-5, "", 1, 0}}, -5, 3 * time.Second},
		// Sends queue up behind each other in one chat.
		{"two quick sends in one chat", []step{{1, "private", 1, 0}, {1, "private", 1, 0}}, 1, 2 * time.Second},
		{"a later send starts from its own time", []step{{1, "private", 1, 0}, {1, "private", 1, 5 * time.Second}}, 1, 6 * time.Second},
		// Other chats are not held up by one chat's spacing.
		{"another chat is ready at once", []step{{1, "private", 1, 0}}, 2, 0},
		{"nothing sent", nil, 1, 0},
	}
	for _, tt := range tests {
		p := NewPacer()
		for _, s := range tt.sent {
			p.Sent(s.sendTo, s.chatType, s.messages, p0.Add(s.at))
		}
		got := p.Ready(tt.ask)
		if tt.want == 0 && !got.After(p0) {
			continue
		}
		if !got.Equal(p0.Add(tt.want)) {
			t.Errorf("%s: ready at +%v, want +%v", tt.name, got.Sub(p0), tt.want)
		}
	}
}

// Rule: about thirty messages a second over all chats; Reserve books the
// bot-wide slots and says how long to wait for them.
func TestPacerReserve(t *testing.T) {
	p := NewPacer()
	if w := p.Reserve(1, p0); w != 0 {
		t.Errorf("first reserve waits %v, want 0", w)
	}
	if w := p.Reserve(3, p0); w != GlobalGap {
		t.Errorf("second reserve waits %v, want %v", w, GlobalGap)
	}
	if w := p.Reserve(1, p0); w != 4*GlobalGap {
		t.Errorf("reserve after an album of 3 waits %v, want %v", w, 4*GlobalGap)
	}
	if w := p.Reserve(1, p0.Add(time.Second)); w != 0 {
		t.Errorf("reserve a second later waits %v, want 0", w)
	}
}

// Rule (GlobalLimit): a 429 is bot-wide when the chat got nothing lately
// (it cannot have broken its own limit) or when other chats are limited
// at the same time.
func TestGlobalLimit(t *testing.T) {
	tests := []struct {
		recent, others, want bool
	}{
		{recent: true, others: false, want: false},
		{recent: false, others: false, want: true},
		{recent: true, others: true, want: true},
		{recent: false, others: true, want: true},
	}
	for _, tt := range tests {
		if got := GlobalLimit(tt.recent, tt.others); got != tt.want {
			t.Errorf("GlobalLimit(sent recently %v, others limited %v) = %v, want %v", tt.recent, tt.others, got, tt.want)
		}
	}
}

func TestPacerBackoff(t *testing.T) {
	p := NewPacer()
	p.Sent(1, "private", 1, p0)
	// A chat's own 429: it waits retry_after; the others go on.
	at := p0.Add(time.Second)
	if global := p.Backoff(1, 5*time.Second, at); global {
		t.Error("a 429 right after sending to the chat was taken as bot-wide")
	}
	if got := p.Ready(1); !got.Equal(at.Add(5 * time.Second)) {
		t.Errorf("chat 1 ready at +%v, want +6s", got.Sub(p0))
	}
	if got := p.Ready(2); got.After(at) || !p.Held().IsZero() {
		t.Errorf("chat 2 ready at +%v, held %v: one chat's 429 held up the others", got.Sub(p0), p.Held())
	}
	// A second chat limited while the first still waits: bot-wide.
	p.Sent(2, "private", 1, at)
	if global := p.Backoff(2, 3*time.Second, at); !global {
		t.Error("two chats limited at once was not taken as bot-wide")
	}
	if got := p.Held(); !got.Equal(at.Add(3 * time.Second)) {
		t.Errorf("held until +%v, want +4s", got.Sub(p0))
	}
	if got := p.Ready(3); !got.Equal(at.Add(3 * time.Second)) {
		t.Errorf("chat 3 ready at +%v during a bot-wide wait, want +4s", got.Sub(p0))
	}
}

// The pacer learns: a chat that got a 429 is spaced twice as wide (up to
// maxSlowdown times) until slowdownFor after the last 429.
func TestPacerLearns(t *testing.T) {
	p := NewPacer()
	p.Sent(1, "private", 1, p0)
	p.Backoff(1, time.Second, p0)
	later := p0.Add(time.Minute)
	p.Sent(1, "private", 1, later)
	if got := p.Ready(1).Sub(later); got != 2*PrivateGap {
		t.Errorf("after one 429 the chat is spaced %v, want %v", got, 2*PrivateGap)
	}
	for range 5 {
		p.Backoff(1, time.Second, later)
	}
	p.Sent(1, "private", 1, later.Add(time.Minute))
	if got := p.Ready(1).Sub(later.Add(time.Minute)); got != maxSlowdown*PrivateGap {
		t.Errorf("after many 429s the chat is spaced %v, want the cap %v", got, maxSlowdown*PrivateGap)
	}
	calm := later.Add(slowdownFor + time.Hour)
	p.Sent(1, "private", 1, calm)
	if got := p.Ready(1).Sub(calm); got != PrivateGap {
		t.Errorf("long after the last 429 the chat is spaced %v, want %v", got, PrivateGap)
	}
}

func TestPacerForgetsIdleChats(t *testing.T) {
	p := NewPacer()
	for id := int64(1); id <= 100; id++ {
		p.Sent(id, "private", 1, p0)
		p.Backoff(id, time.Second, p0)
	}
	p.Sent(999, "private", 1, p0.Add(time.Hour))
	if n := len(p.next) + len(p.last) + len(p.slow) + len(p.limited); n != 2 {
		t.Errorf("pacer remembers %d entries, want only the recent chat's next and last", n)
	}
}
