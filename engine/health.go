package engine

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Ready reports whether the poller is fit for work: the database answers
// and the poll loop has made progress (started a tick, finished a host)
// within three ticks plus one host lease.
func (e *Engine) Ready(ctx context.Context) error {
	if err := e.store.Ping(ctx); err != nil {
		return err
	}
	last := e.lastTick.Load()
	if last == 0 {
		return fmt.Errorf("engine: the poller has not started")
	}
	if since := time.Since(time.Unix(0, last)); since > 3*e.opts.Tick+e.opts.HostLease {
		return fmt.Errorf("engine: the poller made no progress for %s", since.Round(time.Second))
	}
	return nil
}

// alive notes progress of the poll loop for Ready.
func (e *Engine) alive() { e.lastTick.Store(time.Now().UnixNano()) }

// Healthz answers 200 while the process runs: GET /healthz.
func (e *Engine) Healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

// Readyz answers 200 when Ready, else 503 with the reason: GET /readyz.
func (e *Engine) Readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := e.Ready(ctx); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, err)
		return
	}
	fmt.Fprintln(w, "ready")
}
