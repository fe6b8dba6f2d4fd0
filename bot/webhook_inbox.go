package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// errNotRunning refuses a webhook delivery while Run is not running.
var errNotRunning = errors.New("bot: webhook: not running")

// webhookWorkers bounds the updates handled at once; further deliveries wait
// for a slot, holding Telegram back instead of piling up goroutines.
const webhookWorkers = 16

// inbox hands webhook updates to goroutines that live within Run, so that a
// command outlives the HTTP request that brought it (Telegram needs a quick
// 2xx or it delivers again) but not the bot, and shutdown waits for them.
type inbox struct {
	slots chan struct{}

	mu  sync.Mutex
	ctx context.Context // Run's context; nil while Run is not running
	wg  sync.WaitGroup
}

func newInbox() *inbox { return &inbox{slots: make(chan struct{}, webhookWorkers)} }

// open starts accepting work that runs under ctx.
func (in *inbox) open(ctx context.Context) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.ctx = ctx
}

// close stops accepting work and waits for what was accepted.
func (in *inbox) close() {
	in.mu.Lock()
	in.ctx = nil
	in.mu.Unlock()
	in.wg.Wait()
}

// dispatch runs fn in the background under Run's context once a slot is free.
// It gives up when reqCtx ends first or when Run is not running.
func (in *inbox) dispatch(reqCtx context.Context, fn func(ctx context.Context)) error {
	select {
	case in.slots <- struct{}{}:
	case <-reqCtx.Done():
		return fmt.Errorf("bot: webhook: waiting for a worker: %w", reqCtx.Err())
	}
	in.mu.Lock()
	ctx := in.ctx
	if ctx == nil || ctx.Err() != nil {
		in.mu.Unlock()
		<-in.slots
		return errNotRunning
	}
	in.wg.Add(1)
	in.mu.Unlock()
	go func() {
		defer in.wg.Done()
		defer func() { <-in.slots }()
		fn(ctx)
	}()
	return nil
}
