package telegramtest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// Message is a message the bot sent (or an edit it made), as the server accepted it.
type Message struct {
	// Method is the Bot API method: sendMessage, sendPhoto, sendDocument,
	// sendMediaGroup, editMessageText or editMessageReplyMarkup.
	Method string
	// MessageID is the message's id; for an album, the first item's.
	MessageID int
	// MessageIDs lists every id an album produced (one id otherwise).
	MessageIDs []int
	// ChatID is the resolved chat (also when the bot addressed "@username").
	ChatID int64
	// ChatRef is chat_id exactly as sent.
	ChatRef         string
	MessageThreadID int
	// Text is text, or the caption, exactly as sent; for an album, the first
	// non-empty item caption.
	Text string
	// Plain is Text after entity parsing and trimming: what the recipient reads.
	Plain string
	// Entities are the entities Telegram derived from Text.
	Entities  []Entity
	ParseMode string
	// IsCaption reports that Text is a media caption.
	IsCaption           bool
	LinkPreviewOptions  *models.LinkPreviewOptions
	DisableNotification bool
	ProtectContent      bool
	// ReplyMarkup is reply_markup as sent (raw JSON), nil when absent.
	ReplyMarkup json.RawMessage
	// Media lists the photos and documents, in order.
	Media []Media
	// Deleted reports that deleteMessage removed the message later (for an
	// album, any of its items).
	Deleted bool
	// Params holds every parameter as sent.
	Params map[string]string
}

// Media is one photo or document of a sent message.
type Media struct {
	// Type is "photo" or "document" (or the album item's type).
	Type string
	// Source is "upload", "url" or "file_id".
	Source string
	// URL is set for Source "url", FileID for "file_id" (and for uploads, the
	// id the server assigned).
	URL    string
	FileID string
	// Upload is the uploaded file for Source "upload".
	Upload *Upload
	// Caption, ParseMode, Plain and Entities describe an album item's caption.
	Caption   string
	ParseMode string
	Plain     string
	Entities  []Entity
	// HasSpoiler and ShowCaptionAboveMedia echo the item's flags.
	HasSpoiler            bool
	ShowCaptionAboveMedia bool
}

// Request is one call the server received, successful or not.
type Request struct {
	Method string
	Params map[string]string
	// Files lists the names of the uploaded parts.
	Files []string
	// Err is the error the server answered with, nil on success.
	Err *APIError
}

// CallbackAnswer is an answerCallbackQuery call.
type CallbackAnswer struct {
	CallbackQueryID string
	Text            string
	ShowAlert       bool
	URL             string
}

// Messages returns a copy of every recorded message, in order.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneMessages(s.st.messages)
}

// MessagesTo returns the recorded messages sent to chatID, in order.
func (s *Server) MessagesTo(chatID int64) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.st.messages {
		if m.ChatID == chatID {
			out = append(out, cloneMessage(m))
		}
	}
	return out
}

// WaitMessages waits until at least n messages are recorded and returns them
// all; it fails the test if they don't arrive within timeout. Call it from the
// test goroutine. A message is recorded before its response reaches the
// client, so the handler that sent it may still be running.
func (s *Server) WaitMessages(t testing.TB, n int, timeout time.Duration) []Message {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		if len(s.st.messages) >= n {
			out := cloneMessages(s.st.messages)
			s.mu.Unlock()
			return out
		}
		signal, have := s.st.messageSignal, len(s.st.messages)
		s.mu.Unlock()
		select {
		case <-signal:
		case <-deadline.C:
			t.Fatalf("telegramtest: waited %v for %d messages, got %d: %s",
				timeout, n, have, s.describeMessages())
			return nil
		}
	}
}

// describeMessages summarises what was recorded, for failure messages.
func (s *Server) describeMessages() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, m := range s.st.messages {
		b.WriteString("\n  " + m.Method + " " + m.ChatRef + ": " + m.Text)
	}
	for _, r := range s.st.requests {
		if r.Err != nil {
			b.WriteString("\n  failed " + r.Method + ": " + r.Err.Description)
		}
	}
	return b.String()
}

// Calls returns how many requests method received (any letter case), failed
// ones included.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.calls[canonicalMethod(method)]
}

// Requests returns the requests method received, in order; "" returns all.
func (s *Server) Requests(method string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	want := canonicalMethod(method)
	var out []Request
	for _, r := range s.st.requests {
		if method == "" || r.Method == want {
			r.Params = cloneParams(r.Params)
			r.Files = slices.Clone(r.Files)
			out = append(out, r)
		}
	}
	return out
}

// CallbackAnswers returns the answerCallbackQuery calls, in order.
func (s *Server) CallbackAnswers() []CallbackAnswer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.st.answers)
}

// Commands returns the commands last set with setMyCommands for the default
// scope and no language.
func (s *Server) Commands() []models.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.st.commands[commandsKey("", "")])
}

// Reset forgets recorded messages, requests, call counts, callback answers,
// webhook deliveries and failures, queued (FailNext) or standing (FailChat, RefuseURL). Chats, users,
// members, commands, files, pending updates and sent messages (for edits and
// button presses) stay.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.messages = nil
	s.st.requests = nil
	s.st.calls = map[string]int{}
	s.st.answers = nil
	s.st.deliveries = nil
	s.st.failNext = map[string][]*APIError{}
	s.st.failChat = map[int64]*APIError{}
	s.st.refused = map[string]string{}
}

// logCall counts and records a request.
func (s *Server) logCall(method string, req *request, err *APIError) {
	r := Request{Method: method, Err: err}
	if req != nil {
		r.Params = req.snapshot()
		for name := range req.files {
			r.Files = append(r.Files, name)
		}
		slices.Sort(r.Files)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.calls[method]++
	s.st.requests = append(s.st.requests, r)
}

// recordLocked appends a message and wakes WaitMessages.
func (s *Server) recordLocked(m Message) {
	s.st.messages = append(s.st.messages, m)
	close(s.st.messageSignal)
	s.st.messageSignal = make(chan struct{})
}

func cloneMessages(ms []Message) []Message {
	out := make([]Message, len(ms))
	for i, m := range ms {
		out[i] = cloneMessage(m)
	}
	return out
}

func cloneMessage(m Message) Message {
	m.MessageIDs = slices.Clone(m.MessageIDs)
	m.Entities = slices.Clone(m.Entities)
	m.ReplyMarkup = slices.Clone(m.ReplyMarkup)
	m.Params = cloneParams(m.Params)
	m.Media = slices.Clone(m.Media)
	for i := range m.Media {
		m.Media[i].Entities = slices.Clone(m.Media[i].Entities)
	}
	return m
}

func cloneParams(p map[string]string) map[string]string {
	if p == nil {
		return nil
	}
	out := make(map[string]string, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}
