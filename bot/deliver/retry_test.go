package deliver

import (
	"errors"
	"fmt"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
)

func TestRetryPlan(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		err     error
		attempt int
		wait    time.Duration
		final   bool
	}{
		// Telegram's retry_after is obeyed exactly.
		{"429", &tgbot.TooManyRequestsError{Message: "Too Many Requests", RetryAfter: 7}, 1, 7 * time.Second, false},
		{"429 after many attempts", &tgbot.TooManyRequestsError{RetryAfter: 3}, 50, 3 * time.Second, false},
		// A refusal that cannot change fails at once.
		{"bad request", fmt.Errorf("%w, Bad Request: chat not found", tgbot.ErrorBadRequest), 1, 0, true},
		{"forbidden", fmt.Errorf("%w, Forbidden: bot was blocked by the user", tgbot.ErrorForbidden), 1, 0, true},
		// Anything else backs off from 30 s, doubling.
		{"network 1", errors.New("connection reset"), 1, 30 * time.Second, false},
		{"network 3", errors.New("connection reset"), 3, 2 * time.Minute, false},
		{"network last", errors.New("connection reset"), MaxAttempts, 0, true},
	}
	for _, tt := range tests {
		next, final := RetryPlan(tt.err, tt.attempt, now)
		if final != tt.final || (!final && next.Sub(now) != tt.wait) {
			t.Errorf("%s: next +%v final %v, want +%v %v", tt.name, next.Sub(now), final, tt.wait, tt.final)
		}
	}
}
