package filter

import (
	"errors"
	"testing"
)

var post = Entry{
	Title:      "Go 1.26 released",
	Content:    `<p>The <b>Go</b> team is happy to announce Go&nbsp;1.26.</p><script>var sponsored = 1</script>`,
	Authors:    []string{"Jane Doe"},
	Categories: []string{"Release", "golang"},
}

func TestRuleMatches(t *testing.T) {
	// Rule: a keyword is a case-insensitive substring; a regex is RE2 as
	// written; each rule looks at its field only (any = all fields).
	tests := []struct {
		name string
		spec Spec
		want bool
	}{
		{"keyword in title, other case", Spec{Action: Include, Field: Title, Pattern: "RELEASED"}, true},
		{"keyword not in title", Spec{Action: Include, Field: Title, Pattern: "team"}, false},
		{"keyword in content text", Spec{Action: Include, Field: Content, Pattern: "happy to announce"}, true},
		{"keyword across tags", Spec{Action: Include, Field: Content, Pattern: "the go team"}, true},
		{"entity decoded", Spec{Action: Include, Field: Content, Pattern: "go 1.26"}, true},
		{"no match inside markup", Spec{Action: Include, Field: Content, Pattern: "<b>"}, false},
		{"no match inside script", Spec{Action: Include, Field: Content, Pattern: "sponsored"}, false},
		{"author", Spec{Action: Include, Field: Author, Pattern: "jane"}, true},
		{"author not in title", Spec{Action: Include, Field: Title, Pattern: "jane"}, false},
		{"category", Spec{Action: Include, Field: Categories, Pattern: "golang"}, true},
		{"any finds the category", Spec{Action: Include, Field: Any, Pattern: "golang"}, true},
		{"empty field means any", Spec{Action: Include, Pattern: "doe"}, true},
		{"regex is case-sensitive", Spec{Action: Include, Field: Title, Pattern: `^go \d`, IsRegex: true}, false},
		{"regex with (?i)", Spec{Action: Include, Field: Title, Pattern: `(?i)^go \d+\.\d+`, IsRegex: true}, true},
		{"regex on a category", Spec{Action: Include, Field: Categories, Pattern: `^Rel`, IsRegex: true}, true},
		{"regex anchors per category", Spec{Action: Include, Field: Categories, Pattern: `^golang$`, IsRegex: true}, true},
	}
	for _, tt := range tests {
		r, err := Compile(tt.spec)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := r.Matches(post); got != tt.want {
			t.Errorf("%s: Matches = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	// Rule: unknown actions and fields, empty keywords and expressions RE2
	// refuses (backreferences, lookahead) are invalid.
	for _, s := range []Spec{
		{Action: "drop", Field: Title, Pattern: "x"},
		{Action: Include, Field: "body", Pattern: "x"},
		{Action: Include, Field: Title, Pattern: "  "},
		{Action: Include, Field: Title, Pattern: `(a)\1`, IsRegex: true},
		{Action: Exclude, Field: Title, Pattern: `foo(?!bar)`, IsRegex: true},
	} {
		if _, err := Compile(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("Compile(%+v) = %v, want ErrInvalid", s, err)
		}
	}
}

func TestSetAccept(t *testing.T) {
	// Rule: in each scope (global, own) any matching exclude rejects; if
	// the scope has includes, one must match; both scopes must pass.
	inc := func(p string, global bool) Spec { return Spec{Action: Include, Field: Any, Pattern: p, Global: global} }
	exc := func(p string, global bool) Spec { return Spec{Action: Exclude, Field: Any, Pattern: p, Global: global} }
	tests := []struct {
		name  string
		specs []Spec
		want  bool
	}{
		{"no rules accept", nil, true},
		{"matching include", []Spec{inc("go", false)}, true},
		{"non-matching include rejects", []Spec{inc("rust", false)}, false},
		{"one of several includes suffices", []Spec{inc("rust", false), inc("golang", false)}, true},
		{"exclude wins over include", []Spec{inc("go", false), exc("jane", false)}, false},
		{"non-matching exclude accepts", []Spec{exc("rust", false)}, true},
		{"global exclude applies", []Spec{exc("release", true)}, false},
		{"own include cannot widen a global include", []Spec{inc("rust", true), inc("go", false)}, false},
		{"own include narrows a global one", []Spec{inc("go", true), inc("jane", false)}, true},
		{"global include passes, own exclude rejects", []Spec{inc("go", true), exc("golang", false)}, false},
		{"bad rule left out", []Spec{{Action: Include, Field: "nope", Pattern: "rust"}}, true},
	}
	for _, tt := range tests {
		s, _ := NewSet(tt.specs)
		if got := s.Accept(post); got != tt.want {
			t.Errorf("%s: Accept = %v, want %v", tt.name, got, tt.want)
		}
	}
	if _, errs := NewSet([]Spec{{Action: "x"}, inc("a", true)}); len(errs) != 1 {
		t.Errorf("NewSet reported %d errors, want 1", len(errs))
	}
}

func TestPlainText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain   text\n here", "plain text here"},
		{"<p>a<br>b</p>", "a b"},
		{"x &amp; y &lt;z&gt;", "x & y <z>"},
		{"<style>p{}</style>shown", "shown"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := PlainText(tt.in); got != tt.want {
			t.Errorf("PlainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzPlainText(f *testing.F) {
	for _, s := range []string{"<p>a</p>", "<script>x", "&#x41;<", post.Content} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := PlainText(s)
		if len(out) > 0 && (out[0] == ' ' || out[len(out)-1] == ' ') {
			t.Errorf("PlainText(%q) = %q has untrimmed space", s, out)
		}
	})
}
