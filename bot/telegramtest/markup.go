package telegramtest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/go-telegram/bot/models"
)

// readReplyMarkup validates reply_markup: a JSON object holding one keyboard
// kind. Inline keyboards are checked button by button, since that is where bots
// go wrong: callback_data is limited to 1-64 bytes and every button needs an
// action.
func readReplyMarkup(req *request) (json.RawMessage, *APIError) {
	raw, ok := req.values["reply_markup"]
	if !ok || raw == "" {
		return nil, nil
	}
	var markup map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &markup); err != nil {
		return nil, badRequest("Bad Request: can't parse reply keyboard markup JSON object")
	}
	if rows, ok := markup["inline_keyboard"]; ok {
		if err := checkInlineKeyboard(rows); err != nil {
			return nil, err
		}
	}
	return json.RawMessage(raw), nil
}

func checkInlineKeyboard(raw json.RawMessage) *APIError {
	var rows [][]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return badRequest("Bad Request: can't parse inline keyboard button: field \"inline_keyboard\" must be an Array of Arrays")
	}
	for _, row := range rows {
		for _, button := range row {
			if err := checkInlineButton(button); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkInlineButton(button map[string]json.RawMessage) *APIError {
	var text string
	if err := json.Unmarshal(button["text"], &text); err != nil {
		return badRequest("Bad Request: can't parse inline keyboard button: Field \"text\" must be of type String")
	}
	actions := 0
	for field, value := range button {
		if field != "text" && field != "style" && field != "icon_custom_emoji_id" && !isEmptyJSON(value) {
			actions++
		}
	}
	if actions == 0 {
		return badRequest("Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
	}
	if rawData, ok := button["callback_data"]; ok {
		var data string
		if err := json.Unmarshal(rawData, &data); err != nil || data == "" || len(data) > 64 {
			return badRequest("Bad Request: BUTTON_DATA_INVALID")
		}
	}
	if rawURL, ok := button["url"]; ok {
		var u string
		if err := json.Unmarshal(rawURL, &u); err != nil || strings.TrimSpace(u) == "" {
			return badRequest("Bad Request: BUTTON_URL_INVALID")
		}
	}
	return nil
}

// isEmptyJSON reports null, false, "", 0 and objects or arrays of such values:
// clients send unset optional fields that way (go-telegram/bot always sends
// "copy_text":{"text":""}), and they name no action.
func isEmptyJSON(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	return isEmptyValue(v)
}

func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case float64:
		return x == 0
	case map[string]any:
		for _, e := range x {
			if !isEmptyValue(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isEmptyValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// isInlineKeyboard reports whether markup is an inline keyboard, the only kind
// a Message carries back.
func isInlineKeyboard(markup json.RawMessage) bool {
	if len(markup) == 0 {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(markup, &m) != nil {
		return false
	}
	_, ok := m["inline_keyboard"]
	return ok
}

// maxCommands is how many commands setMyCommands takes.
const maxCommands = 100

// setMyCommands validates and stores commands per scope and language. Telegram
// refuses a command outside [a-z0-9_] with BOT_COMMAND_INVALID; the texts for the
// other limits are the Bot API server's wording as best known.
func (s *Server) setMyCommands(_ *http.Request, req *request) (any, *APIError) {
	if !req.has("commands") {
		return nil, badRequest(`Bad Request: parameter "commands" is required`)
	}
	var commands []models.BotCommand
	if _, err := req.json("commands", &commands); err != nil {
		return nil, badRequest("Bad Request: can't parse commands JSON object")
	}
	if len(commands) > maxCommands {
		return nil, badRequest("Bad Request: too many commands specified")
	}
	for i, c := range commands {
		name := strings.TrimPrefix(strings.TrimSpace(c.Command), "/")
		switch {
		case name == "":
			return nil, badRequest("Bad Request: command must be non-empty")
		case TextLength(name) > 32:
			return nil, badRequest("Bad Request: command is too long")
		case !isCommandName(name):
			return nil, badRequest("Bad Request: BOT_COMMAND_INVALID")
		case strings.TrimSpace(c.Description) == "":
			return nil, badRequest("Bad Request: command description must be non-empty")
		case TextLength(c.Description) > 256:
			return nil, badRequest("Bad Request: command description is too long")
		}
		commands[i].Command = name
	}
	key := commandsKey(req.str("scope"), req.str("language_code"))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.commands[key] = commands
	return true, nil
}

func (s *Server) getMyCommands(_ *http.Request, req *request) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	commands := s.st.commands[commandsKey(req.str("scope"), req.str("language_code"))]
	if commands == nil {
		commands = []models.BotCommand{}
	}
	return commands, nil
}

// commandsKey identifies a command list by its scope (type and ids) and language.
func commandsKey(scope, language string) string {
	var sc struct {
		Type   string `json:"type"`
		ChatID any    `json:"chat_id"`
		UserID int64  `json:"user_id"`
	}
	_ = json.Unmarshal([]byte(scope), &sc) // an unreadable scope is the default one
	if sc.Type == "" {
		sc.Type = "default"
	}
	key, _ := json.Marshal([]any{sc.Type, sc.ChatID, sc.UserID, language})
	return string(key)
}

func isCommandName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}
