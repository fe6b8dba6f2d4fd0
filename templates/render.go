// Package templates turns stored entries into Telegram messages: Go
// templates (post.gohtml) over documented Data, Telegram HTML, and
// Telegram's length limits.
package templates

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/rssbot/rssbot/engine/feed"
)

//go:embed post.gohtml
var defaultTemplate string

// MaxTextLen is Telegram's limit for a message text, in characters after
// entity parsing.
const MaxTextLen = 4096

// Message is one Bot API message to send.
type Message struct {
	Text           string // Telegram HTML
	DisablePreview bool
}

// Renderer renders entries with one post template.
type Renderer struct {
	tmpl *template.Template
	loc  *time.Location
}

// Funcs are the helper functions every post template may call.
func Funcs() template.FuncMap {
	return template.FuncMap{
		"truncate": Truncate,
		"date":     func(layout string, t time.Time) string { return t.Format(layout) },
	}
}

// Parse compiles a post template; errors name the template and line
// ("post template post.gohtml:7: …").
func Parse(name, text string, loc *time.Location) (*Renderer, error) {
	t, err := template.New(name).Funcs(Funcs()).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("post template %s", strings.TrimPrefix(err.Error(), "template: "))
	}
	if loc == nil {
		loc = time.UTC
	}
	return &Renderer{tmpl: t, loc: loc}, nil
}

// Default returns the embedded default template.
func Default(loc *time.Location) *Renderer {
	r, err := Parse("post.gohtml", defaultTemplate, loc)
	if err != nil {
		panic(err) // the embedded template is tested
	}
	return r
}

// Render renders one entry into the messages that post it.
func (r *Renderer) Render(e feed.Entry, feedTitle string) ([]Message, error) {
	d := NewData(e, feedTitle, r.loc)
	text, err := r.execute(d)
	if err != nil {
		return nil, err
	}
	// Over the limit: shorten the content until it fits.
	for limit := len([]rune(d.Content)); VisibleLen(text) > MaxTextLen && limit > 0; {
		limit = limit * 3 / 4
		d.Content = Truncate(limit, d.Content)
		d.Summary = Truncate(limit, d.Summary)
		d.Title = Truncate(256, d.Title)
		if text, err = r.execute(d); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(text) == "" {
		text = template.HTMLEscapeString(firstNonEmpty(d.Title, d.PostLink, e.Identity))
	}
	return []Message{{Text: text}}, nil
}

func (r *Renderer) execute(d Data) (string, error) {
	var buf bytes.Buffer
	if err := r.tmpl.Execute(&buf, d); err != nil {
		return "", fmt.Errorf("post template %s", strings.TrimPrefix(err.Error(), "template: "))
	}
	return strings.TrimSpace(buf.String()), nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// VisibleLen counts the characters Telegram counts: code points of the text
// after tags are removed and entities decoded.
func VisibleLen(s string) int {
	n := 0
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return n
		case html.TextToken:
			n += len([]rune(string(z.Text())))
		}
	}
}
