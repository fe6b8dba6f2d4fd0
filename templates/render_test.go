package templates

import (
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

func TestRenderEscapesEveryField(t *testing.T) {
	e := feed.Entry{
		Title:       `Tom & Jerry <script>alert(1)</script> "quoted"`,
		Link:        "https://www.example.org/a?x=1&y=2",
		ContentHTML: `<p>1 < 2 &amp; 3 > 2</p><p>second <b>para</b></p>`,
	}
	msgs, err := Default(time.UTC).Render(e, "Feed <&>")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	text := msgs[0].Text
	for _, bad := range []string{"<script>", "< 2", "Feed <&>", `"quoted"`} {
		if strings.Contains(text, bad) {
			t.Errorf("unescaped %q in %q", bad, text)
		}
	}
	for _, want := range []string{"<b>Tom &amp; Jerry", "1 &lt; 2 &amp; 3 &gt; 2", `href="https://www.example.org/a?x=1&amp;y=2"`, ">Feed &lt;&amp;&gt;</a>"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in %q", want, text)
		}
	}
}

func TestRenderFitsTelegramLimit(t *testing.T) {
	long := strings.Repeat("word ", 3000) // 15000 characters
	e := feed.Entry{Title: "T", Link: "https://example.org/", ContentHTML: long}
	tmpl, err := Parse("long.gohtml", "{{.Title}}\n{{.Content}}\n{{.PostLink}}", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := tmpl.Render(e, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := VisibleLen(msgs[0].Text); n > MaxTextLen {
		t.Errorf("visible length %d > %d", n, MaxTextLen)
	}
	if !strings.HasSuffix(msgs[0].Text, "https://example.org/") || !strings.Contains(msgs[0].Text, "…") {
		t.Errorf("link or ellipsis lost: ...%q", msgs[0].Text[len(msgs[0].Text)-60:])
	}
}

func TestParseErrorNamesTemplateAndLine(t *testing.T) {
	_, err := Parse("post.gohtml", "line1\nline2\n{{.Title", time.UTC)
	if err == nil || !strings.HasPrefix(err.Error(), "post template post.gohtml:3:") {
		t.Errorf("error = %v", err)
	}
}

func TestRenderEmptyEntryStillPosts(t *testing.T) {
	msgs, err := Default(time.UTC).Render(feed.Entry{Identity: "urn:x"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if msgs[0].Text != "urn:x" {
		t.Errorf("text = %q", msgs[0].Text)
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain  text\t here", "plain text here"},
		{"<p>a</p><p>b</p>", "a\n\nb"},
		{"a<br>b", "a\nb"},
		{"x &amp; y &lt;z&gt;", "x & y <z>"},
		{"<script>var a = 1;</script>shown<style>p{}</style>", "shown"},
		{"<div>\n\n\n  lots   of\n\n\n\nspace </div>", "lots of\n\nspace"},
	}
	for _, tt := range tests {
		if got := PlainText(tt.in); got != tt.want {
			t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		n        int
		in, want string
	}{
		{10, "short", "short"},
		{10, "one two three four", "one two…"},
		{5, "abcdefghij", "abcd…"},
		{4, "ääääää", "äää…"},
	}
	for _, tt := range tests {
		if got := Truncate(tt.n, tt.in); got != tt.want {
			t.Errorf("Truncate(%d, %q) = %q, want %q", tt.n, tt.in, got, tt.want)
		}
	}
}

func TestVisibleLen(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"abc", 3},
		{"<b>ab</b>c", 3},
		{"a &amp; b", 5},
		{"😀", 1},
	}
	for _, tt := range tests {
		if got := VisibleLen(tt.in); got != tt.want {
			t.Errorf("VisibleLen(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
