package telegramtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// SendText delivers a text message from a user as Telegram would: in the user's
// private chat when chatID equals fromUserID, else in the group, supergroup or
// channel chatID; with bot_command entities for /commands, as Telegram marks
// them. It returns the new message's id.
func (s *Server) SendText(fromUserID, chatID int64, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := s.incomingLocked(fromUserID, chatID)
	msg["text"] = text
	if ents := botCommandEntities(text); len(ents) > 0 {
		msg["entities"] = ents
	}
	s.enqueueLocked(messageKind(msg), map[string]any{messageKind(msg): msg})
	return msg["message_id"].(int)
}

// SendDocument delivers a message with a document from a user, like SendText.
// getFile and the /file/bot<token>/<path> download then serve content. It
// returns the new message's id.
func (s *Server) SendDocument(fromUserID, chatID int64, filename string, content []byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.storeFileLocked("documents", filename, content)
	msg := s.incomingLocked(fromUserID, chatID)
	msg["document"] = map[string]any{
		"file_id": f.id, "file_unique_id": f.uniqueID, "file_name": filename,
		"mime_type": mimeType(filename), "file_size": len(content),
	}
	s.enqueueLocked(messageKind(msg), map[string]any{messageKind(msg): msg})
	return msg["message_id"].(int)
}

// PressButton delivers a callback_query as if the user pressed an inline button
// carrying data under the bot's message messageID in chatID. It returns the
// callback query id, which answerCallbackQuery must use.
func (s *Server) PressButton(fromUserID, chatID int64, messageID int, data string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strconv.Itoa(7_000_000_000 + len(s.st.callbacks) + 1)
	var message any = map[string]any{ // an inaccessible message has date 0
		"chat": s.chatLocked(chatID), "message_id": messageID, "date": 0,
	}
	if sent, ok := s.st.sent[messageKey{chatID, messageID}]; ok {
		message = sent
	}
	s.st.callbacks[id] = callbackInfo{chatID: chatID, messageID: messageID, data: data}
	s.enqueueLocked("callback_query", map[string]any{"callback_query": map[string]any{
		"id": id, "from": s.userLocked(fromUserID), "message": message,
		"chat_instance": strconv.FormatInt(chatID, 10), "data": data,
	}})
	return id
}

// AddUpdate queues an update; its update_id is replaced by the next id, which
// AddUpdate returns.
func (s *Server) AddUpdate(u models.Update) int64 {
	raw, err := json.Marshal(&u)
	if err != nil {
		panic(fmt.Sprintf("telegramtest: encode update: %v", err))
	}
	id, err := s.AddRawUpdate(raw)
	if err != nil {
		panic(err)
	}
	return id
}

// AddRawUpdate queues an update given as a JSON object, for shapes models.Update
// can't express; update_id is set to the next id, which it returns.
func (s *Server) AddRawUpdate(raw []byte) (int64, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return 0, fmt.Errorf("telegramtest: update is not a JSON object: %w", err)
	}
	delete(fields, "update_id")
	kind := ""
	for k := range fields {
		kind = k
	}
	if len(fields) != 1 {
		return 0, fmt.Errorf("telegramtest: update must have exactly one field besides update_id, has %d", len(fields))
	}
	out := make(map[string]any, 2)
	for k, v := range fields {
		out[k] = v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enqueueLocked(kind, out), nil
}

// incomingLocked builds the common part of a message a user sends.
func (s *Server) incomingLocked(fromUserID, chatID int64) map[string]any {
	chat := s.chatLocked(chatID)
	msg := map[string]any{
		"message_id": s.st.nextMessageID,
		"date":       time.Now().Unix(),
		"chat":       chat,
	}
	s.st.nextMessageID++
	if chat.Type == models.ChatTypeChannel {
		msg["sender_chat"] = chat
	} else {
		msg["from"] = s.userLocked(fromUserID)
	}
	return msg
}

// messageKind names the update field: channel posts aren't "message".
func messageKind(msg map[string]any) string {
	if chat, ok := msg["chat"].(models.Chat); ok && chat.Type == models.ChatTypeChannel {
		return "channel_post"
	}
	return "message"
}

// botCommandEntities finds /commands as Telegram does: 1-64 of [A-Za-z0-9_],
// optionally @ and a 3-32 character bot username, not inside a word or path.
func botCommandEntities(text string) []Entity {
	var out []Entity
	for i := 0; i < len(text); i++ {
		if text[i] != '/' {
			continue
		}
		if prev, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && isCommandBoundary(prev) {
			continue
		}
		j := skipCommandChars(text, i+1)
		if n := j - i - 1; n < 1 || n > 64 {
			i = j - 1
			continue
		}
		if j < len(text) && text[j] == '@' {
			k := skipCommandChars(text, j+1)
			if n := k - j - 1; n < 3 || n > 32 {
				i = k - 1
				continue
			}
			j = k
		}
		if next, _ := utf8.DecodeRuneInString(text[j:]); j < len(text) && isCommandBoundary(next) {
			i = j - 1
			continue
		}
		out = append(out, Entity{Type: "bot_command", Offset: utf16Len(text[:i]), Length: utf16Len(text[i:j])})
		i = j - 1
	}
	return out
}

func skipCommandChars(s string, i int) int {
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_') {
		i++
	}
	return i
}

// isCommandBoundary reports characters that may not touch a command.
func isCommandBoundary(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' || r == '/' || r == '<' || r == '>'
}
