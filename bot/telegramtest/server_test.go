package telegramtest

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Routing and token checks from BOTAPI.md "Transport" (tdlib/telegram-bot-api).
func TestRouting(t *testing.T) {
	s := New(t)
	tests := []struct {
		rule, path string
		status     int
		body       string // exact body; "" checks only the status
	}{
		{"getMe answers", "/bot" + s.Token + "/getMe", 200, ""},
		{"method names are case-insensitive", "/bot" + s.Token + "/GETME", 200, ""},
		{"the test environment prefix is accepted", "/bot" + s.Token + "/test/getMe", 200, ""},
		{"unknown methods", "/bot" + s.Token + "/getWeather", 404,
			`{"ok":false,"error_code":404,"description":"Not Found: method not found"}`},
		{"paths outside /bot", "/api/getMe", 404, `{"ok":false,"error_code":404,"description":"Not Found"}`},
		{"a token without a method", "/bot" + s.Token, 404, `{"ok":false,"error_code":404,"description":"Not Found"}`},
		{"a token without a colon", "/botTOKEN/getMe", 401,
			`{"ok":false,"error_code":401,"description":"Unauthorized: invalid token specified"}`},
		{"a token starting with 0", "/bot0123:x/getMe", 401,
			`{"ok":false,"error_code":401,"description":"Unauthorized: invalid token specified"}`},
		{"a bot id of 2^54 or more", "/bot18014398509481984:x/getMe", 401,
			`{"ok":false,"error_code":401,"description":"Unauthorized: invalid token specified"}`},
		{"a well-formed token of another bot", "/bot999:OTHER/getMe", 401,
			`{"ok":false,"error_code":401,"description":"Unauthorized"}`},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			status, body := get(t, s.URL+tt.path)
			if status != tt.status {
				t.Errorf("status = %d, want %d (%s)", status, tt.status, body)
			}
			if tt.body != "" && body != tt.body {
				t.Errorf("body = %s, want %s", body, tt.body)
			}
		})
	}
}

func TestGetMeReportsTheBot(t *testing.T) {
	s := New(t, WithToken("42:SECRET"), WithBotUsername("feeds_bot"))
	r := callJSON(t, s, "getMe", nil)
	var me struct {
		ID       int64  `json:"id"`
		IsBot    bool   `json:"is_bot"`
		Username string `json:"username"`
	}
	if err := json.Unmarshal(r.Result, &me); err != nil {
		t.Fatal(err)
	}
	if me.ID != 42 || !me.IsBot || me.Username != "feeds_bot" {
		t.Errorf("getMe = %+v", me)
	}
}

// Parameters arrive by query string, urlencoded, JSON or multipart (BOTAPI.md
// "Transport"); every encoding must reach the same handler.
func TestRequestEncodings(t *testing.T) {
	s := New(t)
	base := s.URL + "/bot" + s.Token + "/sendMessage"
	post := func(contentType string, body []byte) {
		t.Helper()
		resp, err := http.Post(base, contentType, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if r := decodeResponse(t, resp); !r.OK {
			t.Fatalf("%s: %s", contentType, r.Description)
		}
	}
	if status, body := get(t, base+"?chat_id=1&text=query"); status != 200 {
		t.Fatalf("query: %d %s", status, body)
	}
	post("application/x-www-form-urlencoded", []byte(url.Values{"chat_id": {"2"}, "text": {"form"}}.Encode()))
	post("application/json", []byte(`{"chat_id":3,"text":"json","disable_notification":true}`))
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("chat_id", "4")
	_ = mw.WriteField("text", "multipart")
	_ = mw.Close()
	post(mw.FormDataContentType(), buf.Bytes())

	got := s.Messages()
	want := []struct {
		chat int64
		text string
	}{{1, "query"}, {2, "form"}, {3, "json"}, {4, "multipart"}}
	if len(got) != len(want) {
		t.Fatalf("recorded %d messages, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].ChatID != w.chat || got[i].Text != w.text {
			t.Errorf("message %d = chat %d %q, want chat %d %q", i, got[i].ChatID, got[i].Text, w.chat, w.text)
		}
	}
	if !got[2].DisableNotification {
		t.Error("a JSON boolean was not read")
	}
}

func TestErrorBodyKeyOrder(t *testing.T) {
	s := New(t)
	s.FailNextWith("sendMessage", RetryAfterError(3))
	status, body := get(t, s.URL+"/bot"+s.Token+"/sendMessage?chat_id=1&text=x")
	want := `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}`
	if status != 429 || body != want {
		t.Errorf("got %d %s, want 429 %s", status, body, want)
	}
}

func TestSendMessageValidation(t *testing.T) {
	s := New(t)
	s.AddChat(chatForum(-1001))
	tests := []struct {
		rule   string
		params map[string]any
		want   string
	}{
		{"invalid HTML", map[string]any{"chat_id": 1, "text": "<p>x", "parse_mode": "HTML"},
			DescParsePrefix + `Unsupported start tag "p" at byte offset 0`},
		{"empty text", map[string]any{"chat_id": 1, "text": ""}, DescTextEmpty},
		{"missing chat_id", map[string]any{"text": "x"}, DescChatIDEmpty},
		{"unknown @username", map[string]any{"chat_id": "@nobody", "text": "x"}, DescChatNotFound},
		{"a topic outside a forum", map[string]any{"chat_id": 1, "text": "x", "message_thread_id": 5}, DescThreadNotFound},
		{"malformed reply markup", map[string]any{"chat_id": 1, "text": "x", "reply_markup": "{"},
			"Bad Request: can't parse reply keyboard markup JSON object"},
		{"callback data over 64 bytes", map[string]any{"chat_id": 1, "text": "x", "reply_markup": map[string]any{
			"inline_keyboard": [][]map[string]string{{{"text": "b", "callback_data": strings.Repeat("d", 65)}}}}},
			"Bad Request: BUTTON_DATA_INVALID"},
		{"buttons need an action", map[string]any{"chat_id": 1, "text": "x", "reply_markup": map[string]any{
			"inline_keyboard": [][]map[string]string{{{"text": "b"}}}}},
			"Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r := callJSON(t, s, "sendMessage", tt.params)
			if r.OK || r.ErrorCode != 400 || r.Description != tt.want {
				t.Errorf("got ok=%v %d %q, want 400 %q", r.OK, r.ErrorCode, r.Description, tt.want)
			}
		})
	}
	if n := len(s.Messages()); n != 0 {
		t.Errorf("refused sends were recorded: %d", n)
	}
	if n := s.Calls("SENDMESSAGE"); n != len(tests) {
		t.Errorf("Calls = %d, want %d", n, len(tests))
	}
}

func TestSendMessageRecordsAndReturnsMessage(t *testing.T) {
	s := New(t)
	s.AddChat(chatForum(-1001))
	s.AddChat(chatNamed(-1002, "news"))
	markup := `{"inline_keyboard":[[{"text":"Open","url":"https://e.com"}]]}`
	r := callJSON(t, s, "sendMessage", map[string]any{
		"chat_id": -1001, "message_thread_id": 7, "text": " <b>Hi</b> &amp; bye ", "parse_mode": "HTML",
		"link_preview_options": map[string]any{"is_disabled": true}, "reply_markup": json.RawMessage(markup),
	})
	if !r.OK {
		t.Fatal(r.Description)
	}
	var result struct {
		MessageID int `json:"message_id"`
		Chat      struct{ ID int64 }
		ThreadID  int      `json:"message_thread_id"`
		Text      string   `json:"text"`
		Entities  []Entity `json:"entities"`
	}
	if err := json.Unmarshal(r.Result, &result); err != nil {
		t.Fatal(err)
	}
	if result.Chat.ID != -1001 || result.ThreadID != 7 || result.Text != "Hi & bye" || len(result.Entities) != 1 {
		t.Errorf("result = %+v", result)
	}
	second := callJSON(t, s, "sendMessage", map[string]any{"chat_id": "@news", "text": "x"})
	var next struct {
		MessageID int `json:"message_id"`
	}
	_ = json.Unmarshal(second.Result, &next)
	if next.MessageID <= result.MessageID {
		t.Errorf("message ids don't increase: %d then %d", result.MessageID, next.MessageID)
	}

	m := s.MessagesTo(-1001)
	if len(m) != 1 {
		t.Fatalf("MessagesTo = %d messages", len(m))
	}
	got := m[0]
	if got.Method != "sendMessage" || got.MessageThreadID != 7 || got.Text != " <b>Hi</b> &amp; bye " ||
		got.Plain != "Hi & bye" || got.ParseMode != "HTML" || string(got.ReplyMarkup) != markup ||
		got.LinkPreviewOptions == nil || got.LinkPreviewOptions.IsDisabled == nil || !*got.LinkPreviewOptions.IsDisabled {
		t.Errorf("recorded %+v", got)
	}
	if want := []Entity{{Type: "bold", Length: 2}}; len(got.Entities) != 1 || got.Entities[0] != want[0] {
		t.Errorf("entities = %+v, want %+v", got.Entities, want)
	}
	if to := s.MessagesTo(-1002); len(to) != 1 || to[0].ChatRef != "@news" {
		t.Errorf("@username send recorded as %+v", to)
	}
}

func TestResetForgetsRecords(t *testing.T) {
	s := New(t)
	callJSON(t, s, "sendMessage", map[string]any{"chat_id": 1, "text": "x"})
	s.FailNext("sendMessage", 403, DescBlocked, nil)
	s.Reset()
	if len(s.Messages()) != 0 || s.Calls("sendMessage") != 0 || len(s.Requests("")) != 0 {
		t.Error("Reset kept records")
	}
	if r := callJSON(t, s, "sendMessage", map[string]any{"chat_id": 1, "text": "x"}); !r.OK {
		t.Errorf("Reset kept a queued failure: %s", r.Description)
	}
}

func TestFileDownloads(t *testing.T) {
	s := New(t)
	s.SendDocument(1, 1, "a.txt", []byte("hello"))
	var update []struct {
		Message struct {
			Document struct {
				FileID string `json:"file_id"`
			} `json:"document"`
		} `json:"message"`
	}
	if err := json.Unmarshal(callJSON(t, s, "getUpdates", nil).Result, &update); err != nil || len(update) != 1 {
		t.Fatalf("updates: %v", err)
	}
	r := callJSON(t, s, "getFile", map[string]any{"file_id": update[0].Message.Document.FileID})
	var f struct {
		Path string `json:"file_path"`
		Size int    `json:"file_size"`
	}
	if err := json.Unmarshal(r.Result, &f); err != nil || f.Size != 5 {
		t.Fatalf("getFile = %s, %v", r.Result, err)
	}
	if status, body := get(t, s.URL+"/file/bot"+s.Token+"/"+f.Path); status != 200 || body != "hello" {
		t.Errorf("download = %d %q", status, body)
	}
	if status, _ := get(t, s.URL+"/file/bot"+s.Token+"/documents/none.txt"); status != 404 {
		t.Errorf("unknown path = %d, want 404", status)
	}
	if status, _ := get(t, s.URL+"/file/bot999:X/"+f.Path); status != 401 {
		t.Errorf("wrong token = %d, want 401", status)
	}
	if r := callJSON(t, s, "getFile", map[string]any{"file_id": "nope"}); r.Description != DescWrongFileID {
		t.Errorf("unknown file_id: %q", r.Description)
	}
}
