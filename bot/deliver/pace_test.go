package deliver

import (
	"testing"
	"time"
)

func TestPacer(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type step struct {
		sendTo   int64
		chatType string
		messages int
		at       time.Duration // since t0
	}
	tests := []struct {
		name string
		sent []step
		ask  int64
		at   time.Duration
		want time.Duration
	}{
		// Rule: about one message a second in one private chat.
		{"private chat waits 1s", []step{{1, "private", 1, 0}}, 1, 0, time.Second},
		{"private chat free after 1s", []step{{1, "private", 1, 0}}, 1, time.Second, 0},
		// Rule: twenty messages a minute in a group or channel.
		{"channel waits 3s", []step{{-100, "channel", 1, 0}}, -100, 0, 3 * time.Second},
		{"album of 3 in a group counts 3", []step{{-5, "supergroup", 3, 0}}, -5, time.Second, 8 * time.Second},
		// Rule: about thirty messages a second over all chats.
		{"another chat waits the global gap", []step{{1, "private", 1, 0}}, 2, 0, GlobalGap},
		{"global gap accumulates", []step{{1, "private", 1, 0}, {2, "private", 1, 0}, {3, "private", 1, 0}}, 4, 0, 3 * GlobalGap},
		// Sends queue up behind each other in one chat.
		{"two quick sends in one chat", []step{{1, "private", 1, 0}, {1, "private", 1, 0}}, 1, 0, 2 * time.Second},
		{"nothing sent", nil, 1, 0, 0},
	}
	for _, tt := range tests {
		p := NewPacer()
		for _, s := range tt.sent {
			p.Sent(s.sendTo, s.chatType, s.messages, t0.Add(s.at))
		}
		if got := p.Wait(tt.ask, t0.Add(tt.at)); got != tt.want {
			t.Errorf("%s: wait %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPacerForgetsIdleChats(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := NewPacer()
	for id := int64(1); id <= 100; id++ {
		p.Sent(id, "private", 1, t0)
	}
	p.Sent(999, "private", 1, t0.Add(time.Hour))
	if n := len(p.next); n != 1 {
		t.Errorf("pacer remembers %d chats, want only the recent one", n)
	}
}
