package templates

import (
	"fmt"
	"html/template"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// maxShortenRounds bounds the search for a content length that fits.
const maxShortenRounds = 12

// maxShortTitle is the title's length when even an empty content is too
// long (feeds that put a whole article in the title).
const maxShortTitle = 256

// fitter renders one entry with one template under Telegram's limits.
type fitter struct {
	t        *template.Template
	v        view
	fallback string // text for a template whose output is empty
	full     richText
	fullHTML string
}

// newFitter renders the entry whole once; it fails when the template
// fails or writes something Telegram would refuse to parse.
func newFitter(t *template.Template, v view, fallback string) (*fitter, error) {
	f := &fitter{t: t, v: v, fallback: fallback}
	out, rich, err := f.render(v.data)
	if err != nil {
		return nil, err
	}
	f.full, f.fullHTML = rich, out
	return f, nil
}

// render executes the template and reads its output back as Telegram
// would. Empty output becomes the fallback text.
func (f *fitter) render(d Data) (string, richText, error) {
	out, err := execute(f.t, d)
	if err != nil {
		return "", richText{}, err
	}
	rich, err := parseTelegramHTML(out)
	if err != nil {
		return "", richText{}, fmt.Errorf("post template %s: the output is not Telegram HTML: %w", f.t.Name(), err)
	}
	if rich.text == "" {
		rich = richText{text: f.fallback}
		out = rich.html()
	}
	return out, rich, nil
}

// fits reports whether a rendered text is within limit characters and
// Telegram's raw size limit.
func fits(out string, rich richText, limit int) bool {
	return len(out) <= tghtml.MaxRawTextBytes && tghtml.TextLength(rich.text) <= limit
}

// wholeFits reports whether the whole rendering fits limit.
func (f *fitter) wholeFits(limit int) bool { return fits(f.fullHTML, f.full, limit) }

// texts returns the entry as texts of at most limit characters: whole when
// it fits; else, with split, the whole rendering in parts; else shortened.
func (f *fitter) texts(limit int, split bool) ([]string, error) {
	if f.wholeFits(limit) {
		return []string{f.fullHTML}, nil
	}
	if split {
		var out []string
		for _, part := range f.full.split(limit) {
			out = append(out, part.html())
		}
		return out, nil
	}
	text, err := f.shorten(limit)
	if err != nil {
		return nil, err
	}
	return []string{text}, nil
}

// shorten shortens the content (and summary) until the rendering fits, so
// what the template puts around it (title, link) survives; the cut is at a
// word boundary with "…". When the rest alone is too long, the title is
// shortened too, and as a last resort the rendering itself is cut.
func (f *fitter) shorten(limit int) (string, error) {
	d := f.v.data
	lastN, lastRaw := tghtml.TextLength(f.full.text), len(f.fullHTML)
	over := lastN - limit
	budget := max(f.v.content.length(), tghtml.TextLength(f.v.summary))
	for range maxShortenRounds {
		budget -= max(over, 0) + 1
		if budget <= 0 {
			break
		}
		c := f.v.content.truncate(budget)
		d.Content, d.ContentHTML = c.text, template.HTML(c.html())
		d.Summary = truncatePlain(budget, f.v.summary)
		out, rich, err := f.render(d)
		if err != nil {
			return "", err
		}
		if fits(out, rich, limit) {
			return out, nil
		}
		n := tghtml.TextLength(rich.text)
		if n >= lastN && len(out) >= lastRaw {
			break // the content is not what makes it long
		}
		lastN, lastRaw, over = n, len(out), n-limit
		if len(out) > tghtml.MaxRawTextBytes {
			over = max(over, budget/4)
		}
	}
	d.Content, d.ContentHTML, d.Summary = "", "", ""
	d.Title = truncatePlain(maxShortTitle, d.Title)
	out, rich, err := f.render(d)
	if err != nil {
		return "", err
	}
	if fits(out, rich, limit) {
		return out, nil
	}
	return hardCut(rich, limit), nil
}

// hardCut cuts a rendering to limit characters and the raw size limit.
func hardCut(r richText, limit int) string {
	for n := limit; n > 1; n /= 2 {
		if out := r.truncate(n).html(); len(out) <= tghtml.MaxRawTextBytes {
			return out
		}
	}
	return ellipsis
}
