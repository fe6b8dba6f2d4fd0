package bot

import (
	"strings"
	"testing"
)

// fitReply: Telegram refuses a text over 4096 characters or 32768 raw bytes
// (BOTAPI.md, Limits); every part it returns must be accepted, and no line
// may be lost.
func TestFitReply(t *testing.T) {
	line := "<b>" + strings.Repeat("y", 1500) + "</b>"
	tests := []struct {
		name  string
		text  string
		parts int
		want  []string // substrings that must survive somewhere
	}{
		{"short stays whole", "<b>a</b>\nb", 1, []string{"<b>a</b>\nb"}},
		{"cut at line ends", strings.Repeat(line+"\n", 5), 3, []string{line}},
		{"one huge line becomes plain text", "head\n<i>" + strings.Repeat("z&amp;", 3000) + "</i>", 1, []string{"head\n", "z&amp;z"}},
		{"raw size over 32 KiB", strings.Repeat(`<a href="http://x/`+strings.Repeat("q", 4000)+`">t</a>`+"\n", 10), 2, []string{"q\">t</a>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := fitReply(tt.text)
			if len(parts) != tt.parts {
				t.Fatalf("%d parts, want %d", len(parts), tt.parts)
			}
			for _, p := range parts {
				if !fitsMessage(p) {
					t.Errorf("part refused by Telegram: %.80q…", p)
				}
			}
			all := strings.Join(parts, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("parts lack %.60q", w)
				}
			}
		})
	}
}
