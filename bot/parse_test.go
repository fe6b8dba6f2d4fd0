package bot

import (
	"reflect"
	"testing"

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
