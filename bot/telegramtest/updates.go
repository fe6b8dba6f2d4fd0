package telegramtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"
)

// getUpdates serves long polling as the Bot API does: offset confirms (drops)
// every update with a smaller id, a negative offset keeps only that many of the
// newest, limit is 1-100, and timeout waits for the first update. A newer
// getUpdates ends a pending one with 409, as Telegram ends a second bot instance's.
func (s *Server) getUpdates(r *http.Request, req *request) (any, *APIError) {
	limit := req.int("limit")
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout := min(time.Duration(max(req.int64("timeout"), 0))*time.Second, s.maxPoll)
	var allowed []string
	hasAllowed, err := req.json("allowed_updates", &allowed)
	if err != nil {
		return nil, badRequest("Bad Request: can't parse allowed updates JSON object")
	}

	s.mu.Lock()
	if s.st.webhookURL != "" {
		s.mu.Unlock()
		return nil, &APIError{Code: 409, Description: DescWebhookActive}
	}
	if hasAllowed {
		s.st.allowed = allowed
	}
	s.confirmLocked(req.int64("offset"))
	if s.st.pollCancel != nil {
		close(s.st.pollCancel)
	}
	cancel := make(chan struct{})
	s.st.pollCancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.st.pollCancel == cancel {
			s.st.pollCancel = nil
		}
		s.mu.Unlock()
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		batch := s.pendingLocked(limit)
		signal := s.st.updateSignal
		s.mu.Unlock()
		if len(batch) > 0 || timeout == 0 {
			return batch, nil
		}
		select {
		case <-signal:
		case <-cancel:
			return nil, &APIError{Code: 409, Description: DescPollTerminated}
		case <-timer.C:
			return batch, nil
		case <-s.done:
			return batch, nil
		case <-r.Context().Done():
			return nil, nil
		}
	}
}

// confirmLocked drops confirmed updates.
func (s *Server) confirmLocked(offset int64) {
	switch {
	case offset > 0:
		s.st.updates = slices.DeleteFunc(s.st.updates, func(u queuedUpdate) bool { return u.id < offset })
	case offset < 0:
		if keep := -offset; int64(len(s.st.updates)) > keep {
			s.st.updates = s.st.updates[int64(len(s.st.updates))-keep:]
		}
	}
}

// pendingLocked returns up to limit deliverable updates, dropping those that
// allowed_updates excludes (Telegram never keeps them).
func (s *Server) pendingLocked(limit int) []json.RawMessage {
	s.st.updates = slices.DeleteFunc(s.st.updates, func(u queuedUpdate) bool {
		return !updateAllowed(s.st.allowed, u.kind)
	})
	batch := make([]json.RawMessage, 0, min(limit, len(s.st.updates)))
	for _, u := range s.st.updates[:min(limit, len(s.st.updates))] {
		batch = append(batch, u.raw)
	}
	return batch
}

// updateAllowed applies allowed_updates; an empty list means every type except
// chat_member, message_reaction and message_reaction_count.
func updateAllowed(allowed []string, kind string) bool {
	if len(allowed) == 0 {
		switch kind {
		case "chat_member", "message_reaction", "message_reaction_count":
			return false
		}
		return true
	}
	return slices.Contains(allowed, kind)
}

// enqueueLocked stores an update, numbering it, and wakes long polls.
func (s *Server) enqueueLocked(kind string, fields map[string]any) int64 {
	id := s.st.nextUpdateID
	s.st.nextUpdateID++
	fields["update_id"] = id
	raw, _ := json.Marshal(fields) // built from encodable values
	s.st.updates = append(s.st.updates, queuedUpdate{id: id, kind: kind, raw: raw})
	s.wakeLocked()
	return id
}

// wakeLocked wakes long polls and the webhook pusher.
func (s *Server) wakeLocked() {
	close(s.st.updateSignal)
	s.st.updateSignal = make(chan struct{})
}

// PendingUpdates returns how many updates wait for confirmation.
func (s *Server) PendingUpdates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.st.updates)
}
