package telegramtest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// waitForPoll blocks until a getUpdates call is parked in the server.
func waitForPoll(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.mu.Lock()
		waiting := s.st.pollCancel != nil
		s.mu.Unlock()
		if waiting {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no getUpdates call started waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// getUpdates semantics from BOTAPI.md "Limits": an offset confirms every update
// with a smaller id; a negative offset keeps that many of the newest; limit caps
// the batch; unconfirmed updates come back again.
func TestGetUpdatesOffsets(t *testing.T) {
	s := New(t)
	a := s.AddUpdate(models.Update{Message: &models.Message{Text: "a"}})
	b := s.AddUpdate(models.Update{Message: &models.Message{Text: "b"}})
	c := s.AddUpdate(models.Update{Message: &models.Message{Text: "c"}})

	steps := []struct {
		rule   string
		params map[string]any
		want   []int64
	}{
		{"unconfirmed updates are returned", map[string]any{}, []int64{a, b, c}},
		{"and returned again", map[string]any{"offset": 0}, []int64{a, b, c}},
		{"limit caps the batch", map[string]any{"limit": 2}, []int64{a, b}},
		{"offset confirms smaller ids", map[string]any{"offset": b}, []int64{b, c}},
		{"confirmed updates are gone", map[string]any{}, []int64{b, c}},
		{"a negative offset keeps the newest", map[string]any{"offset": -1}, []int64{c}},
		{"confirming everything empties the queue", map[string]any{"offset": c + 1}, []int64{}},
	}
	for _, st := range steps {
		if got := updateIDs(t, callJSON(t, s, "getUpdates", st.params)); !reflect.DeepEqual(got, st.want) {
			t.Errorf("%s: got %v, want %v", st.rule, got, st.want)
		}
	}
	d := s.SendText(1, 1, "later")
	if got := updateIDs(t, callJSON(t, s, "getUpdates", nil)); len(got) != 1 || got[0] != c+1 {
		t.Errorf("a later update got ids %v, want [%d] (message %d)", got, c+1, d)
	}
}

func TestGetUpdatesAllowedUpdates(t *testing.T) {
	s := New(t)
	msg := s.AddUpdate(models.Update{Message: &models.Message{Text: "a"}})
	if _, err := s.AddRawUpdate([]byte(`{"chat_member":{"date":1}}`)); err != nil {
		t.Fatal(err)
	}
	cb := s.PressButton(1, 1, 99, "x")
	got := updateIDs(t, callJSON(t, s, "getUpdates", map[string]any{"allowed_updates": []string{}}))
	if len(got) != 2 || got[0] != msg {
		t.Errorf("default allowed updates returned %v; chat_member must be left out (callback %s)", got, cb)
	}
	got = updateIDs(t, callJSON(t, s, "getUpdates", map[string]any{"allowed_updates": []string{"callback_query"}}))
	if len(got) != 1 || got[0] != msg+2 {
		t.Errorf("allowed_updates [callback_query] returned %v", got)
	}
}

func TestLongPollReturnsWhenAnUpdateArrives(t *testing.T) {
	s := New(t)
	result := pollAsync(s, map[string]any{"timeout": 30})
	waitForPoll(t, s)
	id := s.AddUpdate(models.Update{Message: &models.Message{Text: "wake"}})
	select {
	case r := <-result:
		if got := updateIDs(t, r); len(got) != 1 || got[0] != id {
			t.Errorf("long poll returned %v, want [%d]", got, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("long poll did not return after an update arrived")
	}
}

func TestLongPollEndsWhenServerCloses(t *testing.T) {
	s := NewServer()
	result := pollAsync(s, map[string]any{"timeout": 50})
	waitForPoll(t, s)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the long poll")
	}
	if r := <-result; len(updateIDs(t, r)) != 0 {
		t.Errorf("poll ended by Close returned updates: %s", r.Result)
	}
}

func TestSecondPollTerminatesFirst(t *testing.T) {
	s := New(t)
	first := pollAsync(s, map[string]any{"timeout": 30})
	waitForPoll(t, s)
	if got := updateIDs(t, callJSON(t, s, "getUpdates", nil)); len(got) != 0 {
		t.Errorf("second poll got %v", got)
	}
	select {
	case r := <-first:
		if r.ErrorCode != 409 || r.Description != DescPollTerminated {
			t.Errorf("first poll got %d %q, want 409 %q", r.ErrorCode, r.Description, DescPollTerminated)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("first poll was not terminated")
	}
}

func TestWebhookBlocksGetUpdates(t *testing.T) {
	s := New(t)
	s.SendText(1, 1, "pending")
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": "http://insecure.example"}); r.OK {
		t.Error("a plain HTTP webhook was accepted")
	}
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": "https://bot.example/hook"}); !r.OK {
		t.Fatal(r.Description)
	}
	if r := callJSON(t, s, "getUpdates", nil); r.ErrorCode != 409 || r.Description != DescWebhookActive {
		t.Errorf("getUpdates with a webhook: %d %q", r.ErrorCode, r.Description)
	}
	if r := callJSON(t, s, "deleteWebhook", map[string]any{"drop_pending_updates": true}); !r.OK {
		t.Fatal(r.Description)
	}
	if got := updateIDs(t, callJSON(t, s, "getUpdates", nil)); len(got) != 0 {
		t.Errorf("drop_pending_updates kept %v", got)
	}
}

func TestSendTextMarksCommands(t *testing.T) {
	tests := []struct {
		text string
		want []Entity
	}{
		{"/start", []Entity{{Type: "bot_command", Length: 6}}},
		{"/sub https://e.com/feed", []Entity{{Type: "bot_command", Length: 4}}},
		{"/sub@test_bot x", []Entity{{Type: "bot_command", Length: 13}}},
		{"see /help", []Entity{{Type: "bot_command", Offset: 4, Length: 5}}},
		{"a/b and /x/y", nil},
		{"plain", nil},
	}
	for _, tt := range tests {
		if got := botCommandEntities(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("botCommandEntities(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestAddRawUpdateRejectsNonObjects(t *testing.T) {
	s := New(t)
	for _, raw := range []string{`[]`, `{"message":{},"callback_query":{}}`, `nope`} {
		if _, err := s.AddRawUpdate([]byte(raw)); err == nil {
			t.Errorf("AddRawUpdate(%s) accepted", raw)
		}
	}
	if n := s.PendingUpdates(); n != 0 {
		t.Errorf("%d updates queued", n)
	}
}

func ExampleServer_AddUpdate() {
	s := NewServer()
	defer s.Close()
	id := s.AddUpdate(models.Update{Message: &models.Message{Text: "hi"}})
	fmt.Println(id, s.PendingUpdates())
	// Output: 1000 1
}

func TestMaxPollTimeoutCapsTheWait(t *testing.T) {
	s := New(t, WithMaxPollTimeout(time.Millisecond))
	select {
	case r := <-pollAsync(s, map[string]any{"timeout": 50}):
		if got := updateIDs(t, r); len(got) != 0 {
			t.Errorf("an empty poll returned %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the poll outlived WithMaxPollTimeout")
	}
}
