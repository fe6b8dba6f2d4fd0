package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/i18n"
	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine"
)

// /export sends every subscription as an OPML document; sending that
// document back with the caption /import (or replying /import to it)
// subscribes the chat it is sent in.
func TestExportImport(t *testing.T) {
	h := newHarness(t)
	wantAll(t, "empty export", h.say(t, "/export").Plain, "Nothing to export")
	h.subscribe(t, h.feed, "")
	h.subscribe(t, h.site.url("/other.xml"), "@news")

	doc := h.say(t, "/export")
	if doc.Method != "sendDocument" || len(doc.Media) != 1 || doc.Media[0].Source != "upload" {
		t.Fatalf("/export sent %s %+v, want one uploaded document", doc.Method, doc.Media)
	}
	wantAll(t, "caption", doc.Plain, "2 subscriptions as OPML")
	if doc.Media[0].Upload == nil || doc.Media[0].Upload.Name != exportName {
		t.Errorf("upload = %+v, want %s", doc.Media[0].Upload, exportName)
	}
	opml, ok := h.tg.FileContent(doc.Media[0].FileID)
	if !ok {
		t.Fatal("the exported file is not on the server")
	}
	wantAll(t, "opml", string(opml), "<opml", `xmlUrl="`+h.feed+`"`, `xmlUrl="`+h.site.url("/other.xml")+`"`)

	group := models.Chat{ID: -1003333, Type: models.ChatTypeSupergroup, Title: "Group"}
	document := &models.Document{FileID: doc.Media[0].FileID, FileName: "subs.opml", FileSize: int64(len(opml))}
	send := func(m models.Message) telegramtest.Message {
		before := len(h.tg.MessagesTo(group.ID))
		m.ID, m.Date, m.Chat, m.From = 500+before, int(time.Now().Unix()), group, &models.User{ID: testAdmin, FirstName: "Admin"}
		h.tg.AddUpdate(models.Update{Message: &m})
		return h.wait(t, group.ID, before+1)[before]
	}
	r := send(models.Message{Caption: "/import", Document: document})
	wantAll(t, "import", r.Plain, "OPML imported. Added: 2 (new feeds: 0", "already subscribed: 0 · duplicates: 0 · invalid: 0")
	subs, err := h.store.SubscriptionsByChat(context.Background(), group.ID)
	if err != nil || len(subs) != 2 {
		t.Fatalf("group subscriptions = %+v, %v", subs, err)
	}

	r = send(models.Message{Text: "/import", ReplyToMessage: &models.Message{ID: 1, Chat: group, Document: document}})
	wantAll(t, "import again", r.Plain, "Added: 0", "already subscribed: 2")

	r = send(models.Message{Text: "/import"})
	wantAll(t, "no document", r.Plain, "Usage: send an OPML file")
	r = send(models.Message{Caption: "/import", Document: &models.Document{FileID: "nosuchfile", FileName: "x.opml", FileSize: 10}})
	wantAll(t, "bad file id", r.Plain, "Import failed", "wrong file_id")
	r = send(models.Message{Caption: "/import", Document: &models.Document{FileID: "big", FileName: "x.opml", FileSize: importMaxBytes + 1}})
	wantAll(t, "too big", r.Plain, "larger than 10 MiB")

	// A chat argument imports into that chat instead.
	r = send(models.Message{Caption: "/import @news", Document: document})
	wantAll(t, "import into @news", r.Plain, "OPML imported in @news. Added: 1", "already subscribed: 1")
}

// The import report counts and names what was refused.
func TestImportReport(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := &Bot{msg: cat.For("en")}
	res := engine.OPMLImport{Added: []string{"a", "b"}, NewFeeds: 1, Existing: []string{"c"}, Duplicates: []string{"a"}}
	for i := range 12 {
		res.Invalid = append(res.Invalid, engine.OPMLProblem{URL: "ftp://<x>/" + strings.Repeat("i", i), Reason: "not an absolute http(s) URL"})
	}
	got := b.importReport(res, " in @news")
	wantAll(t, "report", got, "OPML imported in @news. Added: 2 (new feeds: 1", "already subscribed: 1 · duplicates: 1 · invalid: 12",
		"• ftp://&lt;x&gt;/: not an absolute", "… and 2 more")
	if n := strings.Count(got, "• "); n != importListed {
		t.Errorf("report names %d refused URLs, want %d", n, importListed)
	}
}
