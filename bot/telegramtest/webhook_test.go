package telegramtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// hookTarget is a TLS webhook that records what it receives and answers
// with the statuses queued in fail, then 200.
type hookTarget struct {
	srv *httptest.Server

	mu       sync.Mutex
	fail     []int
	received []map[string]json.RawMessage
	secrets  []string
	types    []string
}

func newHookTarget(t *testing.T, fail ...int) *hookTarget {
	t.Helper()
	h := &hookTarget{fail: fail}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookTarget) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var u map[string]json.RawMessage
	_ = json.Unmarshal(body, &u)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.received = append(h.received, u)
	h.secrets = append(h.secrets, r.Header.Get(SecretHeader))
	h.types = append(h.types, r.Method+" "+r.Header.Get("Content-Type"))
	if len(h.fail) > 0 {
		w.WriteHeader(h.fail[0])
		h.fail = h.fail[1:]
	}
}

func (h *hookTarget) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.received)
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Telegram POSTs each update as JSON with the secret header and confirms it
// only on a 2xx answer; anything else is retried.
func TestWebhookPushesWithSecretAndRetries(t *testing.T) {
	target := newHookTarget(t, http.StatusUnauthorized, http.StatusInternalServerError)
	s := New(t, WithWebhookClient(target.srv.Client()), WithWebhookRetry(time.Millisecond))
	s.SendText(1, 1, "queued before the webhook")
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": target.srv.URL + "/hook", "secret_token": "s3cret_-X"}); !r.OK {
		t.Fatal(r.Description)
	}
	s.SendText(1, 1, "second")
	waitFor(t, "both updates delivered", func() bool { return s.PendingUpdates() == 0 && target.count() >= 4 })

	ds := s.WebhookDeliveries()
	if len(ds) != 4 {
		t.Fatalf("deliveries %+v, want 2 failures then 2 successes", ds)
	}
	wantStatus := []int{401, 500, 200, 200}
	wantUpdate := []int64{1000, 1000, 1000, 1001}
	for i, d := range ds {
		if d.Status != wantStatus[i] || d.UpdateID != wantUpdate[i] || d.Secret != "s3cret_-X" {
			t.Errorf("delivery %d = %+v, want status %d for update %d with the secret", i, d, wantStatus[i], wantUpdate[i])
		}
	}
	target.mu.Lock()
	defer target.mu.Unlock()
	var text string
	if err := json.Unmarshal(target.received[3]["message"], &struct {
		Text *string `json:"text"`
	}{&text}); err != nil || text != "second" {
		t.Errorf("last push carried %q (%v), want the second message", text, err)
	}
	for i, ty := range target.types {
		if ty != "POST application/json" || target.secrets[i] != "s3cret_-X" {
			t.Errorf("push %d: %q with secret %q", i, ty, target.secrets[i])
		}
	}
}

// After deleteWebhook nothing is pushed and getUpdates serves the queue again.
func TestDeleteWebhookStopsPushing(t *testing.T) {
	target := newHookTarget(t)
	s := New(t, WithWebhookClient(target.srv.Client()))
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": target.srv.URL}); !r.OK {
		t.Fatal(r.Description)
	}
	if r := callJSON(t, s, "deleteWebhook", nil); !r.OK {
		t.Fatal(r.Description)
	}
	s.SendText(1, 1, "polled")
	if got := updateIDs(t, callJSON(t, s, "getUpdates", nil)); len(got) != 1 {
		t.Errorf("getUpdates after deleteWebhook = %v, want the one update", got)
	}
	if n := target.count(); n != 0 {
		t.Errorf("%d pushes after deleteWebhook", n)
	}
}

// allowed_updates of setWebhook filters pushes as it filters getUpdates.
func TestWebhookAllowedUpdates(t *testing.T) {
	target := newHookTarget(t)
	s := New(t, WithWebhookClient(target.srv.Client()))
	if r := callJSON(t, s, "setWebhook", map[string]any{"url": target.srv.URL, "allowed_updates": []string{"callback_query"}}); !r.OK {
		t.Fatal(r.Description)
	}
	s.SendText(1, 1, "not wanted")
	s.PressButton(1, 1, 5, "wanted")
	waitFor(t, "the button press", func() bool { return s.PendingUpdates() == 0 && target.count() >= 1 })
	target.mu.Lock()
	defer target.mu.Unlock()
	if len(target.received) != 1 || target.received[0]["callback_query"] == nil {
		t.Errorf("pushed %v, want only the callback query", target.received)
	}
}

// The Bot API's secret_token rule: 1-256 of [A-Za-z0-9_-].
func TestSetWebhookSecretRule(t *testing.T) {
	tests := []struct {
		secret string
		want   string // "" accepted
	}{
		{"abc-DEF_123", ""},
		{strings.Repeat("a", 256), ""},
		{strings.Repeat("a", 257), "Bad Request: secret token is too long"},
		{"a+b", "Bad Request: secret token contains unallowed characters"},
		{"a b", "Bad Request: secret token contains unallowed characters"},
		{"ключ", "Bad Request: secret token contains unallowed characters"},
	}
	s := New(t)
	for _, tt := range tests {
		r := callJSON(t, s, "setWebhook", map[string]any{"url": "https://bot.example/hook", "secret_token": tt.secret})
		if tt.want == "" && !r.OK || tt.want != "" && r.Description != tt.want {
			t.Errorf("secret %.20q: ok=%v %q, want %q", tt.secret, r.OK, r.Description, tt.want)
		}
	}
	if got := s.WebhookSecret(); got != strings.Repeat("a", 256) { // the last accepted
		t.Errorf("a refused secret replaced the stored one: %.20q", got)
	}
}

// getWebhookInfo reports the last failed push as Telegram words it.
func TestWebhookInfoLastError(t *testing.T) {
	target := newHookTarget(t, http.StatusUnauthorized, http.StatusUnauthorized, http.StatusUnauthorized)
	s := New(t, WithWebhookClient(target.srv.Client()), WithWebhookRetry(time.Hour))
	s.SendText(1, 1, "x")
	callJSON(t, s, "setWebhook", map[string]any{"url": target.srv.URL})
	waitFor(t, "a push", func() bool { return len(s.WebhookDeliveries()) > 0 })
	var info struct {
		URL     string `json:"url"`
		Pending int    `json:"pending_update_count"`
		Message string `json:"last_error_message"`
	}
	if err := json.Unmarshal(callJSON(t, s, "getWebhookInfo", nil).Result, &info); err != nil {
		t.Fatal(err)
	}
	if info.URL != target.srv.URL || info.Pending != 1 || info.Message != "Wrong response from the webhook: 401 Unauthorized" {
		t.Errorf("getWebhookInfo = %+v", info)
	}
}
