package templates

import (
	"strings"
	"unicode"
)

// maxHashtagLen keeps generated hashtags short; Telegram cuts long ones.
const maxHashtagLen = 64

// hashtags turns categories into Telegram hashtags: every run of
// characters other than letters, digits and "_" becomes one "_", and a
// category without a letter is left out (Telegram does not link "#2026").
// Duplicates, ignoring case, appear once.
func hashtags(categories []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range categories {
		var b strings.Builder
		letter, gap := false, false
		for _, r := range strings.TrimSpace(c) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
				if gap && b.Len() > 0 {
					b.WriteByte('_')
				}
				gap = false
				letter = letter || unicode.IsLetter(r)
				b.WriteRune(r)
			default:
				gap = true
			}
		}
		tag := b.String()
		if !letter {
			continue
		}
		if runes := []rune(tag); len(runes) > maxHashtagLen {
			tag = string(runes[:maxHashtagLen])
		}
		if key := strings.ToLower(tag); !seen[key] {
			seen[key] = true
			out = append(out, "#"+tag)
		}
	}
	return out
}
