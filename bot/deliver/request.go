package deliver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/templates"
)

// Target is where a post goes.
type Target struct {
	ChatID  int64
	TopicID int64 // forum topic; 0 = none
	Silent  bool  // disable_notification
}

// Upload is a file sent with a request: a data: image, or an image
// downloaded because Telegram could not fetch it by URL.
type Upload struct {
	Name string
	Data []byte
}

// photo is one image of a call: by URL, or as an upload.
type photo struct {
	url    string
	upload *Upload
}

// Request is one Bot API call ready to go. Exactly one of the params is set.
// A Request's readers are spent by one send: build a new one for every
// attempt.
type Request struct {
	Method  string
	Message *tgbot.SendMessageParams
	Photo   *tgbot.SendPhotoParams
	Album   *tgbot.SendMediaGroupParams
	uploads map[string]*Upload // by attach name or field
}

// buildMessage is sendMessage for a text call in parse mode mode (HTML, or
// empty for plain text).
func buildMessage(t Target, c templates.Call, mode models.ParseMode) Request {
	p := &tgbot.SendMessageParams{
		ChatID:              t.ChatID,
		MessageThreadID:     int(t.TopicID),
		Text:                c.Text,
		ParseMode:           mode,
		DisableNotification: t.Silent,
		LinkPreviewOptions:  linkPreview(c.Preview),
	}
	return Request{Method: templates.SendMessage, Message: p}
}

func linkPreview(lp templates.LinkPreview) *models.LinkPreviewOptions {
	if lp.Disabled || lp.URL == "" {
		return &models.LinkPreviewOptions{IsDisabled: tgbot.True()}
	}
	o := &models.LinkPreviewOptions{URL: &lp.URL}
	if lp.AboveText {
		o.ShowAboveText = tgbot.True()
	}
	if lp.Large {
		o.PreferLargeMedia = tgbot.True()
	}
	return o
}

// buildMedia is sendPhoto for one photo and sendMediaGroup for several,
// with the call's text as the (first) caption in parse mode mode. Uploads
// get fresh readers.
func buildMedia(t Target, c templates.Call, photos []photo, mode models.ParseMode) Request {
	if len(photos) == 1 {
		p := &tgbot.SendPhotoParams{
			ChatID:              t.ChatID,
			MessageThreadID:     int(t.TopicID),
			Caption:             c.Text,
			ParseMode:           mode,
			DisableNotification: t.Silent,
		}
		r := Request{Method: templates.SendPhoto, Photo: p}
		if up := photos[0].upload; up != nil {
			p.Photo = &models.InputFileUpload{Filename: up.Name, Data: bytes.NewReader(up.Data)}
			r.uploads = map[string]*Upload{"photo": up}
		} else {
			p.Photo = &models.InputFileString{Data: photos[0].url}
		}
		return r
	}
	p := &tgbot.SendMediaGroupParams{
		ChatID:              t.ChatID,
		MessageThreadID:     int(t.TopicID),
		DisableNotification: t.Silent,
	}
	r := Request{Method: templates.SendMediaGroup, Album: p, uploads: map[string]*Upload{}}
	for i, ph := range photos {
		item := &models.InputMediaPhoto{Media: ph.url}
		if ph.upload != nil {
			// The attach name is also the part's file name; the index keeps
			// two images of one name apart.
			name := fmt.Sprintf("photo%d", i)
			item.Media, item.MediaAttachment = "attach://"+name, bytes.NewReader(ph.upload.Data)
			r.uploads[name] = ph.upload
		}
		if i == 0 && c.Text != "" {
			item.Caption, item.ParseMode = c.Text, mode
		}
		p.Media = append(p.Media, item)
	}
	return r
}

// MarshalJSON writes the request as `rssbot preview --json` shows it:
// {"method":…,"params":{…}}, every upload as
// {"upload":{"name":…,"bytes":N,"sha256":…}} in place of the file, and no
// chat (a preview has none).
func (r Request) MarshalJSON() ([]byte, error) {
	var params any
	switch {
	case r.Message != nil:
		params = r.Message
	case r.Photo != nil:
		params = r.Photo
	case r.Album != nil:
		params = r.Album
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("deliver: encode %s: %w", r.Method, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("deliver: encode %s: %w", r.Method, err)
	}
	if id, ok := m["chat_id"].(float64); ok && id == 0 || m["chat_id"] == nil {
		delete(m, "chat_id")
	}
	if up := r.uploads["photo"]; up != nil {
		m["photo"] = describeUpload(up)
	}
	if r.Album != nil {
		items, err := r.albumItems()
		if err != nil {
			return nil, err
		}
		m["media"] = items
	}
	return marshalReadable(map[string]any{"method": r.Method, "params": m})
}

// albumItems encodes the album's items as the client sends them (with
// their "type"), uploads described.
func (r Request) albumItems() ([]any, error) {
	items := make([]any, 0, len(r.Album.Media))
	for _, in := range r.Album.Media {
		raw, err := in.MarshalInputMedia()
		if err != nil {
			return nil, fmt.Errorf("deliver: encode album item: %w", err)
		}
		var item map[string]any
		if err := json.Unmarshal(raw, &item); err != nil {
			return nil, fmt.Errorf("deliver: encode album item: %w", err)
		}
		if name, ok := strings.CutPrefix(in.GetMedia(), "attach://"); ok && r.uploads[name] != nil {
			item["media"] = describeUpload(r.uploads[name])
		}
		items = append(items, item)
	}
	return items, nil
}

// marshalReadable encodes JSON without escaping <, > and &, which Telegram
// HTML is full of.
func marshalReadable(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("deliver: encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func describeUpload(up *Upload) map[string]any {
	sum := sha256.Sum256(up.Data)
	return map[string]any{"upload": map[string]any{"name": up.Name, "bytes": len(up.Data), "sha256": hex.EncodeToString(sum[:])}}
}
