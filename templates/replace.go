package templates

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Replacement is a compiled replacement rule: text (a literal, or an RE2
// regular expression) removed from, or replaced in, an entry's title and
// content before templating. It is safe for concurrent use.
type Replacement struct {
	literal string
	re      *regexp.Regexp
	with    string
}

// CompileReplacement checks and compiles a rule. A regular expression that
// does not compile is refused with the parser's message, so the bot can
// refuse it when it is added. In a regular expression's replacement, $1 or
// ${name} insert submatches; a literal rule's replacement is used as is.
func CompileReplacement(pattern string, isRegex bool, with string) (*Replacement, error) {
	if pattern == "" {
		return nil, errors.New("replacement: the pattern is empty")
	}
	if !isRegex {
		return &Replacement{literal: pattern, with: with}, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("replacement: %w", err)
	}
	return &Replacement{re: re, with: with}, nil
}

// replaceAll applies the rules to plain text, in order.
func replaceAll(rules []*Replacement, s string) string {
	for _, r := range rules {
		s = richText{text: s}.apply(r.edits(s)).text
	}
	return s
}

// replaceRich applies the rules to rich text, in order, keeping the
// formatting of what survives; then it tidies the white space left behind.
func replaceRich(rules []*Replacement, r richText) richText {
	changed := false
	for _, rule := range rules {
		if edits := rule.edits(r.text); len(edits) > 0 {
			r = r.apply(edits)
			changed = true
		}
	}
	if changed {
		r = r.tidy()
	}
	return r
}

// edits finds the rule's matches in s. Empty matches are skipped: a
// pattern such as "x*" must not insert its replacement everywhere.
func (r *Replacement) edits(s string) []edit {
	var out []edit
	if r.re == nil {
		for from := 0; ; {
			i := strings.Index(s[from:], r.literal)
			if i < 0 {
				return out
			}
			start := from + i
			out = append(out, edit{start: start, end: start + len(r.literal), repl: r.with})
			from = start + len(r.literal)
		}
	}
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		if m[0] == m[1] {
			continue
		}
		repl := string(r.re.ExpandString(nil, r.with, s, m))
		out = append(out, edit{start: m[0], end: m[1], repl: repl})
	}
	return out
}
