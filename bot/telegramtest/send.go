package telegramtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"
)

// descNotModified is Telegram's answer to an edit that changes nothing.
const descNotModified = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"

// sendOptions are the parameters every send method shares.
type sendOptions struct {
	chat        models.Chat
	threadID    int
	replyMarkup json.RawMessage
	linkPreview *models.LinkPreviewOptions
}

// readSendOptions validates reply markup, link preview options, the chat and
// the topic, in the order the Bot API server reads them (after the text).
func (s *Server) readSendOptions(req *request) (sendOptions, *APIError) {
	var o sendOptions
	markup, err := readReplyMarkup(req)
	if err != nil {
		return o, err
	}
	o.replyMarkup = markup
	var lp models.LinkPreviewOptions
	if ok, jerr := req.json("link_preview_options", &lp); jerr != nil {
		return o, badRequest("Bad Request: can't parse link preview options JSON object")
	} else if ok {
		o.linkPreview = &lp
	}
	if o.chat, err = s.resolveChat(req); err != nil {
		return o, err
	}
	o.threadID = req.int("message_thread_id")
	return o, checkThread(o.chat, o.threadID)
}

// newMessage starts the record of a send.
func newMessage(method string, req *request, o sendOptions) Message {
	return Message{
		Method: method, ChatID: o.chat.ID, ChatRef: req.str("chat_id"),
		MessageThreadID: o.threadID, ParseMode: req.str("parse_mode"),
		LinkPreviewOptions: o.linkPreview, ReplyMarkup: o.replyMarkup,
		DisableNotification: req.bool("disable_notification"),
		ProtectContent:      req.bool("protect_content"),
		Params:              req.snapshot(),
	}
}

// newResultLocked builds the Message object Telegram returns for a new message
// and remembers it for edits and button presses.
func (s *Server) newResultLocked(o sendOptions, fields map[string]any) (map[string]any, int) {
	id := s.st.nextMessageID
	s.st.nextMessageID++
	m := map[string]any{"message_id": id, "date": time.Now().Unix(), "chat": o.chat}
	if o.chat.Type == models.ChatTypeChannel {
		m["sender_chat"] = o.chat
	} else {
		m["from"] = s.bot
	}
	if o.threadID != 0 {
		m["message_thread_id"], m["is_topic_message"] = o.threadID, true
	}
	if isInlineKeyboard(o.replyMarkup) {
		m["reply_markup"] = o.replyMarkup
	}
	for k, v := range fields {
		m[k] = v
	}
	s.st.sent[messageKey{o.chat.ID, id}] = m
	return m, id
}

// textFields are the Message fields of a text.
func textFields(f Formatted, lp *models.LinkPreviewOptions) map[string]any {
	fields := map[string]any{"text": f.Text}
	if len(f.Entities) > 0 {
		fields["entities"] = f.Entities
	}
	if lp != nil {
		fields["link_preview_options"] = lp
	}
	return fields
}

func (s *Server) sendMessage(_ *http.Request, req *request) (any, *APIError) {
	f, err := checkText(req.str("text"), req.str("parse_mode"))
	if err != nil {
		return nil, err
	}
	o, apiErr := s.readSendOptions(req)
	if apiErr != nil {
		return nil, apiErr
	}
	m := newMessage("sendMessage", req, o)
	m.Text, m.Plain, m.Entities = req.str("text"), f.Text, f.Entities
	s.mu.Lock()
	defer s.mu.Unlock()
	result, id := s.newResultLocked(o, textFields(f, o.linkPreview))
	m.MessageID, m.MessageIDs = id, []int{id}
	s.recordLocked(m)
	return result, nil
}

// editTarget finds the bot message an edit addresses.
func (s *Server) editTarget(req *request) (models.Chat, map[string]any, *APIError) {
	if req.str("inline_message_id") == "" && (!req.has("chat_id") || req.int("message_id") == 0) {
		return models.Chat{}, nil, badRequest("Bad Request: message identifier is not specified")
	}
	if req.str("inline_message_id") != "" {
		return models.Chat{}, nil, badRequest("Bad Request: MESSAGE_ID_INVALID")
	}
	chat, err := s.resolveChat(req)
	if err != nil {
		return chat, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sent, ok := s.st.sent[messageKey{chat.ID, req.int("message_id")}]
	if !ok {
		return chat, nil, badRequest("Bad Request: message to edit not found")
	}
	return chat, sent, nil
}

func (s *Server) editMessageText(_ *http.Request, req *request) (any, *APIError) {
	f, err := checkText(req.str("text"), req.str("parse_mode"))
	if err != nil {
		return nil, err
	}
	markup, apiErr := readReplyMarkup(req)
	if apiErr != nil {
		return nil, apiErr
	}
	chat, sent, apiErr := s.editTarget(req)
	if apiErr != nil {
		return nil, apiErr
	}
	var lp *models.LinkPreviewOptions
	if ok, _ := req.json("link_preview_options", &lp); !ok {
		lp = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, isText := sent["text"]; !isText {
		return nil, badRequest("Bad Request: there is no text in the message to edit")
	}
	fields := textFields(f, lp)
	if sameJSON(sent["text"], fields["text"]) && sameJSON(sent["entities"], fields["entities"]) &&
		sameJSON(sent["reply_markup"], inlineOrNil(markup)) {
		return nil, badRequest(descNotModified)
	}
	updated := editedCopy(sent, fields, markup)
	s.st.sent[messageKey{chat.ID, req.int("message_id")}] = updated
	m := newMessage("editMessageText", req, sendOptions{chat: chat, replyMarkup: markup, linkPreview: lp})
	m.MessageID, m.MessageIDs = req.int("message_id"), []int{req.int("message_id")}
	m.Text, m.Plain, m.Entities = req.str("text"), f.Text, f.Entities
	s.recordLocked(m)
	return updated, nil
}

func (s *Server) editMessageReplyMarkup(_ *http.Request, req *request) (any, *APIError) {
	markup, apiErr := readReplyMarkup(req)
	if apiErr != nil {
		return nil, apiErr
	}
	chat, sent, apiErr := s.editTarget(req)
	if apiErr != nil {
		return nil, apiErr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sameJSON(sent["reply_markup"], inlineOrNil(markup)) {
		return nil, badRequest(descNotModified)
	}
	updated := editedCopy(sent, nil, markup)
	s.st.sent[messageKey{chat.ID, req.int("message_id")}] = updated
	m := newMessage("editMessageReplyMarkup", req, sendOptions{chat: chat, replyMarkup: markup})
	m.MessageID, m.MessageIDs = req.int("message_id"), []int{req.int("message_id")}
	s.recordLocked(m)
	return updated, nil
}

// editedCopy returns sent with fields and markup replaced and an edit_date.
func editedCopy(sent, fields map[string]any, markup json.RawMessage) map[string]any {
	out := make(map[string]any, len(sent)+2)
	for k, v := range sent {
		out[k] = v
	}
	if fields != nil {
		delete(out, "entities")
		delete(out, "link_preview_options")
	}
	for k, v := range fields {
		out[k] = v
	}
	delete(out, "reply_markup")
	if isInlineKeyboard(markup) {
		out["reply_markup"] = markup
	}
	out["edit_date"] = time.Now().Unix()
	return out
}

func (s *Server) deleteMessage(_ *http.Request, req *request) (any, *APIError) {
	chat, err := s.resolveChat(req)
	if err != nil {
		return nil, err
	}
	id := req.int("message_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	key := messageKey{chat.ID, id}
	if _, ok := s.st.sent[key]; !ok {
		return nil, badRequest("Bad Request: message to delete not found")
	}
	delete(s.st.sent, key)
	for i := range s.st.messages {
		m := &s.st.messages[i]
		if m.ChatID == chat.ID && !strings.HasPrefix(m.Method, "edit") && slices.Contains(m.MessageIDs, id) {
			m.Deleted = true
		}
	}
	return true, nil
}

func (s *Server) sendChatAction(_ *http.Request, req *request) (any, *APIError) {
	switch req.str("action") {
	case "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
		"upload_document", "choose_sticker", "find_location", "record_video_note", "upload_video_note":
	default:
		return nil, badRequest("Bad Request: wrong parameter action in request")
	}
	if _, err := s.resolveChat(req); err != nil {
		return nil, err
	}
	return true, nil
}

func (s *Server) answerCallbackQuery(_ *http.Request, req *request) (any, *APIError) {
	id := req.str("callback_query_id")
	text := req.str("text")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.st.callbacks[id]; !ok {
		return nil, badRequest("Bad Request: query is too old and response timeout expired or query ID is invalid")
	}
	if TextLength(text) > 200 {
		return nil, badRequest("Bad Request: MESSAGE_TOO_LONG")
	}
	s.st.answers = append(s.st.answers, CallbackAnswer{
		CallbackQueryID: id, Text: text, ShowAlert: req.bool("show_alert"), URL: req.str("url"),
	})
	return true, nil
}

// sameJSON compares two values by their JSON encoding; nil and absent agree.
func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// inlineOrNil is the reply_markup a message keeps: inline keyboards only.
func inlineOrNil(markup json.RawMessage) any {
	if isInlineKeyboard(markup) {
		return markup
	}
	return nil
}
