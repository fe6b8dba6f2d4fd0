package telegramtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// supergroupIDBelow is where Bot API ids of supergroups and channels start
// (-100…); ids between it and 0 are basic groups.
const supergroupIDBelow = -1_000_000_000_000

// AddChat registers a chat, so getChat reports it as given and "@username"
// chat ids resolve to it. Channels, forum supergroups and usernames exist only
// once registered; other chats are made up from their id on first use: positive
// ids are private chats, -100… ids supergroups, other negative ids groups.
func (s *Server) AddChat(chat models.Chat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.chats[chat.ID] = chat
}

// AddUser registers a user, whose names then appear in messages the user sends
// and in the user's private chat.
func (s *Server) AddUser(user models.User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.users[user.ID] = user
}

// SetChatMemberStatus sets what getChatMember reports for userID in chatID:
// "creator", "administrator" (with every right), "member", "restricted", "left"
// or "kicked".
func (s *Server) SetChatMemberStatus(chatID, userID int64, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.members[memberKey{chatID, userID}] = memberJSON(status, s.userLocked(userID))
}

// userLocked returns the registered user or one made up from the id.
func (s *Server) userLocked(id int64) models.User {
	if id == s.bot.ID {
		return s.bot
	}
	if u, ok := s.st.users[id]; ok {
		return u
	}
	return models.User{ID: id, FirstName: fmt.Sprintf("User %d", id)}
}

// chatLocked returns the registered chat or one made up from the id.
func (s *Server) chatLocked(id int64) models.Chat {
	if c, ok := s.st.chats[id]; ok {
		return c
	}
	switch {
	case id > 0:
		u := s.userLocked(id)
		return models.Chat{ID: id, Type: models.ChatTypePrivate, FirstName: u.FirstName,
			LastName: u.LastName, Username: u.Username}
	case id <= supergroupIDBelow:
		return models.Chat{ID: id, Type: models.ChatTypeSupergroup, Title: fmt.Sprintf("Chat %d", id)}
	default:
		return models.Chat{ID: id, Type: models.ChatTypeGroup, Title: fmt.Sprintf("Chat %d", id)}
	}
}

// resolveChat reads chat_id (a number or "@username") as the Bot API does.
func (s *Server) resolveChat(req *request) (models.Chat, *APIError) {
	raw := strings.TrimSpace(req.str("chat_id"))
	if raw == "" {
		return models.Chat{}, badRequest(DescChatIDEmpty)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if name, ok := strings.CutPrefix(raw, "@"); ok {
		for _, c := range s.st.chats {
			if c.Username != "" && strings.EqualFold(c.Username, name) {
				return c, nil
			}
		}
		return models.Chat{}, badRequest(DescChatNotFound)
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id == 0 {
		return models.Chat{}, badRequest(DescChatNotFound)
	}
	return s.chatLocked(id), nil
}

// checkThread refuses a message_thread_id outside a forum.
func checkThread(chat models.Chat, threadID int) *APIError {
	if threadID != 0 && !chat.IsForum {
		return badRequest(DescThreadNotFound)
	}
	return nil
}

func (s *Server) getMe(*http.Request, *request) (any, *APIError) {
	return map[string]any{
		"id": s.bot.ID, "is_bot": true, "first_name": s.bot.FirstName, "username": s.bot.Username,
		"can_join_groups": true, "can_read_all_group_messages": false,
		"supports_inline_queries": false, "can_connect_to_business": false, "has_main_web_app": false,
	}, nil
}

func (s *Server) getChat(_ *http.Request, req *request) (any, *APIError) {
	chat, err := s.resolveChat(req)
	if err != nil {
		return nil, err
	}
	full := map[string]any{
		"id": chat.ID, "type": chat.Type, "accent_color_id": 0, "max_reaction_count": 11,
		"accepted_gift_types": map[string]bool{
			"unlimited_gifts": false, "limited_gifts": false, "unique_gifts": false,
			"premium_subscription": false, "gifts_from_channels": false,
		},
	}
	for k, v := range map[string]string{
		"title": chat.Title, "username": chat.Username,
		"first_name": chat.FirstName, "last_name": chat.LastName,
	} {
		if v != "" {
			full[k] = v
		}
	}
	if chat.IsForum {
		full["is_forum"] = true
	}
	return full, nil
}

func (s *Server) getChatMember(_ *http.Request, req *request) (any, *APIError) {
	chat, err := s.resolveChat(req)
	if err != nil {
		return nil, err
	}
	userID := req.int64("user_id")
	if userID <= 0 {
		return nil, badRequest("Bad Request: invalid user_id specified")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if raw, ok := s.st.members[memberKey{chat.ID, userID}]; ok {
		return raw, nil
	}
	status := "member"
	if userID == s.bot.ID && chat.Type == models.ChatTypeChannel {
		status = "administrator" // a bot posts in a channel only as an administrator
	}
	return memberJSON(status, s.userLocked(userID)), nil
}

// memberJSON builds a ChatMember object of the given status with its required fields.
func memberJSON(status string, user models.User) json.RawMessage {
	m := map[string]any{"status": status, "user": user}
	switch status {
	case "creator":
		m["is_anonymous"] = false
	case "administrator":
		for _, right := range []string{
			"can_be_edited", "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
			"can_restrict_members", "can_promote_members", "can_change_info", "can_invite_users",
			"can_post_messages", "can_edit_messages", "can_pin_messages", "can_post_stories",
			"can_edit_stories", "can_delete_stories", "can_manage_topics",
		} {
			m[right] = true
		}
		m["can_be_edited"], m["is_anonymous"] = false, false
	case "restricted":
		m["is_member"], m["until_date"] = true, 0
		for _, right := range []string{
			"can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
			"can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
			"can_send_other_messages", "can_add_web_page_previews", "can_change_info",
			"can_invite_users", "can_pin_messages", "can_manage_topics",
		} {
			m[right] = false
		}
	case "kicked":
		m["until_date"] = 0
	}
	raw, _ := json.Marshal(m) // plain maps of strings, bools and a User always encode
	return raw
}
