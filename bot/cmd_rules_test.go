package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Filters are added (checked by the filter parser), listed and deleted,
// and an exclude filter keeps matching entries from being queued.
func TestFilterCommands(t *testing.T) {
	h := newHarness(t)
	id := h.subscribe(t, h.feed, "@news")
	ids := fmt.Sprint(id)
	steps := []struct{ say, want string }{
		{"/filter " + ids + " add exclude title keyword Three  drinks", "Filter 1 (subscription " + ids + "): exclude entries whose title matches the keyword «Three  drinks»"},
		{"/filter " + ids + " add exclude title keyword Four", "Filter 2 (subscription " + ids + ")"},
		{"/filter global add include any regex (?i)news|four|three|one|two", "Filter 3 (global): include"},
		{"/filter global add exclude content regex (unclosed", "Filter refused"},
		{"/filter " + ids + " list", "3 filters:"},
		{"/filter global", "1 filter:"},
		{"/filter del 1", "Filter 1 deleted"},
		{"/filter del 1", "There is no filter 1"},
		{"/filter " + ids + " add sometimes title keyword x", "Usage:"},
		{"/filter " + ids + " add include colour keyword x", "Usage:"},
		{"/filter " + ids + " add include title glob x", "Usage:"},
		{"/filter " + ids + " add include title keyword", "Usage:"},
		{"/filter 999 list", "No subscription 999"},
		{"/filter", "Usage:"},
	}
	for _, s := range steps {
		wantAll(t, s.say, h.say(t, s.say).Plain, s.want)
	}
	r := h.say(t, "/filter "+ids+" add include title regex (")
	wantAll(t, "bad regex", r.Plain, "Filter refused", "missing closing )")

	list := h.say(t, "/filter "+ids+" list").Plain
	wantAll(t, "list", list, "2. [subscription "+ids+"] exclude title keyword «Four»", "3. [global] include any regex «(?i)news|four|three|one|two»")
	if strings.Contains(list, "Three") {
		t.Errorf("deleted filter still listed: %q", list)
	}

	// Filter 2 excludes "Four"; "Three drinks" passes now that filter 1 is gone.
	h.site.add("Three drinks", "Four")
	wantAll(t, "pollnow", h.say(t, "/pollnow "+ids).Plain, "2 new entries, 1 queued")
	posts := h.wait(t, newsChannel.ID, 1)
	wantAll(t, "delivered", posts[0].Plain, "Three drinks")
}

// Replacement rules: literal and RE2, per feed and global, removal when
// there is no replacement; they apply to what is posted (here: previews).
func TestReplacementCommands(t *testing.T) {
	h := newHarness(t)
	other := h.site.url("/other.xml")
	id := h.subscribe(t, other, "")
	ids := fmt.Sprint(id)
	steps := []struct{ say, want string }{
		{"/repl_add Read more on Other", "Rule 1 (global): text «Read more on Other» is removed in titles and content"},
		{"/repl_add " + ids + " world => planet earth", "Rule 2 (feed of subscription " + ids + "): text «world» is replaced by «planet earth»"},
		{"/repl_add_re global (f)irst => \" ${1}IRST\"", "Rule 3 (global): regex «(f)irst» is replaced by « ${1}IRST»"},
		{"/repl_add_re global ([a-z", "Replacement refused"},
		{"/repl_add", "Usage: /repl_add"},
		{"/repl_add 5", "Usage: /repl_add"},
		{"/repl_add global =>", "Usage: /repl_add"},
		{"/repl_add 999 x", "No subscription 999"},
		{"/repl_list", "2 replacement rules:"},
		{"/repl_list " + ids, "3 replacement rules:"},
		{"/repl_list x", "Usage: /repl_list"},
	}
	for _, s := range steps {
		wantAll(t, s.say, h.say(t, s.say).Plain, s.want)
	}
	list := h.say(t, "/repl_list "+ids).Plain
	wantAll(t, "list", list, "1. [global] text «Read more on Other» → (removed)", "2. [feed of subscription "+ids+"] text «world» → «planet earth»")

	got := h.sayN(t, "/preview "+other, 2)
	wantAll(t, "preview with rules", got[1].Plain, "fIRST", "Hello planet earth.")
	if strings.Contains(got[1].Plain, "Read more") {
		t.Errorf("removed text still posted: %q", got[1].Plain)
	}

	wantAll(t, "del", h.say(t, "/repl_del 2").Plain, "Rule 2 deleted")
	wantAll(t, "del again", h.say(t, "/repl_del 2").Plain, "There is no replacement rule 2")
	wantAll(t, "del usage", h.say(t, "/repl_del").Plain, "Usage: /repl_del")
	rules, err := h.store.Replacements(context.Background(), 0)
	if err != nil || len(rules) != 2 {
		t.Errorf("global rules = %+v, %v", rules, err)
	}
}
