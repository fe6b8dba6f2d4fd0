package telegramtest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/telegramtest"
)

const wait = 10 * time.Second

// newBot connects a go-telegram/bot client to s (New calls getMe).
func newBot(t *testing.T, s *telegramtest.Server, opts ...bot.Option) *bot.Bot {
	t.Helper()
	opts = append([]bot.Option{
		bot.WithServerURL(s.URL),
		bot.WithNotAsyncHandlers(),
		bot.WithErrorsHandler(func(err error) { t.Logf("bot: %v", err) }),
	}, opts...)
	b, err := bot.New(s.Token, opts...)
	if err != nil {
		t.Fatalf("bot.New: %v", err)
	}
	return b
}

// startBot runs b's getUpdates loop until the test ends.
func startBot(t *testing.T, b *bot.Bot) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Start(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBotRepliesToCommand(t *testing.T) {
	s := telegramtest.New(t)
	replied := make(chan *models.Message, 1)
	b := newBot(t, s, bot.WithMessageTextHandler("start", bot.MatchTypeCommand,
		func(ctx context.Context, b *bot.Bot, u *models.Update) {
			m, err := b.SendMessage(ctx, &bot.SendMessageParams{
				ChatID: u.Message.Chat.ID, Text: "<b>Hello</b>, <i>world</i>", ParseMode: models.ParseModeHTML,
				ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
					{{Text: "More", CallbackData: "more"}},
				}},
			})
			if err != nil {
				t.Errorf("SendMessage: %v", err)
			}
			replied <- m
		}))
	startBot(t, b)

	s.SendText(42, 42, "/start")
	got := s.WaitMessages(t, 1, wait)
	m := got[0]
	if m.ChatID != 42 || m.Method != "sendMessage" || m.Plain != "Hello, world" || m.ParseMode != "HTML" {
		t.Errorf("recorded %+v", m)
	}
	if len(m.Entities) != 2 || m.Entities[0].Type != "bold" || m.Entities[1].Type != "italic" ||
		m.Entities[1].Offset != 7 {
		t.Errorf("entities = %+v", m.Entities)
	}
	if !strings.Contains(string(m.ReplyMarkup), `"callback_data":"more"`) {
		t.Errorf("reply markup = %s", m.ReplyMarkup)
	}
	select {
	case res := <-replied:
		if res == nil || res.ID != m.MessageID || res.Text != "Hello, world" || res.Chat.ID != 42 ||
			res.ReplyMarkup == nil || len(res.Entities) != 2 {
			t.Errorf("client decoded %+v", res)
		}
	case <-time.After(wait):
		t.Fatal("handler did not finish")
	}
}

func TestBotSeesTelegramErrors(t *testing.T) {
	s := telegramtest.New(t)
	b := newBot(t, s)
	ctx := context.Background()
	send := func(text string) error {
		_, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 7, Text: text, ParseMode: models.ParseModeHTML})
		return err
	}

	err := send("Price <p>5</p>")
	want := telegramtest.DescParsePrefix + `Unsupported start tag "p" at byte offset 6`
	if !errors.Is(err, bot.ErrorBadRequest) || !strings.HasSuffix(err.Error(), ", "+want) {
		t.Errorf("invalid HTML: %v, want bad request %q", err, want)
	}

	s.FailNext("sendMessage", 429, "Too Many Requests: retry after 3", map[string]any{"retry_after": 3})
	var tooMany *bot.TooManyRequestsError
	if err := send("x"); !errors.As(err, &tooMany) || tooMany.RetryAfter != 3 {
		t.Errorf("429: %v", err)
	}

	s.FailNextWith("sendMessage", telegramtest.MigrateError(-1001234567890))
	var migrate *bot.MigrateError
	if err := send("x"); !errors.As(err, &migrate) || migrate.MigrateToChatID != -1001234567890 {
		t.Errorf("migration: %v", err)
	}

	s.FailChat(7, &telegramtest.APIError{Code: 403, Description: telegramtest.DescBlocked})
	for range 2 {
		if err := send("x"); !errors.Is(err, bot.ErrorForbidden) || !strings.HasSuffix(err.Error(), telegramtest.DescBlocked) {
			t.Errorf("blocked chat: %v", err)
		}
	}
	s.ClearChatFailure(7)
	if err := send("x"); err != nil {
		t.Errorf("after ClearChatFailure: %v", err)
	}
	if n, fails := s.Calls("sendMessage"), len(s.Requests("sendMessage")); n != 6 || fails != 6 {
		t.Errorf("Calls = %d, Requests = %d, want 6", n, fails)
	}
	if got := len(s.Messages()); got != 1 {
		t.Errorf("%d messages recorded, want only the successful one", got)
	}
}

func TestBotSendsMedia(t *testing.T) {
	s := telegramtest.New(t)
	b := newBot(t, s)
	ctx := context.Background()
	img := pngBytes(t, 40, 30)
	sum := sha256.Sum256(img)

	sent, err := b.SendPhoto(ctx, &bot.SendPhotoParams{
		ChatID: 5, Photo: &models.InputFileUpload{Filename: "cover.png", Data: bytes.NewReader(img)},
		Caption: "<b>Cover</b>", ParseMode: models.ParseModeHTML,
	})
	if err != nil {
		t.Fatalf("SendPhoto: %v", err)
	}
	if len(sent.Photo) != 1 || sent.Photo[0].Width != 40 || sent.Caption != "Cover" {
		t.Errorf("SendPhoto returned %+v", sent)
	}
	rec := s.Messages()[0]
	if rec.Method != "sendPhoto" || !rec.IsCaption || rec.Plain != "Cover" || len(rec.Media) != 1 {
		t.Fatalf("recorded %+v", rec)
	}
	up := rec.Media[0].Upload
	if rec.Media[0].Source != "upload" || up == nil || up.Name != "cover.png" || up.Bytes != len(img) ||
		up.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("upload recorded as %+v", rec.Media[0])
	}

	// The uploaded photo downloads back unchanged.
	f, err := b.GetFile(ctx, &bot.GetFileParams{FileID: sent.Photo[0].FileID})
	if err != nil {
		t.Fatalf("GetFile: %v", err)
	}
	if got := download(t, b.FileDownloadLink(f)); !bytes.Equal(got, img) {
		t.Errorf("downloaded %d bytes, want the %d uploaded", len(got), len(img))
	}

	msgs, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5, Media: []models.InputMedia{
		&models.InputMediaPhoto{Media: "attach://one", MediaAttachment: bytes.NewReader(img),
			Caption: "<i>Album</i>", ParseMode: models.ParseModeHTML},
		&models.InputMediaPhoto{Media: "https://example.com/two.jpg"},
		&models.InputMediaPhoto{Media: sent.Photo[0].FileID},
	}})
	if err != nil {
		t.Fatalf("SendMediaGroup: %v", err)
	}
	if len(msgs) != 3 || msgs[0].MediaGroupID == "" || msgs[0].MediaGroupID != msgs[2].MediaGroupID ||
		msgs[0].Caption != "Album" {
		t.Errorf("SendMediaGroup returned %d messages: %+v", len(msgs), msgs)
	}
	album := s.Messages()[1]
	var sources []string
	for _, m := range album.Media {
		sources = append(sources, m.Source)
	}
	if album.Method != "sendMediaGroup" || len(album.MessageIDs) != 3 || album.Plain != "Album" ||
		strings.Join(sources, ",") != "upload,url,file_id" || album.Media[1].URL != "https://example.com/two.jpg" {
		t.Errorf("album recorded as %+v (sources %v)", album, sources)
	}

	doc, err := b.SendDocument(ctx, &bot.SendDocumentParams{
		ChatID: 5, Document: &models.InputFileUpload{Filename: "feeds.opml", Data: strings.NewReader("<opml/>")},
	})
	if err != nil || doc.Document == nil || doc.Document.FileName != "feeds.opml" || doc.Document.FileSize != 7 {
		t.Errorf("SendDocument = %+v, %v", doc, err)
	}
}

func TestBotMediaRefusals(t *testing.T) {
	s := telegramtest.New(t)
	b := newBot(t, s)
	ctx := context.Background()
	const bad = "https://example.com/gone.jpg"
	s.RefuseURL(bad, "")
	img := pngBytes(t, 10, 10)
	photo := func(i int) models.InputMedia {
		return &models.InputMediaPhoto{Media: fmt.Sprintf("https://example.com/%d.jpg", i)}
	}
	tests := []struct {
		rule string
		call func() error
		want string
	}{
		{"a refused URL", func() error {
			_, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 5, Photo: &models.InputFileString{Data: bad}})
			return err
		}, telegramtest.DescWrongFile},
		{"an unknown file_id", func() error {
			_, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 5, Photo: &models.InputFileString{Data: "AgADnope"}})
			return err
		}, telegramtest.DescWrongFile},
		{"bytes that aren't an image", func() error {
			_, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 5,
				Photo: &models.InputFileUpload{Filename: "x.png", Data: strings.NewReader("<html>")}})
			return err
		}, "Bad Request: IMAGE_PROCESS_FAILED"},
		{"a photo 21 times wider than high", func() error {
			_, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 5,
				Photo: &models.InputFileUpload{Filename: "x.png", Data: bytes.NewReader(pngBytes(t, 210, 10))}})
			return err
		}, "Bad Request: PHOTO_INVALID_DIMENSIONS"},
		{"a caption over 1024 characters", func() error {
			_, err := b.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: 5, Caption: strings.Repeat("c", 1025),
				Photo: &models.InputFileUpload{Filename: "x.png", Data: bytes.NewReader(img)}})
			return err
		}, telegramtest.DescCaptionTooLong},
		{"an album item caption over 1024", func() error {
			_, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5, Media: []models.InputMedia{
				&models.InputMediaPhoto{Media: "https://example.com/a.jpg", Caption: strings.Repeat("c", 1025)}, photo(1)}})
			return err
		}, telegramtest.DescCaptionTooLong},
		{"an album with a refused URL", func() error {
			_, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5,
				Media: []models.InputMedia{photo(1), &models.InputMediaPhoto{Media: bad}}})
			return err
		}, telegramtest.DescWrongFile},
		{"an album of one", func() error {
			_, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5, Media: []models.InputMedia{photo(1)}})
			return err
		}, telegramtest.DescAlbumSize},
		{"an album of eleven", func() error {
			media := make([]models.InputMedia, 11)
			for i := range media {
				media[i] = photo(i)
			}
			_, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5, Media: media})
			return err
		}, "Bad Request: too many messages to send as an album"},
		{"documents mixed with photos", func() error {
			_, err := b.SendMediaGroup(ctx, &bot.SendMediaGroupParams{ChatID: 5, Media: []models.InputMedia{
				photo(1), &models.InputMediaDocument{Media: "https://example.com/a.pdf"}}})
			return err
		}, "Bad Request: document can't be mixed with other media types"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, bot.ErrorBadRequest) || !strings.HasSuffix(err.Error(), ", "+tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	if n := len(s.Messages()); n != 0 {
		t.Errorf("refused sends recorded %d messages", n)
	}
}

func TestBotButtonsNeedAnAction(t *testing.T) {
	s := telegramtest.New(t)
	b := newBot(t, s)
	_, err := b.SendMessage(context.Background(), &bot.SendMessageParams{ChatID: 1, Text: "x",
		ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "label"}}}}})
	want := "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("a button without an action: %v", err)
	}
}

func TestBotDownloadsUserDocument(t *testing.T) {
	s := telegramtest.New(t)
	content := []byte(`<?xml version="1.0"?><opml version="2.0"><body/></opml>`)
	handled := make(chan struct{})
	b := newBot(t, s, bot.WithDefaultHandler(func(ctx context.Context, b *bot.Bot, u *models.Update) {
		if u.Message == nil || u.Message.Document == nil {
			return
		}
		defer close(handled)
		f, err := b.GetFile(ctx, &bot.GetFileParams{FileID: u.Message.Document.FileID})
		if err != nil {
			t.Errorf("GetFile: %v", err)
			return
		}
		data, err := fetch(b.FileDownloadLink(f))
		if err != nil {
			t.Errorf("download: %v", err)
			return
		}
		_, err = b.SendMessage(ctx, &bot.SendMessageParams{ChatID: u.Message.Chat.ID,
			Text: u.Message.Document.FileName + ": " + string(data)})
		if err != nil {
			t.Errorf("SendMessage: %v", err)
		}
	}))
	startBot(t, b)
	s.SendDocument(42, 42, "feeds.opml", content)
	got := s.WaitMessages(t, 1, wait)
	if want := "feeds.opml: " + string(content); got[0].Text != want {
		t.Errorf("reply = %q, want %q", got[0].Text, want)
	}
	<-handled // the handler may still be reading the reply's response
}

func TestBotHandlesButtonPress(t *testing.T) {
	s := telegramtest.New(t)
	var pressedOn sync.Map
	handled := make(chan struct{})
	b := newBot(t, s, bot.WithCallbackQueryDataHandler("page:", bot.MatchTypePrefix,
		func(ctx context.Context, b *bot.Bot, u *models.Update) {
			defer close(handled)
			cq := u.CallbackQuery
			if cq.Message.Message != nil {
				pressedOn.Store("id", cq.Message.Message.ID)
			}
			if _, err := b.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{
				CallbackQueryID: cq.ID, Text: "Page 2"}); err != nil {
				t.Errorf("AnswerCallbackQuery: %v", err)
			}
			if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{
				ChatID: cq.Message.Message.Chat.ID, MessageID: cq.Message.Message.ID, Text: "second page"}); err != nil {
				t.Errorf("EditMessageText: %v", err)
			}
		}))
	m, err := b.SendMessage(context.Background(), &bot.SendMessageParams{ChatID: 42, Text: "first page",
		ReplyMarkup: &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{
			{{Text: "Next", CallbackData: "page:2"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	startBot(t, b)
	id := s.PressButton(42, 42, m.ID, "page:2")
	got := s.WaitMessages(t, 2, wait)
	<-handled // the handler may still be reading the edit's response
	if got[1].Method != "editMessageText" || got[1].MessageID != m.ID || got[1].Text != "second page" {
		t.Errorf("edit recorded as %+v", got[1])
	}
	if a := s.CallbackAnswers(); len(a) != 1 || a[0].CallbackQueryID != id || a[0].Text != "Page 2" {
		t.Errorf("answers = %+v", a)
	}
	if v, _ := pressedOn.Load("id"); v != m.ID {
		t.Errorf("callback carried message %v, want %d", v, m.ID)
	}
	_, err = b.EditMessageText(context.Background(), &bot.EditMessageTextParams{ChatID: 42, MessageID: m.ID, Text: "second page"})
	if err == nil || !strings.Contains(err.Error(), "message is not modified") {
		t.Errorf("an unchanged edit: %v", err)
	}
	if ok, err := b.DeleteMessage(context.Background(), &bot.DeleteMessageParams{ChatID: 42, MessageID: m.ID}); !ok || err != nil {
		t.Errorf("DeleteMessage: %v", err)
	}
	if !s.Messages()[0].Deleted {
		t.Error("the deleted message is not marked")
	}
	if _, err := b.DeleteMessage(context.Background(), &bot.DeleteMessageParams{ChatID: 42, MessageID: m.ID}); err == nil ||
		!strings.HasSuffix(err.Error(), "Bad Request: message to delete not found") {
		t.Errorf("deleting twice: %v", err)
	}
}

func TestBotChatsAndCommands(t *testing.T) {
	s := telegramtest.New(t)
	s.AddChat(models.Chat{ID: -1005, Type: models.ChatTypeChannel, Title: "News", Username: "news"})
	s.SetChatMemberStatus(-1005, 42, "left")
	b := newBot(t, s)
	ctx := context.Background()

	chat, err := b.GetChat(ctx, &bot.GetChatParams{ChatID: "@news"})
	if err != nil || chat.ID != -1005 || chat.Title != "News" || chat.Type != models.ChatTypeChannel {
		t.Errorf("GetChat = %+v, %v", chat, err)
	}
	if _, err := b.GetChat(ctx, &bot.GetChatParams{ChatID: "@missing"}); err == nil ||
		!strings.HasSuffix(err.Error(), telegramtest.DescChatNotFound) {
		t.Errorf("GetChat(@missing): %v", err)
	}
	me, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: -1005, UserID: s.Bot().ID})
	if err != nil || me.Type != models.ChatMemberTypeAdministrator || !me.Administrator.CanPostMessages {
		t.Errorf("bot in channel = %+v, %v", me, err)
	}
	user, err := b.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: -1005, UserID: 42})
	if err != nil || user.Type != models.ChatMemberTypeLeft {
		t.Errorf("user in channel = %+v, %v", user, err)
	}

	commands := []models.BotCommand{{Command: "sub", Description: "Subscribe"}, {Command: "rss", Description: "List"}}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: commands}); err != nil {
		t.Fatalf("SetMyCommands: %v", err)
	}
	if got := s.Commands(); len(got) != 2 || got[0] != commands[0] || got[1] != commands[1] {
		t.Errorf("Commands = %+v", got)
	}
	_, err = b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "Sub", Description: "x"}}})
	if err == nil || !strings.HasSuffix(err.Error(), "Bad Request: BOT_COMMAND_INVALID") {
		t.Errorf("an upper-case command: %v", err)
	}
}

// fatalRecorder captures Fatalf, ending the goroutine as testing.T does.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestWaitMessagesFailsOnTimeout(t *testing.T) {
	s := telegramtest.New(t)
	s.FailNext("sendMessage", 400, telegramtest.DescChatNotFound, nil)
	if _, err := newBot(t, s).SendMessage(context.Background(), &bot.SendMessageParams{ChatID: 1, Text: "x"}); err == nil {
		t.Fatal("the queued failure did not apply")
	}
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WaitMessages(rec, 1, 20*time.Millisecond)
	}()
	<-done
	if !strings.Contains(rec.msg, "for 1 messages, got 0") || !strings.Contains(rec.msg, telegramtest.DescChatNotFound) {
		t.Errorf("WaitMessages failure = %q", rec.msg)
	}
}

func fetch(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

func download(t *testing.T, url string) []byte {
	t.Helper()
	data, err := fetch(url)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
