// Package filter decides whether an entry goes to a subscription: include
// and exclude rules, each a keyword or an RE2 regular expression, on the
// title, content, author or categories. It is pure policy.
package filter

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Actions.
const (
	Include = "include"
	Exclude = "exclude"
)

// Fields a rule looks at. Any looks at all of them.
const (
	Title      = "title"
	Content    = "content"
	Author     = "author"
	Categories = "categories"
	Any        = "any"
)

// Spec is a rule as stored.
type Spec struct {
	Action  string // Include or Exclude
	Field   string // Title, Content, Author, Categories or Any
	Pattern string // a keyword (case-insensitive substring) or an RE2 expression
	IsRegex bool
	Global  bool // applies to every subscription
}

// Entry is the text a rule looks at.
type Entry struct {
	Title string
	// Content is the entry's content or summary; HTML tags are not matched.
	Content    string
	Authors    []string
	Categories []string
}

// Rule is a compiled Spec.
type Rule struct {
	include bool
	field   string
	keyword string // lower-cased; used when re is nil
	re      *regexp.Regexp
}

// ErrInvalid is wrapped by every Compile error.
var ErrInvalid = errors.New("invalid filter")

// Compile checks a spec and prepares it for matching. An empty keyword, an
// unknown action or field and a regular expression RE2 refuses are errors.
func Compile(s Spec) (Rule, error) {
	r := Rule{field: strings.ToLower(strings.TrimSpace(s.Field))}
	switch strings.ToLower(strings.TrimSpace(s.Action)) {
	case Include:
		r.include = true
	case Exclude:
	default:
		return Rule{}, fmt.Errorf("filter: action %q: %w (want include or exclude)", s.Action, ErrInvalid)
	}
	switch r.field {
	case Title, Content, Author, Categories, Any:
	case "":
		r.field = Any
	default:
		return Rule{}, fmt.Errorf("filter: field %q: %w (want title, content, author, categories or any)", s.Field, ErrInvalid)
	}
	if s.IsRegex {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return Rule{}, fmt.Errorf("filter: %w: %w", ErrInvalid, err)
		}
		r.re = re
		return r, nil
	}
	r.keyword = strings.ToLower(strings.TrimSpace(s.Pattern))
	if r.keyword == "" {
		return Rule{}, fmt.Errorf("filter: empty keyword: %w", ErrInvalid)
	}
	return r, nil
}

// Matches reports whether the rule's pattern occurs in the rule's field of e.
func (r Rule) Matches(e Entry) bool {
	switch r.field {
	case Title:
		return r.matchText(e.Title)
	case Content:
		return r.matchText(PlainText(e.Content))
	case Author:
		return r.matchAny(e.Authors)
	case Categories:
		return r.matchAny(e.Categories)
	default:
		return r.matchText(e.Title) || r.matchText(PlainText(e.Content)) || r.matchAny(e.Authors) || r.matchAny(e.Categories)
	}
}

func (r Rule) matchAny(values []string) bool {
	for _, v := range values {
		if r.matchText(v) {
			return true
		}
	}
	return false
}

func (r Rule) matchText(s string) bool {
	if r.re != nil {
		return r.re.MatchString(s)
	}
	return strings.Contains(strings.ToLower(s), r.keyword)
}

// Set is the rules that apply to one subscription: the global ones and its
// own. An entry passes a scope (global, own) when no exclude rule of that
// scope matches and, if the scope has include rules, at least one of them
// matches; it is accepted when it passes both scopes. A subscription's own
// include rules therefore narrow the global ones instead of widening them.
type Set struct {
	global, own []Rule
}

// NewSet compiles specs into a Set. Specs that do not compile are left out
// and reported, so that one bad stored rule cannot stop an import.
func NewSet(specs []Spec) (Set, []error) {
	var (
		s    Set
		errs []error
	)
	for _, spec := range specs {
		r, err := Compile(spec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if spec.Global {
			s.global = append(s.global, r)
		} else {
			s.own = append(s.own, r)
		}
	}
	return s, errs
}

// Empty reports whether the set has no rules: it accepts everything.
func (s Set) Empty() bool { return len(s.global) == 0 && len(s.own) == 0 }

// Accept applies the set to an entry.
func (s Set) Accept(e Entry) bool {
	return passes(s.global, e) && passes(s.own, e)
}

func passes(rules []Rule, e Entry) bool {
	hasInclude, included := false, false
	for _, r := range rules {
		if !r.include {
			if r.Matches(e) {
				return false
			}
			continue
		}
		hasInclude = true
		if !included && r.Matches(e) {
			included = true
		}
	}
	return !hasInclude || included
}
