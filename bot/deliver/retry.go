package deliver

import (
	"errors"
	"time"

	tgbot "github.com/go-telegram/bot"
)

// Delivery tuning, shared with the bot's admin notices.
const (
	Lease       = 2 * time.Minute  // a claimed row is ours this long
	ClaimBatch  = 20               // rows claimed at once
	MaxAttempts = 8                // sends tried before a row fails for good
	SendTimeout = 30 * time.Second // one Bot API call, also during shutdown
)

// RetryPlan decides when to try again after a failed send, or that the row
// failed for good: Telegram's retry_after is obeyed; a refusal that cannot
// change (bad request, forbidden) fails at once; anything else backs off
// exponentially from 30 s until MaxAttempts.
func RetryPlan(err error, attempt int, now time.Time) (next time.Time, final bool) {
	var tooMany *tgbot.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return now.Add(time.Duration(max(tooMany.RetryAfter, 1)) * time.Second), false
	}
	if errors.Is(err, tgbot.ErrorBadRequest) || errors.Is(err, tgbot.ErrorForbidden) || errors.Is(err, tgbot.ErrorUnauthorized) {
		return now, true
	}
	if attempt >= MaxAttempts {
		return now, true
	}
	return now.Add(30 * time.Second << (attempt - 1)), false
}

// retryAfter is Telegram's requested wait for a 429; 0 for other errors.
func retryAfter(err error) time.Duration {
	var tooMany *tgbot.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return time.Duration(max(tooMany.RetryAfter, 1)) * time.Second
	}
	return 0
}
