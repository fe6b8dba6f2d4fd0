package deliver

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rssbot/rssbot/templates"
)

func TestPlainText(t *testing.T) {
	tests := []struct {
		name, in string
		limit    int
		want     string
	}{
		// What Telegram's parser would show: tags gone, references decoded.
		{"valid HTML", `<b>Title</b> &amp; <a href="https://e.org/">link</a> &lt;3`, 0, "Title & link <3"},
		{"trimmed", "\n  <i>x</i>  \n", 0, "x"},
		// HTML that does not parse is read leniently.
		{"unclosed tag", `<b>bold <i>and</b> more`, 0, "bold and more"},
		{"bare less-than", `a < b <p>para</p>`, 0, "a < b para"},
		// Telegram keeps an unknown named entity as written (BOTAPI.md).
		{"unknown entity kept", `fish &nbsp; chips`, 0, "fish &nbsp; chips"},
		// Cut to the limit in characters, as Telegram counts them.
		{"cut", "<b>" + strings.Repeat("é", 20) + "</b>", 10, strings.Repeat("é", 9) + "…"},
	}
	for _, tt := range tests {
		got := PlainText(tt.in, tt.limit)
		if got != tt.want {
			t.Errorf("%s: PlainText(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		if tt.limit > 0 && utf8.RuneCountInString(got) > tt.limit {
			t.Errorf("%s: %d characters, over the limit %d", tt.name, utf8.RuneCountInString(got), tt.limit)
		}
	}
}

// A media call keeps to the caption limit, its fallback to the text limit.
func TestPlainCall(t *testing.T) {
	long := strings.Repeat("x", 2000)
	c := photoCall("<b>"+long+"</b>", "https://img.example/a.jpg")
	c.Fallback.Text = "<b>" + long + "</b>"
	p := plainCall(c)
	if n := utf8.RuneCountInString(p.Text); n != 1024 || strings.Contains(p.Text, "<b>") {
		t.Errorf("caption: %d characters, want 1024 without tags", n)
	}
	if p.Fallback.Text != long || p.Method != templates.SendPhoto || len(p.Images) != 1 {
		t.Errorf("plain call = %+v", p)
	}
	if c.Fallback.Text == long {
		t.Error("plainCall changed the original call's fallback")
	}
}
