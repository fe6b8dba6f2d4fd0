package fetch

import (
	"strings"
	"time"
)

// maxAgeCap is what RFC 9111 1.2.2 says to use for a delta-seconds value
// too large to represent: 2^31 seconds.
const maxAgeCap = (1 << 31) * time.Second

// ParseMaxAge reads the max-age directive from a Cache-Control value (RFC
// 9111 5.2.2.1), a publisher hint for how long the response stays fresh.
// Directive names are case-insensitive; a quoted value is accepted; the
// first max-age wins when there are several (RFC 9111 4.2.1); a value over
// 2^31 seconds counts as 2^31. A missing, empty or malformed max-age
// reports false. Other directives, s-maxage included (it is for shared
// caches), are ignored.
func ParseMaxAge(cacheControl string) (time.Duration, bool) {
	s := cacheControl
	for s != "" {
		var name, value string
		var hasValue bool
		name, value, hasValue, s = nextDirective(s)
		if !strings.EqualFold(name, "max-age") {
			continue
		}
		if !hasValue {
			return 0, false
		}
		secs, ok := parseDeltaSeconds(value)
		if !ok {
			return 0, false
		}
		if secs > maxDeltaSeconds {
			return maxAgeCap, true
		}
		return time.Duration(secs) * time.Second, true
	}
	return 0, false
}

// nextDirective splits the first directive off a Cache-Control list. It
// honours quoted strings, so a comma inside `private="a, b"` does not end
// the directive.
func nextDirective(s string) (name, value string, hasValue bool, rest string) {
	s = strings.TrimLeft(s, " \t,")
	i := 0
	for i < len(s) && s[i] != '=' && s[i] != ',' {
		i++
	}
	name = strings.TrimSpace(s[:i])
	if i == len(s) || s[i] == ',' {
		return name, "", false, s[i:]
	}
	s = strings.TrimLeft(s[i+1:], " \t")
	if strings.HasPrefix(s, `"`) {
		value, s = readQuoted(s)
	} else {
		j := strings.IndexByte(s, ',')
		if j < 0 {
			j = len(s)
		}
		value, s = strings.TrimSpace(s[:j]), s[j:]
	}
	// Anything after a quoted value up to the next comma is junk; skip it.
	if j := strings.IndexByte(s, ','); j >= 0 {
		s = s[j:]
	} else {
		s = ""
	}
	return name, value, true, s
}

// readQuoted reads an HTTP quoted-string at the start of s (which begins
// with a double quote), undoing backslash escapes. An unterminated string
// runs to the end.
func readQuoted(s string) (value, rest string) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:]
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}
