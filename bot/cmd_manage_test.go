package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// /pollnow polls at once and names the new entries; what it queued is
// delivered to the subscribed chat. /stats shows the feed's numbers.
func TestPollNowAndStats(t *testing.T) {
	h := newHarness(t)
	id := h.subscribe(t, h.feed, "@news")
	ids := fmt.Sprint(id)

	r := h.say(t, "/pollnow "+ids)
	wantAll(t, "pollnow, nothing new", r.Plain, "Polled Channel <News>: not modified.", "0 new entries, 0 queued", "Next poll:", "the poll interval")

	h.site.add("Three <3>", "Four")
	r = h.say(t, "/pollnow "+ids)
	wantAll(t, "pollnow", r.Plain, "2 new entries, 2 queued", "• Three <3>", "• Four")
	if !strings.Contains(r.Text, `<a href="`+h.site.url("/post/three")) {
		t.Errorf("new entries are not linked: %q", r.Text)
	}
	posts := h.wait(t, newsChannel.ID, 2)
	wantAll(t, "delivered", posts[0].Plain+posts[1].Plain, "Three <3>", "Four")

	r = h.say(t, "/stats "+ids)
	wantAll(t, "stats", r.Plain, "Channel <News> (subscription "+ids+")", h.feed, "Entries imported: 4", "never queued",
		"Posts:", "Recent polls: 3", "Last poll:", "Next poll:", "Recent activity", "imported: 2 new, 2 queued")

	r = h.say(t, "/stats")
	wantAll(t, "overview", r.Plain, "Subscriptions: 1 (paused: 0) · chats: 1 · feeds: 1 (disabled: 0, failing: 0)")

	// A disabled feed is not polled; /stats says why it stopped.
	ctx := context.Background()
	f, _ := h.store.FeedByURL(ctx, h.feed)
	f.DisabledAt, f.DisabledReason = time.Now(), "the server says the feed is gone (HTTP 410)"
	f.LastError = "410 Gone"
	if err := h.store.SaveFeed(ctx, f); err != nil {
		t.Fatal(err)
	}
	wantAll(t, "pollnow disabled", h.say(t, "/pollnow "+ids).Plain, "is disabled and not polled", "/sub "+h.feed)
	wantAll(t, "stats disabled", h.say(t, "/stats "+ids).Plain, "🚫 Disabled", "HTTP 410", "Last error: 410 Gone")
	wantAll(t, "overview trouble", h.say(t, "/stats").Plain, "disabled: 1", "Feeds in trouble", ids+". Channel <News>: 410 Gone")

	for _, bad := range []string{"/pollnow", "/pollnow x", "/stats 1 2", "/stats x"} {
		wantAll(t, bad, h.say(t, bad).Plain, "Usage:")
	}
	wantAll(t, "unknown id", h.say(t, "/pollnow 999").Plain, "No subscription 999")
}

func TestSet(t *testing.T) {
	h := newHarness(t)
	id := h.subscribe(t, h.feed, "")
	ids := fmt.Sprint(id)
	ctx := context.Background()
	get := func() (silent bool, media string, split bool, topic int64, tmpl, backfill string) {
		s, err := h.store.SubscriptionByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s.Silent, s.MediaMode, s.Split, s.TopicID, s.Template, s.Backfill
	}
	steps := []struct {
		say  string
		want string
		then string // fmt of get() after the step
	}{
		{"/set " + ids, "silent: off\nmedia: preview\nsplit: off\ntopic: none\ntemplate: the default\nbackfill: none", "false preview false 0  none"},
		{"/set " + ids + " silent on", "silent is now on", "true preview false 0  none"},
		{"/set " + ids + " MEDIA Album", "media is now album", "true album false 0  none"},
		{"/set " + ids + " media video", "video is not a value of media. Allowed: none|preview|photo|album", "true album false 0  none"},
		{"/set " + ids + " split", "split needs a value. Allowed: on|off", "true album false 0  none"},
		{"/set " + ids + " split on", "split is now on", "true album true 0  none"},
		{"/set " + ids + " backfill all", "backfill is now all", "true album true 0  all"},
		{"/set " + ids + " colour red", "There is no option colour. Options: silent on|off", "true album true 0  all"},
		{"/set " + ids + " topic 5", "has no forum topics", "true album true 0  all"},
		{"/set " + ids + " topic x", "x is not a value of topic. Allowed: N|none", "true album true 0  all"},
		{"/set " + ids + " template <b>{{.Title}}</b>\n{{.PostLink}}", "template is now its own (31 characters)", "true album true 0 <b>{{.Title}}</b>\n{{.PostLink}} all"},
		{"/set " + ids + " template {{.Nope}}", "The template does not work", "true album true 0 <b>{{.Title}}</b>\n{{.PostLink}} all"},
		{"/set " + ids + " template <p>x</p>", "not Telegram HTML", "true album true 0 <b>{{.Title}}</b>\n{{.PostLink}} all"},
		{"/set " + ids + " template reset", "template is now the default", "true album true 0  all"},
		{"/set 999 silent on", "No subscription 999", "true album true 0  all"},
		{"/set", "Usage: /set ID", "true album true 0  all"},
		{"/set " + ids + " silent on extra", "Usage: /set ID", "true album true 0  all"},
	}
	for _, s := range steps {
		wantAll(t, s.say, h.say(t, s.say).Plain, s.want)
		silent, media, split, topic, tmpl, backfill := get()
		if got := fmt.Sprintf("%v %v %v %v %v %v", silent, media, split, topic, tmpl, backfill); got != s.then {
			t.Errorf("after %q: %q, want %q", s.say, got, s.then)
		}
	}
}

// The topic option moves a forum subscription between topics.
func TestSetTopicInForum(t *testing.T) {
	h := newHarness(t)
	id := h.subscribe(t, h.feed, "@forum/3")
	other := h.subscribe(t, h.feed, "@forum/4")
	wantAll(t, "move", h.say(t, fmt.Sprintf("/set %d topic 9", id)).Plain, "topic is now 9")
	wantAll(t, "taken", h.say(t, fmt.Sprintf("/set %d topic 9", other)).Plain, "already follows this feed in topic 9")
	wantAll(t, "none", h.say(t, fmt.Sprintf("/set %d topic none", other)).Plain, "topic is now none")
	s, err := h.store.SubscriptionByID(context.Background(), id)
	if err != nil || s.TopicID != 9 {
		t.Errorf("topic = %d, %v; want 9", s.TopicID, err)
	}
}
