package deliver

import (
	"context"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/templates"
)

var target = Target{ChatID: chatID}

func photoCall(caption string, images ...string) templates.Call {
	c := templates.Call{Method: templates.SendPhoto, Text: caption, Images: images}
	if len(images) > 1 {
		c.Method = templates.SendMediaGroup
	}
	if caption != "" {
		c.Fallback = &templates.Call{Method: templates.SendMessage, Text: caption, Preview: templates.LinkPreview{Disabled: true}}
	}
	return c
}

func textCall(text string) templates.Call {
	return templates.Call{Method: templates.SendMessage, Text: text, Preview: templates.LinkPreview{Disabled: true}}
}

func send(t *testing.T, s *Sender, calls ...templates.Call) ([]int, error) {
	t.Helper()
	sent, err := s.Send(context.Background(), target, templates.Post{Calls: calls})
	return sent.IDs, err
}

func TestSendPhotoByURL(t *testing.T) {
	tg, api := newAPI(t)
	ids, err := send(t, newSender(api), photoCall("<b>cap</b>", "https://img.example/a.jpg"))
	if err != nil || len(ids) != 1 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	m := tg.Messages()[0]
	if m.Method != "sendPhoto" || m.Media[0].Source != "url" || m.Media[0].URL != "https://img.example/a.jpg" || m.Plain != "cap" {
		t.Errorf("message = %+v", m)
	}
}

// The rule: an image Telegram refuses by URL is downloaded through
// engine/fetch and uploaded.
func TestSendRefusedURLIsUploaded(t *testing.T) {
	img := pngBytes(t, 40, 30)
	for _, desc := range []string{"", "Bad Request: failed to get HTTP URL content"} {
		t.Run(desc, func(t *testing.T) {
			tg, api := newAPI(t)
			srv := imageServer(t, map[string][]byte{"/img/a.png": img})
			tg.RefuseURL(srv.URL+"/img/a.png", desc)
			ids, err := send(t, newSender(api), photoCall("cap", srv.URL+"/img/a.png"))
			if err != nil || len(ids) != 1 {
				t.Fatalf("Send = %v, %v", ids, err)
			}
			msgs := tg.Messages()
			if len(msgs) != 1 || msgs[0].Method != "sendPhoto" || msgs[0].Media[0].Source != "upload" {
				t.Fatalf("messages = %+v", msgs)
			}
			if up := msgs[0].Media[0].Upload; up.SHA256 != sha(img) || up.Name != "a.png" {
				t.Errorf("upload = %s %s, want a.png %s", up.Name, up.SHA256, sha(img))
			}
			if reqs := tg.Requests("sendPhoto"); len(reqs) != 2 || reqs[0].Err == nil {
				t.Errorf("sendPhoto requests = %+v, want a refused URL then an upload", reqs)
			}
		})
	}
}

// An image never holds back its entry: when the upload fails too, the
// caption goes out as a text.
func TestSendFallsBackToText(t *testing.T) {
	tg, api := newAPI(t)
	srv := imageServer(t, nil) // every image 404
	tg.RefuseURL(srv.URL+"/img/gone.png", "")
	ids, err := send(t, newSender(api), photoCall("<i>the text</i>", srv.URL+"/img/gone.png"))
	if err != nil || len(ids) != 1 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	msgs := tg.Messages()
	if len(msgs) != 1 || msgs[0].Method != "sendMessage" || msgs[0].Plain != "the text" {
		t.Errorf("messages = %+v, want the caption as a text", msgs)
	}
}

// A photo without caption (its text follows) is dropped when it cannot be
// sent; the text still goes.
func TestSendSkipsUnusablePhotoBeforeText(t *testing.T) {
	tg, api := newAPI(t)
	tg.RefuseURL("https://img.example/x.jpg", "Bad Request: IMAGE_PROCESS_FAILED")
	ids, err := send(t, newSender(api), photoCall("", "https://img.example/x.jpg"), textCall("long text"))
	if err != nil || len(ids) != 1 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	if msgs := tg.Messages(); len(msgs) != 1 || msgs[0].Plain != "long text" {
		t.Errorf("messages = %+v", msgs)
	}
	if n := len(tg.Requests("sendPhoto")); n != 1 {
		t.Errorf("%d sendPhoto requests: a refusal an upload cannot cure must not download", n)
	}
}

func TestSendAlbumUploadsRefusedImages(t *testing.T) {
	a, b := pngBytes(t, 10, 10), pngBytes(t, 20, 10)
	tg, api := newAPI(t)
	srv := imageServer(t, map[string][]byte{"/img/a.png": a, "/img/b.png": b})
	tg.RefuseURL(srv.URL+"/img/b.png", "")
	ids, err := send(t, newSender(api), photoCall("album", srv.URL+"/img/a.png", srv.URL+"/img/b.png", dataURL(a)))
	if err != nil || len(ids) != 3 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	m := tg.Messages()[0]
	if m.Method != "sendMediaGroup" || len(m.Media) != 3 || m.Plain != "album" {
		t.Fatalf("message = %+v", m)
	}
	for i, want := range []string{sha(a), sha(b), sha(a)} {
		if m.Media[i].Source != "upload" || m.Media[i].Upload.SHA256 != want {
			t.Errorf("item %d = %s %+v, want an upload of %s", i, m.Media[i].Source, m.Media[i].Upload, want)
		}
	}
}

// An album whose images mostly cannot be had shrinks to a single photo.
func TestSendAlbumShrinksToPhoto(t *testing.T) {
	a := pngBytes(t, 10, 10)
	tg, api := newAPI(t)
	srv := imageServer(t, map[string][]byte{"/img/a.png": a})
	for _, p := range []string{"/img/a.png", "/img/404.png"} {
		tg.RefuseURL(srv.URL+p, "")
	}
	ids, err := send(t, newSender(api), photoCall("cap", srv.URL+"/img/a.png", srv.URL+"/img/404.png"))
	if err != nil || len(ids) != 1 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	if m := tg.Messages()[0]; m.Method != "sendPhoto" || m.Media[0].Upload.SHA256 != sha(a) || m.Plain != "cap" {
		t.Errorf("message = %+v", m)
	}
}

// data: images are uploaded at once; a retried call uploads them whole
// again (a reader is spent after one attempt).
func TestSendDataImageUploadedAndRebuiltOnRetry(t *testing.T) {
	img := pngBytes(t, 16, 16)
	tg, api := newAPI(t)
	tg.FailNextWith("sendPhoto", telegramtest.RetryAfterError(1))
	start := time.Now()
	ids, err := send(t, newSender(api), textCall("first"), photoCall("", dataURL(img)))
	if err != nil || len(ids) != 2 {
		t.Fatalf("Send = %v, %v", ids, err)
	}
	if time.Since(start) < time.Second {
		t.Error("the retry did not wait for retry_after")
	}
	m := tg.Messages()[1]
	if m.Method != "sendPhoto" || m.Media[0].Source != "upload" || m.Media[0].Upload.SHA256 != sha(img) {
		t.Errorf("message = %+v", m)
	}
}

// Errors that are not the images' fault end the post as they are.
func TestSendChatErrorIsReturned(t *testing.T) {
	tg, api := newAPI(t)
	tg.FailChat(chatID, &telegramtest.APIError{Code: 403, Description: telegramtest.DescBlocked})
	ids, err := send(t, newSender(api), photoCall("cap", "https://img.example/a.jpg"))
	if err == nil || len(ids) != 0 {
		t.Fatalf("Send = %v, %v; want the 403", ids, err)
	}
	if n := tg.Calls("sendMessage"); n != 0 {
		t.Errorf("%d sendMessage calls after a 403", n)
	}
}

// A later part failing for good leaves the earlier ids: the post is partly
// sent and must not be repeated.
func TestSendPartialReturnsIDs(t *testing.T) {
	tg, api := newAPI(t)
	tg.FailNext("sendMessage", 400, "Bad Request: chat not found", nil)
	ids, err := send(t, newSender(api), photoCall("", "https://img.example/a.jpg"), textCall("rest"))
	if err == nil || len(ids) != 1 {
		t.Fatalf("Send = %v, %v; want one id and the error", ids, err)
	}
}
