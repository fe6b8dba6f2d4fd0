package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// ellipsis ends shortened text.
const ellipsis = "…"

// truncate shortens r to at most n characters (as Telegram counts them),
// cutting at a word boundary when one is near and ending in "…". Spans are
// clipped, so tags stay balanced.
func (r richText) truncate(n int) richText {
	if tghtml.TextLength(r.text) <= n {
		return r
	}
	if n <= 0 {
		return richText{}
	}
	cut := runeOffset(r.text, n-1) // room for the ellipsis
	cut = wordCut(r.text, 0, cut)
	out := r.slice(0, cut)
	end := len(strings.TrimRightFunc(out.text, unicode.IsSpace))
	out = out.slice(0, end)
	out.text += ellipsis
	return out
}

// truncatePlain is truncate for plain text.
func truncatePlain(n int, s string) string {
	return richText{text: s}.truncate(n).text
}

// split cuts r into parts of at most limit characters each, preferring
// paragraph ends, then line ends, then word boundaries; every part is
// trimmed and, serialized, stays within Telegram's raw size limit. Spans
// that cross a cut continue in the next part.
func (r richText) split(limit int) []richText {
	var parts []richText
	rest := r.trim()
	for rest.text != "" {
		window := limit
		for {
			part, next := rest.cutAt(window)
			if len(part.html()) <= tghtml.MaxRawTextBytes || window <= 1 {
				parts = append(parts, part)
				rest = next
				break
			}
			window /= 2 // markup-heavy text: fewer characters per part
		}
	}
	return parts
}

// cutAt returns the first part of r (trimmed, at most n characters) and the
// trimmed rest.
func (r richText) cutAt(n int) (part, rest richText) {
	if tghtml.TextLength(r.text) <= n {
		return r, richText{}
	}
	end := runeOffset(r.text, n)
	cut := -1
	for _, sep := range []string{"\n\n", "\n"} {
		if i := strings.LastIndex(r.text[:end], sep); i > end/2 {
			cut = i
			break
		}
	}
	if cut < 0 {
		cut = wordCut(r.text, end/2, end)
	}
	if cut <= 0 {
		cut = graphemeCut(r.text, end)
	}
	if cut <= 0 {
		cut = end // a single cluster longer than the limit: cut it
	}
	return r.slice(0, cut).trim(), r.slice(cut, len(r.text)).trim()
}

// runeOffset returns the byte offset of the n-th character of s (len(s) if
// s is shorter).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// wordCut moves a cut at byte offset cut back to the start of the white
// space before the word it would split, looking back a third of the way to
// from (at least 24 and at most 240 bytes, never before from); without
// white space there it keeps the cut, moved off any character cluster it
// would split.
func wordCut(s string, from, cut int) int {
	if cut >= len(s) {
		return len(s)
	}
	limit := max(from, cut-min(max((cut-from)/3, 24), 240))
	for i := cut; i > limit; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) {
			j := i - size
			for j > 0 {
				r, size := utf8.DecodeLastRuneInString(s[:j])
				if !unicode.IsSpace(r) {
					break
				}
				j -= size
			}
			if j > from {
				return j
			}
			break
		}
		i -= size
	}
	return graphemeCut(s, cut)
}

// graphemeCut moves a cut back so that it does not split a character from
// the marks, joiners, variation selectors or skin tones that belong to it,
// nor a flag's pair of regional indicators.
func graphemeCut(s string, cut int) int {
	orig := cut
	for steps := 0; cut > 0 && cut < len(s) && steps < 32; steps++ {
		next, _ := utf8.DecodeRuneInString(s[cut:])
		prev, size := utf8.DecodeLastRuneInString(s[:cut])
		switch {
		case isExtender(next), prev == '\u200d':
		case isRegionalIndicator(next) && isRegionalIndicator(prev) && oddIndicatorsBefore(s[:cut]):
		default:
			return cut
		}
		cut -= size
	}
	if cut <= 0 || cut >= len(s) {
		return orig
	}
	return cut
}

func isExtender(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Me) || r == '\u200d' ||
		r >= '\ufe00' && r <= '\ufe0f' || r >= 0x1F3FB && r <= 0x1F3FF || r >= 0xE0020 && r <= 0xE007F
}

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// oddIndicatorsBefore reports whether s ends in an odd run of regional
// indicators, i.e. a cut after it would split a flag.
func oddIndicatorsBefore(s string) bool {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if !isRegionalIndicator(r) {
			break
		}
		n++
		s = s[:len(s)-size]
	}
	return n%2 == 1
}
