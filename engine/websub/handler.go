package websub

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// ErrRejected marks a push the backend will never accept (the body is no
// feed): the hub is told 2xx all the same, since sending it again cannot
// help.
var ErrRejected = errors.New("websub: push rejected")

// Backend is what the callback handler needs of storage and import.
type Backend interface {
	// Subscription returns the subscription whose callback token is token;
	// an error wrapping storage.ErrNotFound when there is none.
	Subscription(ctx context.Context, token string) (storage.WebSubSubscription, error)
	// Verified records a hub's verification of intent of mode (subscribe or
	// unsubscribe) with the lease it granted (0 when it named none).
	Verified(ctx context.Context, sub storage.WebSubSubscription, mode string, lease time.Duration) error
	// Denied records a hub's refusal with its reason.
	Denied(ctx context.Context, sub storage.WebSubSubscription, reason string) error
	// Push imports a signed, verified push body.
	Push(ctx context.Context, sub storage.WebSubSubscription, body []byte, contentType string) error
}

// Handler answers hubs at PUBLIC_URL/websub/<token>: GET for verification
// of intent and denials, POST for content distribution.
type Handler struct {
	backend  Backend
	maxBytes int64
	log      *slog.Logger
}

// NewHandler returns the callback handler. maxBytes limits a push body
// (FETCH_MAX_BYTES); log nil uses slog.Default.
func NewHandler(b Backend, maxBytes int64, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.Default()
	}
	return &Handler{backend: b, maxBytes: maxBytes, log: log}
}

// ServeHTTP implements http.Handler. The token is the last path segment,
// so the handler works mounted with or without http.StripPrefix.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	if token == "" {
		http.NotFound(w, r)
		return
	}
	sub, err := h.backend.Subscription(r.Context(), token)
	if errors.Is(err, storage.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		h.log.Error("websub: looking up a callback failed", "error", err)
		http.Error(w, "temporarily unavailable", http.StatusServiceUnavailable)
		return
	}
	switch r.Method {
	case http.MethodGet:
		h.verify(w, r, sub)
	case http.MethodPost:
		h.push(w, r, sub)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// verify answers a verification of intent (WebSub §5.3) or records a
// denial (§5.2). Only a request we are waiting for is confirmed: the
// topic must be ours and the mode the one we asked for.
func (h *Handler) verify(w http.ResponseWriter, r *http.Request, sub storage.WebSubSubscription) {
	q := r.URL.Query()
	mode, topic := q.Get("hub.mode"), q.Get("hub.topic")
	if topic != sub.Topic || !Expects(sub.State, mode) {
		h.log.Info("websub: refused a verification", "feed_id", sub.FeedID, "mode", mode, "state", sub.State)
		http.NotFound(w, r)
		return
	}
	if mode == ModeDenied {
		if err := h.backend.Denied(r.Context(), sub, q.Get("hub.reason")); err != nil {
			h.unavailable(w, sub, err)
			return
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	challenge := q.Get("hub.challenge")
	if challenge == "" {
		http.Error(w, "hub.challenge missing", http.StatusBadRequest)
		return
	}
	var lease time.Duration
	if n, err := strconv.ParseInt(q.Get("hub.lease_seconds"), 10, 64); err == nil && n > 0 && n < 1<<31 {
		lease = time.Duration(n) * time.Second
	}
	if err := h.backend.Verified(r.Context(), sub, mode, lease); err != nil {
		h.unavailable(w, sub, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, challenge)
}

// Expects reports whether a subscription in state awaits a hub request of
// mode: a subscribe confirmation while pending or active (a renewal), an
// unsubscribe confirmation while unsubscribing, a denial while pending.
func Expects(state, mode string) bool {
	switch mode {
	case ModeSubscribe:
		return state == storage.WebSubPending || state == storage.WebSubActive
	case ModeUnsubscribe:
		return state == storage.WebSubUnsubscribing
	case ModeDenied:
		return state == storage.WebSubPending || state == storage.WebSubActive
	}
	return false
}

// push receives content (WebSub §7-8). A push for a subscription that is
// not active, without a valid signature, is acknowledged and dropped, as
// §8 asks: the hub must not learn which check failed.
func (h *Handler) push(w http.ResponseWriter, r *http.Request, sub storage.WebSubSubscription) {
	body, err := io.ReadAll(io.LimitReader(r.Body, h.maxBytes+1))
	if err != nil {
		http.Error(w, "reading the body failed", http.StatusBadRequest)
		return
	}
	if int64(len(body)) > h.maxBytes {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	if sub.State != storage.WebSubActive {
		h.log.Info("websub: dropped a push for an inactive subscription", "feed_id", sub.FeedID, "state", sub.State)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !ValidSignature(r.Header.Get("X-Hub-Signature"), body, sub.Secret) {
		h.log.Warn("websub: dropped a push with a missing or wrong signature", "feed_id", sub.FeedID)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	err = h.backend.Push(r.Context(), sub, body, r.Header.Get("Content-Type"))
	switch {
	case errors.Is(err, ErrRejected):
		h.log.Warn("websub: dropped an unusable push", "feed_id", sub.FeedID, "error", err)
		w.WriteHeader(http.StatusAccepted)
	case err != nil:
		h.unavailable(w, sub, err)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// unavailable answers 503 so the hub tries again later.
func (h *Handler) unavailable(w http.ResponseWriter, sub storage.WebSubSubscription, err error) {
	h.log.Error("websub: storing a hub request failed", "feed_id", sub.FeedID, "error", err)
	http.Error(w, "temporarily unavailable", http.StatusServiceUnavailable)
}
