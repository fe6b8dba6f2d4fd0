package bot

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/i18n"
	"github.com/rssbot/rssbot/engine/filter"
	"github.com/rssbot/rssbot/storage"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		text string
		name string
		args []string
		ok   bool
	}{
		{"/sub https://a.example/feed", "sub", []string{"https://a.example/feed"}, true},
		{"/SUB@MyBot  https://a.example/feed   @chan", "sub", []string{"https://a.example/feed", "@chan"}, true},
		{"/rss", "rss", []string{}, true},
		{"hello /sub", "", nil, false},
		{"", "", nil, false},
		{"/", "", []string{}, false},
	}
	for _, tt := range tests {
		name, args, ok := parseCommand(tt.text)
		if name != tt.name || ok != tt.ok || (ok && !reflect.DeepEqual(args, tt.args)) {
			t.Errorf("parseCommand(%q) = %q %q %v, want %q %q %v", tt.text, name, args, ok, tt.name, tt.args, tt.ok)
		}
	}
}

func TestParseChatRef(t *testing.T) {
	tests := []struct {
		in      string
		want    chatRef
		wantErr bool
	}{
		{"@news", chatRef{username: "@news"}, false},
		{"-1001234", chatRef{id: -1001234}, false},
		{"-1001234/7", chatRef{id: -1001234, topic: 7}, false},
		{"@forum/12", chatRef{username: "@forum", topic: 12}, false},
		{"@", chatRef{}, true},
		{"news", chatRef{}, true},
		{"-100/x", chatRef{}, true},
		{"-100/0", chatRef{}, true},
		{"0", chatRef{}, true},
	}
	for _, tt := range tests {
		got, err := parseChatRef(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("parseChatRef(%q) = %+v, %v; want %+v, err %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFindSubscription(t *testing.T) {
	subs := []storage.SubscriptionView{
		{Subscription: storage.Subscription{ID: 3, TopicID: 0}, FeedURL: "https://a.example/feed"},
		{Subscription: storage.Subscription{ID: 4, TopicID: 9}, FeedURL: "https://a.example/feed"},
	}
	tests := []struct {
		ref    string
		topic  int64
		wantID int64
		found  bool
	}{
		{"3", 0, 3, true},
		{"4", 0, 4, true}, // an id is unique across topics
		{"https://a.example/feed", 9, 4, true},
		{"https://a.example/feed", 0, 3, true},
		{"https://b.example/feed", 0, 0, false},
		{"5", 0, 0, false},
	}
	for _, tt := range tests {
		got, found := findSubscription(subs, tt.ref, tt.topic)
		if found != tt.found || got.ID != tt.wantID {
			t.Errorf("findSubscription(%q, %d) = %d %v, want %d %v", tt.ref, tt.topic, got.ID, found, tt.wantID, tt.found)
		}
	}
}

func TestRestAfter(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"/set 3 template <b>{{.Title}}</b>\n\n{{.PostLink}}", 3, "<b>{{.Title}}</b>\n\n{{.PostLink}}"},
		{"/set 3 template\n  line one\nline two  ", 3, "line one\nline two"},
		{"/filter 1 add include title keyword  two  words ", 6, "two  words"},
		{"/set 3 template", 3, ""},
		{"/set 3", 3, ""},
		{"/repl_add global a => b", 1, "global a => b"},
	}
	for _, tt := range tests {
		if got := restAfter(tt.text, tt.n); got != tt.want {
			t.Errorf("restAfter(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}

// "[ID|all] [chat]": a lone number is an ID, anything else alone a chat.
func TestPauseArgs(t *testing.T) {
	tests := []struct {
		args    []string
		subject string
		chat    []string
		ok      bool
	}{
		{nil, "all", nil, true},
		{[]string{"7"}, "7", nil, true},
		{[]string{"ALL"}, "all", nil, true},
		{[]string{"@news"}, "all", []string{"@news"}, true},
		{[]string{"-100123/4"}, "all", []string{"-100123/4"}, true},
		{[]string{"7", "@news"}, "7", []string{"@news"}, true},
		{[]string{"all", "1001"}, "all", []string{"1001"}, true},
		{[]string{"@news", "7"}, "", nil, false},
		{[]string{"0", "@news"}, "", nil, false},
		{[]string{"1", "2", "3"}, "", nil, false},
	}
	for _, tt := range tests {
		subject, chat, ok := pauseArgs(tt.args)
		if subject != tt.subject || ok != tt.ok || !reflect.DeepEqual(chat, tt.chat) {
			t.Errorf("pauseArgs(%q) = %q %q %v, want %q %q %v", tt.args, subject, chat, ok, tt.subject, tt.chat, tt.ok)
		}
	}
}

func TestParseFilter(t *testing.T) {
	tests := []struct {
		text string
		want filterCmd
		ok   bool
	}{
		{"/filter 4 add include title keyword Go  release", filterCmd{op: "add", scope: 4,
			spec: filter.Spec{Action: "include", Field: "title", Pattern: "Go  release"}}, true},
		{"/filter global add EXCLUDE Any REGEX ^(ad|sponsored)\\b", filterCmd{op: "add",
			spec: filter.Spec{Action: "exclude", Field: "any", Pattern: `^(ad|sponsored)\b`, IsRegex: true, Global: true}}, true},
		{"/filter 4 list", filterCmd{op: "list", scope: 4}, true},
		{"/filter global", filterCmd{op: "list"}, true},
		{"/filter del 9", filterCmd{op: "del", id: 9}, true},
		{"/filter del", filterCmd{}, false},
		{"/filter del 9 10", filterCmd{}, false},
		{"/filter 4 add include title keyword", filterCmd{}, false},
		{"/filter 4 add include body keyword x", filterCmd{}, false},
		{"/filter 4 add allow title keyword x", filterCmd{}, false},
		{"/filter 4 add include title glob x", filterCmd{}, false},
		{"/filter x list", filterCmd{}, false},
		{"/filter 4 remove 3", filterCmd{}, false},
		{"/filter 4 list more", filterCmd{}, false},
		{"/filter", filterCmd{}, false},
	}
	for _, tt := range tests {
		_, args, _ := parseCommand(tt.text)
		got, err := parseFilter(args, tt.text)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("parseFilter(%q) = %+v, %v; want %+v ok=%v", tt.text, got, err, tt.want, tt.ok)
		}
		var ue *userError
		if err != nil && (!errors.As(err, &ue) || ue.id != "filter_usage") {
			t.Errorf("parseFilter(%q) error %v is not the usage", tt.text, err)
		}
	}
}

// The documented replacement syntax: the first "=>" separates, no "=>" or
// nothing after it removes, quotes keep spaces, a leading number is a scope.
func TestParseRepl(t *testing.T) {
	tests := []struct {
		rest string
		want replCmd
		ok   bool
	}{
		{"Read more on XYZ", replCmd{pattern: "Read more on XYZ"}, true},
		{"Read more =>", replCmd{pattern: "Read more"}, true},
		{"global foo => bar baz", replCmd{pattern: "foo", with: "bar baz"}, true},
		{"12 foo=>bar", replCmd{scope: 12, pattern: "foo", with: "bar"}, true},
		{`12 \s+ => " "`, replCmd{scope: 12, pattern: `\s+`, with: " "}, true},
		{`" lead" => ""`, replCmd{pattern: " lead"}, true},
		{"a => b => c", replCmd{pattern: "a", with: "b => c"}, true},
		{"global 2024 => year", replCmd{pattern: "2024", with: "year"}, true},
		{"GLOBAL x", replCmd{pattern: "x"}, true},
		{"12", replCmd{}, false},
		{"=> x", replCmd{}, false},
		{"global", replCmd{}, false},
		{"", replCmd{}, false},
	}
	for _, tt := range tests {
		got, err := parseRepl(tt.rest)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("parseRepl(%q) = %+v, %v; want %+v ok=%v", tt.rest, got, err, tt.want, tt.ok)
		}
	}
}

func TestApplySetting(t *testing.T) {
	base := storage.Subscription{ID: 1, MediaMode: "preview", Backfill: "none", Template: "x", TopicID: 3}
	tests := []struct {
		option, value string
		check         func(storage.Subscription) bool
		errID         string
	}{
		{"silent", "on", func(s storage.Subscription) bool { return s.Silent }, ""},
		{"silent", "OFF", func(s storage.Subscription) bool { return !s.Silent }, ""},
		{"split", "on", func(s storage.Subscription) bool { return s.Split }, ""},
		{"media", "photo", func(s storage.Subscription) bool { return s.MediaMode == "photo" }, ""},
		{"media", "none", func(s storage.Subscription) bool { return s.MediaMode == "none" }, ""},
		{"backfill", "page", func(s storage.Subscription) bool { return s.Backfill == "page" }, ""},
		{"topic", "none", func(s storage.Subscription) bool { return s.TopicID == 0 }, ""},
		{"topic", "42", func(s storage.Subscription) bool { return s.TopicID == 42 }, ""},
		{"template", "Reset", func(s storage.Subscription) bool { return s.Template == "" }, ""},
		{"template", "<b>{{.Title}}</b>", func(s storage.Subscription) bool { return s.Template == "<b>{{.Title}}</b>" }, ""},
		{"silent", "yes", nil, "set_bad_value"},
		{"media", "video", nil, "set_bad_value"},
		{"backfill", "some", nil, "set_bad_value"},
		{"topic", "-1", nil, "set_bad_value"},
		{"template", "", nil, "set_bad_value"},
		{"colour", "red", nil, "set_bad_option"},
	}
	for _, tt := range tests {
		got, err := applySetting(base, tt.option, tt.value)
		var ue *userError
		switch {
		case tt.errID != "":
			if !errors.As(err, &ue) || ue.id != tt.errID {
				t.Errorf("%s %s: error %v, want %s", tt.option, tt.value, err, tt.errID)
			}
			if got != base {
				t.Errorf("%s %s: refused but changed: %+v", tt.option, tt.value, got)
			}
		case err != nil || !tt.check(got):
			t.Errorf("%s %s = %+v, %v", tt.option, tt.value, got, err)
		}
	}
}

// Callback data round-trips and stays within Telegram's 64 bytes; foreign
// data is refused.
func TestParseCallback(t *testing.T) {
	for _, d := range []callbackData{
		{kind: cbSubscribe, token: "abcdefghijklmnop"},
		{kind: cbPreview, token: "abcdefghijklmnop"},
		{kind: cbRSSPage, chat: -1009223372036854775, page: 12},
		{kind: cbRSSPage, chat: 1001, page: 0},
	} {
		s := callbackFor(d)
		got, err := parseCallback(s)
		if err != nil || got != d || len(s) > 64 {
			t.Errorf("round trip of %+v via %q = %+v, %v", d, s, got, err)
		}
	}
	for _, bad := range []string{"", "sub:", "rss:1", "rss:x:1", "rss:1:-1", "rss:0:1", "zap:1", "pv"} {
		if _, err := parseCallback(bad); err == nil {
			t.Errorf("parseCallback(%q) accepted", bad)
		}
	}
}

// Bot API rules: in a channel only an administrator with can_post_messages
// posts; in a group any member not restricted from sending.
func TestBotCanPost(t *testing.T) {
	admin := func(post bool) *models.ChatMember {
		return &models.ChatMember{Type: models.ChatMemberTypeAdministrator, Administrator: &models.ChatMemberAdministrator{CanPostMessages: post}}
	}
	restricted := func(member, send bool) *models.ChatMember {
		return &models.ChatMember{Type: models.ChatMemberTypeRestricted, Restricted: &models.ChatMemberRestricted{IsMember: member, CanSendMessages: send}}
	}
	member := &models.ChatMember{Type: models.ChatMemberTypeMember}
	left := &models.ChatMember{Type: models.ChatMemberTypeLeft}
	tests := []struct {
		chatType string
		m        *models.ChatMember
		want     bool
	}{
		{"channel", admin(true), true},
		{"channel", admin(false), false},
		{"channel", member, false},
		{"supergroup", member, true},
		{"group", admin(false), true},
		{"supergroup", restricted(true, true), true},
		{"supergroup", restricted(true, false), false},
		{"supergroup", restricted(false, true), false},
		{"group", left, false},
		{"group", nil, false},
	}
	for i, tt := range tests {
		if got := botCanPost(tt.chatType, tt.m); got != tt.want {
			t.Errorf("%d: botCanPost(%s, %+v) = %v, want %v", i, tt.chatType, tt.m, got, tt.want)
		}
	}
	if !isChatAdmin(&models.ChatMember{Type: models.ChatMemberTypeOwner}) || isChatAdmin(member) || isChatAdmin(nil) {
		t.Error("isChatAdmin: creator must count, members and nil not")
	}
}

func TestTokenStoreExpires(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := newTokenStore(time.Hour, clock)
	a := s.put(candidate{URL: "https://a.example/feed"})
	b := s.put(candidate{URL: "https://b.example/feed"})
	if a == b || len(a) != 16 {
		t.Fatalf("tokens %q %q: want two different 16-character tokens", a, b)
	}
	if c, ok := s.get(a); !ok || c.URL != "https://a.example/feed" {
		t.Errorf("get(a) = %+v, %v", c, ok)
	}
	now = now.Add(time.Hour)
	if _, ok := s.get(a); ok {
		t.Error("a token is valid after its hour")
	}
	s.put(candidate{URL: "https://c.example/feed"})
	if n := len(s.items); n != 1 {
		t.Errorf("%d tokens kept after expiry, want 1", n)
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"  padded  ", 6, "padded"},
		{"äöüäöüäöü", 4, "äöü…"},
		{"one two three", 8, "one two…"},
	}
	for _, tt := range tests {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func FuzzParseRepl(f *testing.F) {
	for _, s := range []string{"Read more", "12 a => b", `global "x" => " "`, "=>", "1 =>=>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		rc, err := parseRepl(rest)
		if err == nil && (rc.pattern == "" || rc.scope < 0) {
			t.Errorf("parseRepl(%q) = %+v without error", rest, rc)
		}
	})
}

func FuzzParseCallback(f *testing.F) {
	for _, s := range []string{"sub:abc", "pv:x", "rss:-100123:4", "rss::", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		d, err := parseCallback(data)
		if err != nil {
			return
		}
		if again, err := parseCallback(callbackFor(d)); err != nil || again != d {
			t.Errorf("%q parsed to %+v, which does not round-trip: %+v %v", data, d, again, err)
		}
	})
}

// Times in replies: UTC, with how far ahead or back they are.
func TestWhen(t *testing.T) {
	cat, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	b := &Bot{msg: cat.For("en"), opts: Options{Now: func() time.Time { return now }}}
	berlin := time.FixedZone("CET", 3600)
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "never"},
		{now.Add(90 * time.Second), "2025-03-01 12:01:30 UTC (in 1m30s)"},
		{now.Add(-2 * time.Hour).In(berlin), "2025-03-01 10:00:00 UTC (2h0m0s ago)"},
		{now, "2025-03-01 12:00:00 UTC"},
	}
	for _, tt := range tests {
		if got := b.when(tt.t); got != tt.want {
			t.Errorf("when(%v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

// A command is this bot's when it names no bot or this one; Telegram
// usernames are case-insensitive.
func TestForThisBot(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"/sub http://x", true},
		{"/sub@rss_bot http://x", true},
		{"/SUB@RSS_Bot", true},
		{"/sub@other_bot http://x", false},
		{"/sub@ http://x", false},
		{"  /rss@rss_bot  ", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := forThisBot(tt.text, "rss_bot"); got != tt.want {
			t.Errorf("forThisBot(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
