package deliver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/templates"
)

// The preview contract (DESIGN.md): {"method":…,"params":{…}}, an upload as
// {"upload":{"name":…,"bytes":N,"sha256":…}} in place of the file.
func TestRequestsJSON(t *testing.T) {
	img := pngBytes(t, 8, 8)
	s := &Sender{}
	post := templates.Post{Calls: []templates.Call{
		photoCall("<b>cap</b>", dataURL(img)),
		photoCall("", "https://img.example/a.jpg", dataURL(img)),
		{Method: templates.SendMessage, Text: "a <b>b</b> & c", Preview: templates.LinkPreview{URL: "https://e.org/i.jpg", AboveText: true, Large: true}},
	}}
	reqs := s.Requests(Target{}, post)
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // as the preview writes them
	enc.SetEscapeHTML(false)
	if err := enc.Encode(reqs); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	if strings.Contains(string(raw), `\u003c`) {
		t.Errorf("HTML escaped in %s", raw)
	}
	var got []struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	upload := func(v any) map[string]any {
		m, _ := v.(map[string]any)
		u, _ := m["upload"].(map[string]any)
		return u
	}
	if got[0].Method != "sendPhoto" || got[0].Params["caption"] != "<b>cap</b>" || got[0].Params["parse_mode"] != "HTML" {
		t.Errorf("photo = %+v", got[0])
	}
	if u := upload(got[0].Params["photo"]); u == nil || u["sha256"] != sha(img) || u["bytes"] != float64(len(img)) ||
		!strings.HasPrefix(u["name"].(string), "image-") {
		t.Errorf("photo upload = %v", got[0].Params["photo"])
	}
	if _, ok := got[0].Params["chat_id"]; ok {
		t.Error("a preview has no chat_id")
	}
	media, _ := got[1].Params["media"].([]any)
	if got[1].Method != "sendMediaGroup" || len(media) != 2 {
		t.Fatalf("album = %+v", got[1])
	}
	first, second := media[0].(map[string]any), media[1].(map[string]any)
	if first["media"] != "https://img.example/a.jpg" || first["type"] != "photo" || upload(second["media"])["sha256"] != sha(img) {
		t.Errorf("album items = %v", media)
	}
	lp, _ := got[2].Params["link_preview_options"].(map[string]any)
	if got[2].Params["text"] != "a <b>b</b> & c" || lp["url"] != "https://e.org/i.jpg" || lp["show_above_text"] != true || lp["prefer_large_media"] != true {
		t.Errorf("message = %+v", got[2])
	}
}

// A media call whose images are all unusable shows its fallback.
func TestRequestsFallback(t *testing.T) {
	reqs := (&Sender{}).Requests(Target{}, templates.Post{Calls: []templates.Call{photoCall("cap", "data:image/png;base64,!!!")}})
	if len(reqs) != 1 || reqs[0].Method != "sendMessage" || reqs[0].Message.Text != "cap" {
		t.Errorf("requests = %+v", reqs)
	}
}
