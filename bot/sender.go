package bot

import (
	"context"
	"time"
)

// sendLoop drains the notices and the outbox (bot/deliver) until ctx ends.
func (b *Bot) sendLoop(ctx context.Context) {
	t := time.NewTicker(b.opts.SendInterval)
	defer t.Stop()
	for ctx.Err() == nil {
		n := b.sendNotices(ctx) + b.deliver.Due(ctx)
		if n > 0 {
			continue // more may be due: look again at once
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
}
