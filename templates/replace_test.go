package templates

import (
	"strings"
	"testing"
)

func mustRule(t *testing.T, pattern string, isRegex bool, with string) *Replacement {
	t.Helper()
	r, err := CompileReplacement(pattern, isRegex, with)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Rule (issue 5): a literal text or an RE2 regex is removed, or replaced by
// a given text, in title and content before templating.
func TestReplacements(t *testing.T) {
	tests := []struct {
		name string
		rule *Replacement
		in   string
		want string
	}{
		{"literal removed", mustRule(t, "Read more on XYZ", false, ""), "News. Read more on XYZ", "News."},
		{"literal replaced, every match", mustRule(t, "cat", false, "dog"), "cat and cat", "dog and dog"},
		{"literal is not a pattern", mustRule(t, "a.c", false, ""), "abc a.c", "abc"},
		{"regex with submatch", mustRule(t, `(\d+) EUR`, true, "€$1"), "5 EUR or 7 EUR", "€5 or €7"},
		{"regex case-insensitive", mustRule(t, `(?i)sponsored:?\s*`, true, ""), "SPONSORED: Text", "Text"},
		{"empty matches do nothing", mustRule(t, `x*`, true, "-"), "abc", "abc"},
	}
	for _, tt := range tests {
		if got := tidyLine(replaceAll([]*Replacement{tt.rule}, tt.in)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// Rule: a match may span formatting; what survives keeps its formatting,
// and the white space left behind is tidied.
func TestReplacementsInRichText(t *testing.T) {
	in := mustRich(t, "<b>News</b> today.\n\nRead more on <a href=\"https://xyz.example\">XYZ</a>\n\nEnd")
	got := replaceRich([]*Replacement{mustRule(t, "Read more on XYZ", false, "")}, in).html()
	if want := "<b>News</b> today.\n\nEnd"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Rule: a bad regex is refused when added, with the parser's message.
func TestCompileReplacementRefuses(t *testing.T) {
	if _, err := CompileReplacement(`(unclosed`, true, ""); err == nil ||
		!strings.Contains(err.Error(), "missing closing )") || !strings.HasPrefix(err.Error(), "replacement: ") {
		t.Errorf("bad regex: %v", err)
	}
	if _, err := CompileReplacement(`(unclosed`, false, ""); err != nil {
		t.Errorf("a literal is never a bad regex: %v", err)
	}
	if _, err := CompileReplacement("", false, "x"); err == nil {
		t.Error("an empty pattern was accepted")
	}
}
