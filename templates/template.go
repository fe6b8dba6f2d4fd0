// Package templates turns stored entries into Telegram messages: Go
// templates (post.gohtml) over documented Data, feed HTML converted to
// Telegram HTML, Telegram's length limits, replacements, and the media
// plan of each subscription's mode. Its output is the list of Bot API calls
// that post an entry; bot/deliver sends them and `rssbot preview` prints
// them.
package templates

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed post.gohtml
var defaultTemplateEN string

//go:embed post.de.gohtml
var defaultTemplateDE string

// languages are the bot's languages; the first is the fallback.
func languages() []string { return []string{"en", "de"} }

// defaultText returns the built-in template of a language.
func defaultText(lang string) string {
	if lang == "de" {
		return defaultTemplateDE
	}
	return defaultTemplateEN
}

// Renderer renders entries with one post template (POST_TEMPLATE, or the
// built-in one of the bot's language), per-subscription templates, and the
// built-in template as the fallback for a template that fails. It is safe
// for concurrent use.
type Renderer struct {
	name string // file name of the post template; "" for the built-in one
	text string
	loc  *time.Location
	conv *htmlConverter

	mu       sync.Mutex
	compiled map[templateKey]compiledTemplate
}

type templateKey struct{ lang, name, text string }

type compiledTemplate struct {
	t   *template.Template
	err error
}

// Default returns a Renderer with the built-in template (English, or
// German for BOT_LANGUAGE=de) and dates in loc (nil: UTC).
func Default(loc *time.Location) *Renderer {
	if loc == nil {
		loc = time.UTC
	}
	return &Renderer{loc: loc, conv: newHTMLConverter(), compiled: map[templateKey]compiledTemplate{}}
}

// Parse compiles a post template for every language, executes it on
// sample data and checks that its output is Telegram HTML, so that a
// template that cannot work stops start-up. Errors name the template and
// line: "post template post.gohtml:7: …".
func Parse(name, text string, loc *time.Location) (*Renderer, error) {
	r := Default(loc)
	r.name, r.text = name, text
	for _, lang := range languages() {
		if _, err := r.template(lang, name, text); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Check validates a template text the way Parse does, for templates given
// at run time (a subscription's template option).
func (r *Renderer) Check(name, text string) error {
	_, err := r.template(languages()[0], name, text)
	return err
}

// template returns the compiled template for a language, compiling and
// checking it once.
func (r *Renderer) template(lang, name, text string) (*template.Template, error) {
	key := templateKey{lang, name, text}
	r.mu.Lock()
	c, ok := r.compiled[key]
	r.mu.Unlock()
	if ok {
		return c.t, c.err
	}
	c.t, c.err = r.compile(lang, name, text)
	r.mu.Lock()
	r.compiled[key] = c
	r.mu.Unlock()
	return c.t, c.err
}

func (r *Renderer) compile(lang, name, text string) (*template.Template, error) {
	t, err := template.New(name).Funcs(funcMap(newDateFormatter(lang, r.loc))).Parse(text)
	if err != nil {
		return nil, templateError(err)
	}
	out, err := execute(t, sampleData(r.loc))
	var escErr *template.Error
	if errors.As(err, &escErr) || err != nil && strings.Contains(err.Error(), "can't evaluate field") {
		// The escaper's verdict and unknown fields hold for every entry;
		// other failures may depend on the entry and are left to it.
		return nil, err
	}
	if err == nil {
		if _, perr := parseTelegramHTML(out); perr != nil {
			return nil, fmt.Errorf("post template %s: the output is not Telegram HTML: %w", name, perr)
		}
	}
	return t, nil
}

// defaultTemplate is the built-in template of a language.
func (r *Renderer) defaultTemplate(lang string) *template.Template {
	t, err := r.template(lang, "post.gohtml", defaultText(lang))
	if err != nil {
		panic(err) // the embedded templates are tested
	}
	return t
}

// chosen returns the template for a post: the subscription's, else the
// global one, else the built-in one.
func (r *Renderer) chosen(lang, subscription string) (*template.Template, bool, error) {
	switch {
	case subscription != "":
		t, err := r.template(lang, "subscription", subscription)
		return t, true, err
	case r.text != "":
		t, err := r.template(lang, r.name, r.text)
		return t, true, err
	}
	return r.defaultTemplate(lang), false, nil
}

// execute runs a template; its output is trimmed as Telegram trims.
func execute(t *template.Template, d Data) (string, error) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return "", templateError(err)
	}
	return strings.TrimSpace(buf.String()), nil
}

// templateError words a template failure as "post template NAME:LINE: …",
// keeping the original error for errors.As.
func templateError(err error) error {
	var escErr *template.Error
	if errors.As(err, &escErr) && escErr.Name != "" {
		where := escErr.Name
		if escErr.Line > 0 {
			where += ":" + strconv.Itoa(escErr.Line)
		}
		return &wordedError{msg: fmt.Sprintf("post template %s: %s", where, escErr.Description), err: err}
	}
	msg := strings.TrimPrefix(err.Error(), "template: ")
	return &wordedError{msg: "post template " + msg, err: err}
}

// wordedError is an error with its own text around a cause.
type wordedError struct {
	msg string
	err error
}

// Error returns the worded text.
func (e *wordedError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *wordedError) Unwrap() error { return e.err }

// sampleData fills every field, so that a trial run touches as much of a
// template as an entry would.
func sampleData(loc *time.Location) Data {
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, loc)
	return Data{
		Title: "Title", FeedTitle: "Feed", Content: "Content", ContentHTML: "<b>Content</b>",
		Summary: "Summary", PostLink: "https://example.org/post", PostDomain: "example.org",
		Author: "Author", Published: at, Updated: at, Categories: []string{"News"}, Hashtags: []string{"#News"},
		Image:      "https://example.org/image.jpg",
		Enclosures: []Enclosure{{URL: "https://example.org/a.mp3", Type: "audio/mpeg", Length: 1}},
		Event:      &Event{Start: at, End: at.Add(time.Hour), Location: "Here", Status: "CONFIRMED"},
	}
}
