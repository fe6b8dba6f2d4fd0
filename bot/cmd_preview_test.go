package bot

import (
	"fmt"
	"reflect"
	"testing"
)

// /preview posts the first entry as delivery would post it, after a line
// that marks it as a preview.
func TestPreview(t *testing.T) {
	h := newHarness(t)
	id := h.subscribe(t, h.feed, "@news")
	h.site.add("Five & more")
	h.say(t, fmt.Sprintf("/pollnow %d", id))
	delivered := h.wait(t, newsChannel.ID, 1)[0]

	got := h.sayN(t, "/preview "+h.feed, 2)
	wantAll(t, "head", got[0].Plain, "Preview of Channel <News>", h.feed, "first entry")
	post := got[1]
	if post.Method != delivered.Method || post.Text != delivered.Text || post.ParseMode != delivered.ParseMode ||
		!reflect.DeepEqual(post.LinkPreviewOptions, delivered.LinkPreviewOptions) {
		t.Errorf("preview post differs from the delivered one:\npreview   %s %q %+v\ndelivered %s %q %+v",
			post.Method, post.Text, post.LinkPreviewOptions, delivered.Method, delivered.Text, delivered.LinkPreviewOptions)
	}
	wantAll(t, "post", post.Plain, "Five & more")

	// A website: its first feed, and the head says there were more.
	got = h.sayN(t, "/preview "+h.site.url("/page"), 2)
	wantAll(t, "site head", got[0].Plain, "Preview of Channel <News>", "The site offers 2 feeds; this is the first.")
	wantAll(t, "site post", got[1].Plain, "Five & more")

	steps := []struct{ say, want string }{
		{"/preview " + h.site.url("/empty"), "Empty (" + h.site.url("/empty") + ") lists no entries yet"},
		{"/preview " + h.site.url("/missing"), "No preview of " + h.site.url("/missing")},
		{"/preview", "Usage: /preview URL"},
		{"/preview a b", "Usage: /preview URL"},
	}
	for _, s := range steps {
		wantAll(t, s.say, h.say(t, s.say).Plain, s.want)
	}
}
