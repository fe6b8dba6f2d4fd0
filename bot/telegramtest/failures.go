package telegramtest

import (
	"strconv"
	"strings"
)

// FailNext makes the next call of method (any letter case) fail with code and
// description, before the server looks at it; calls queue in order. parameters
// is the optional ResponseParameters object, e.g. {"retry_after": 3} or
// {"migrate_to_chat_id": -1001234567890}.
func (s *Server) FailNext(method string, code int, description string, parameters map[string]any) {
	s.FailNextWith(method, &APIError{Code: code, Description: description, Parameters: parameters})
}

// FailNextWith queues err for the next call of method, like FailNext.
func (s *Server) FailNextWith(method string, err *APIError) {
	m := canonicalMethod(method)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.failNext[m] = append(s.st.failNext[m], err.clone())
}

// FailChat makes every call addressed to chatID (any method with a chat_id) fail
// with err until ClearChatFailure or Reset, as a chat that blocked the bot does.
func (s *Server) FailChat(chatID int64, err *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.failChat[chatID] = err.clone()
}

// ClearChatFailure ends a FailChat.
func (s *Server) ClearChatFailure(chatID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.st.failChat, chatID)
}

// RefuseURL makes media sent by this URL fail as Telegram fails a URL it can't
// use: with description, or "Bad Request: wrong file identifier/HTTP URL
// specified" when description is empty.
func (s *Server) RefuseURL(url, description string) {
	if description == "" {
		description = DescWrongFile
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.refused[url] = description
}

// takeFailure returns the injected failure for this call, if any.
func (s *Server) takeFailure(req *request) *APIError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := s.st.failNext[req.method]; len(q) > 0 {
		s.st.failNext[req.method] = q[1:]
		return q[0].clone()
	}
	if len(s.st.failChat) == 0 || !req.has("chat_id") {
		return nil
	}
	id, ok := s.chatIDLocked(req.str("chat_id"))
	if !ok {
		return nil
	}
	if err, ok := s.st.failChat[id]; ok {
		return err.clone()
	}
	return nil
}

// chatIDLocked resolves a chat_id value without making chats up.
func (s *Server) chatIDLocked(raw string) (int64, bool) {
	raw = strings.TrimSpace(raw)
	if name, ok := strings.CutPrefix(raw, "@"); ok {
		for _, c := range s.st.chats {
			if strings.EqualFold(c.Username, name) && c.Username != "" {
				return c.ID, true
			}
		}
		return 0, false
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	return id, err == nil
}
