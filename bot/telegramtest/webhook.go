package telegramtest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// SecretHeader carries setWebhook's secret_token on every push, as Telegram
// sends it.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// WebhookDelivery is one attempt to push an update to the webhook.
type WebhookDelivery struct {
	UpdateID int64
	URL      string
	// Secret is the X-Telegram-Bot-Api-Secret-Token header sent ("" for none).
	Secret string
	// Status is the webhook's HTTP status; 0 when no response arrived.
	Status int
	// Err is the transport error, if any.
	Err string
}

// OK reports whether Telegram would count the attempt as delivered: any 2xx.
func (d WebhookDelivery) OK() bool { return d.Status >= 200 && d.Status < 300 }

// webhookConfig is how the server pushes updates.
type webhookConfig struct {
	client *http.Client
	// retry is the first pause after a failed push; it doubles up to retryMax.
	retry, retryMax time.Duration
}

func defaultWebhookConfig() webhookConfig {
	return webhookConfig{
		client: &http.Client{Timeout: 10 * time.Second},
		retry:  20 * time.Millisecond, retryMax: time.Second,
	}
}

// WithWebhookClient sets the HTTP client that pushes updates to the webhook,
// e.g. an httptest TLS server's Client(), which trusts its certificate.
func WithWebhookClient(c *http.Client) Option { return func(cf *config) { cf.hook.client = c } }

// WithWebhookRetry sets the pause after a failed push (default 20 ms); it
// doubles per consecutive failure up to 50 times that, at most 1 s by default.
// Telegram's own pauses are far longer; tests want them short.
func WithWebhookRetry(first time.Duration) Option {
	return func(cf *config) { cf.hook.retry, cf.hook.retryMax = first, 50*first }
}

// setWebhook stores the webhook; from then on queued updates are pushed to it
// and getUpdates answers 409, as on Telegram.
func (s *Server) setWebhook(_ *http.Request, req *request) (any, *APIError) {
	url := strings.TrimSpace(req.str("url"))
	if url != "" && !strings.HasPrefix(strings.ToLower(url), "https://") {
		return nil, badRequest("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
	}
	secret := req.str("secret_token")
	if apiErr := checkSecretToken(secret); apiErr != nil {
		return nil, apiErr
	}
	var allowed []string
	hasAllowed, err := req.json("allowed_updates", &allowed)
	if err != nil {
		return nil, badRequest("Bad Request: can't parse allowed updates JSON object")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.webhookURL, s.st.hookSecret = url, secret
	if hasAllowed {
		s.st.allowed = allowed
	}
	if req.bool("drop_pending_updates") {
		s.st.updates = nil
	}
	s.wakeLocked()
	return true, nil
}

// checkSecretToken applies setWebhook's rule: 1-256 characters of A-Z, a-z,
// 0-9, _ and -; empty means no secret.
func checkSecretToken(secret string) *APIError {
	if len(secret) > 256 {
		return badRequest("Bad Request: secret token is too long")
	}
	for _, c := range []byte(secret) {
		if !isAlnum(c) && c != '_' && c != '-' {
			return badRequest("Bad Request: secret token contains unallowed characters")
		}
	}
	return nil
}

func (s *Server) deleteWebhook(_ *http.Request, req *request) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.webhookURL, s.st.hookSecret = "", ""
	if req.bool("drop_pending_updates") {
		s.st.updates = nil
	}
	return true, nil
}

func (s *Server) getWebhookInfo(*http.Request, *request) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := map[string]any{
		"url": s.st.webhookURL, "has_custom_certificate": false,
		"pending_update_count": len(s.st.updates),
	}
	if n := len(s.st.deliveries); n > 0 && s.st.webhookURL != "" && !s.st.deliveries[n-1].OK() {
		info["last_error_date"] = time.Now().Unix()
		info["last_error_message"] = s.st.deliveries[n-1].message()
	}
	if s.st.allowed != nil {
		info["allowed_updates"] = s.st.allowed
	}
	return info, nil
}

// message is a failed delivery as getWebhookInfo's last_error_message says it.
func (d WebhookDelivery) message() string {
	if d.Status == 0 {
		return d.Err
	}
	return fmt.Sprintf("Wrong response from the webhook: %d %s", d.Status, http.StatusText(d.Status))
}

// Webhook returns the URL set with setWebhook, "" when none.
func (s *Server) Webhook() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.webhookURL
}

// WebhookSecret returns the secret_token set with setWebhook, "" when none.
func (s *Server) WebhookSecret() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.hookSecret
}

// WebhookDeliveries returns every push attempt so far, oldest first.
func (s *Server) WebhookDeliveries() []WebhookDelivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]WebhookDelivery, len(s.st.deliveries))
	copy(out, s.st.deliveries)
	return out
}

// pushLoop delivers queued updates to the webhook one at a time, in order, as
// POSTed JSON. A 2xx answer confirms the update; anything else leaves it queued
// and is retried after a pause, as Telegram retries. It runs until Close.
func (s *Server) pushLoop() {
	defer close(s.pushDone)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	pause := s.hook.retry
	for {
		s.mu.Lock()
		u, url, secret, ok := s.nextPushLocked()
		signal := s.st.updateSignal
		s.mu.Unlock()
		if !ok {
			select {
			case <-signal:
				continue
			case <-s.done:
				return
			}
		}
		d := s.push(ctx, u, url, secret)
		if d.OK() {
			pause = s.hook.retry
			continue
		}
		select {
		case <-time.After(pause):
			pause = min(2*pause, s.hook.retryMax)
		case <-s.done:
			return
		}
	}
}

// nextPushLocked returns the oldest deliverable update and where it goes;
// ok is false without a webhook or an update.
func (s *Server) nextPushLocked() (u queuedUpdate, url, secret string, ok bool) {
	if s.st.webhookURL == "" {
		return u, "", "", false
	}
	batch := s.pendingLocked(1) // drops updates allowed_updates excludes
	if len(batch) == 0 {
		return u, "", "", false
	}
	return s.st.updates[0], s.st.webhookURL, s.st.hookSecret, true
}

// push POSTs one update, records the attempt and confirms the update on 2xx.
func (s *Server) push(ctx context.Context, u queuedUpdate, url, secret string) WebhookDelivery {
	d := WebhookDelivery{UpdateID: u.id, URL: url, Secret: secret}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(u.raw))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set(SecretHeader, secret)
		}
		var resp *http.Response
		if resp, err = s.hook.client.Do(req); err == nil {
			d.Status = resp.StatusCode
			resp.Body.Close()
		}
	}
	if err != nil {
		d.Err = err.Error()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.deliveries = append(s.st.deliveries, d)
	if d.OK() {
		s.confirmOneLocked(u.id)
	}
	return d
}

// confirmOneLocked drops a delivered update.
func (s *Server) confirmOneLocked(id int64) {
	s.st.updates = slices.DeleteFunc(s.st.updates, func(q queuedUpdate) bool { return q.id == id })
}
