package templates

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/templates/tghtml"
)

func entryWithImages(n int, contentLen int) feed.Entry {
	e := feed.Entry{Title: "Title", Link: "https://example.org/post", ContentHTML: "<p>" + strings.Repeat("word ", contentLen/5) + "</p>"}
	for i := range n {
		e.Images = append(e.Images, feed.Image{URL: fmt.Sprintf("https://img.example/%d.jpg", i)})
	}
	return e
}

func methods(p Post) []string {
	var out []string
	for _, c := range p.Calls {
		out = append(out, c.Method)
	}
	return out
}

// Media modes (issue 5): none — text, no link preview; preview — link
// preview of its image (above the text) or of the article; photo —
// sendPhoto with the caption when it fits, else the photo then the text;
// album — sendMediaGroup of up to 10 images, caption on the first.
func TestMediaModes(t *testing.T) {
	r := Default(time.UTC)
	tests := []struct {
		name    string
		e       feed.Entry
		mode    string
		methods []string
		check   func(t *testing.T, p Post)
	}{
		{"none", entryWithImages(1, 100), MediaNone, []string{SendMessage}, func(t *testing.T, p Post) {
			if !p.Calls[0].Preview.Disabled {
				t.Error("mode none shows a preview")
			}
		}},
		{"preview of the image", entryWithImages(2, 100), MediaPreview, []string{SendMessage}, func(t *testing.T, p Post) {
			if want := (LinkPreview{URL: "https://img.example/0.jpg", AboveText: true, Large: true}); p.Calls[0].Preview != want {
				t.Errorf("preview = %+v, want %+v", p.Calls[0].Preview, want)
			}
		}},
		{"preview of the article", entryWithImages(0, 100), MediaPreview, []string{SendMessage}, func(t *testing.T, p Post) {
			if want := (LinkPreview{URL: "https://example.org/post"}); p.Calls[0].Preview != want {
				t.Errorf("preview = %+v, want %+v", p.Calls[0].Preview, want)
			}
		}},
		{"unknown mode is preview", entryWithImages(0, 100), "", []string{SendMessage}, func(t *testing.T, p Post) {
			if p.Calls[0].Preview.URL != "https://example.org/post" {
				t.Errorf("preview = %+v", p.Calls[0].Preview)
			}
		}},
		{"photo with caption", entryWithImages(2, 100), MediaPhoto, []string{SendPhoto}, func(t *testing.T, p Post) {
			c := p.Calls[0]
			if !reflect.DeepEqual(c.Images, []string{"https://img.example/0.jpg"}) || !strings.HasPrefix(c.Text, "<b>Title</b>") {
				t.Errorf("call = %+v", c)
			}
			if c.Fallback == nil || c.Fallback.Method != SendMessage || c.Fallback.Text != c.Text {
				t.Errorf("fallback = %+v, want the caption as a text", c.Fallback)
			}
		}},
		{"photo then text", entryWithImages(1, 2000), MediaPhoto, []string{SendPhoto, SendMessage}, func(t *testing.T, p Post) {
			if p.Calls[0].Text != "" || p.Calls[0].Fallback != nil || !p.Calls[1].Preview.Disabled {
				t.Errorf("calls = %+v", p.Calls)
			}
		}},
		{"photo without images", entryWithImages(0, 100), MediaPhoto, []string{SendMessage}, nil},
		{"album", entryWithImages(12, 100), MediaAlbum, []string{SendMediaGroup}, func(t *testing.T, p Post) {
			if n := len(p.Calls[0].Images); n != MaxAlbum {
				t.Errorf("album of %d images, want %d", n, MaxAlbum)
			}
		}},
		{"album of one is a photo", entryWithImages(1, 100), MediaAlbum, []string{SendPhoto}, nil},
		{"album then text", entryWithImages(3, 3000), MediaAlbum, []string{SendMediaGroup, SendMessage}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := render(t, r, tt.e, Options{MediaMode: tt.mode})
			if got := methods(p); !reflect.DeepEqual(got, tt.methods) {
				t.Fatalf("methods = %v, want %v", got, tt.methods)
			}
			checkPost(t, p)
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

// checkPost validates every call as Telegram would.
func checkPost(t *testing.T, p Post) {
	t.Helper()
	for i, c := range p.Calls {
		if err := checkCall(c); err != nil {
			t.Errorf("call %d (%s): %v", i, c.Method, err)
		}
	}
}

// checkCall applies Telegram's rules to one call: texts and captions
// through the shared validator, album sizes, photo counts.
func checkCall(c Call) error {
	switch c.Method {
	case SendMessage:
		if _, err := tghtml.CheckText(c.Text, "HTML"); err != nil {
			return err
		}
	case SendPhoto, SendMediaGroup:
		if _, err := tghtml.CheckCaption(c.Text, "HTML"); err != nil {
			return err
		}
		if n := len(c.Images); c.Method == SendPhoto && n != 1 || c.Method == SendMediaGroup && (n < 2 || n > MaxAlbum) {
			return fmt.Errorf("%d images", n)
		}
		if c.Fallback != nil {
			return checkCall(*c.Fallback)
		}
	default:
		return fmt.Errorf("unknown method %q", c.Method)
	}
	return nil
}

// Rule (issue 5): too long → the content is shortened at a word boundary
// with "…" and the link is kept; tags stay balanced.
func TestLongContentIsShortened(t *testing.T) {
	e := feed.Entry{Title: "Long", Link: "https://example.org/l",
		ContentHTML: strings.Repeat("<p>Some <b>bold</b> and <a href=\"https://x.example/\">linked</a> words.</p>", 400)}
	p := render(t, Default(time.UTC), e, Options{MediaMode: MediaNone})
	if len(p.Calls) != 1 {
		t.Fatalf("%d calls", len(p.Calls))
	}
	checkPost(t, p)
	f, _ := tghtml.ParseText(p.Calls[0].Text, "HTML")
	if n := tghtml.TextLength(f.Text); n > tghtml.MaxTextLength || n < tghtml.MaxTextLength-200 {
		t.Errorf("length %d: want close to the limit", n)
	}
	if !strings.HasPrefix(f.Text, "Long\n\n") || !strings.HasSuffix(f.Text, "…\n\nexample.org") {
		t.Errorf("title or link lost: %q … %q", f.Text[:20], f.Text[len(f.Text)-30:])
	}
}

// Rule (issue 5): with split on, the rest goes out as further messages.
func TestLongContentIsSplit(t *testing.T) {
	e := feed.Entry{Title: "Long", Link: "https://example.org/l", ContentHTML: strings.Repeat("<p>Some <i>words</i> here.</p>", 1000)}
	p := render(t, Default(time.UTC), e, Options{MediaMode: MediaPreview, Split: true})
	if len(p.Calls) < 5 {
		t.Fatalf("%d calls, want the whole text in several", len(p.Calls))
	}
	checkPost(t, p)
	total := 0
	for i, c := range p.Calls {
		f, _ := tghtml.ParseText(c.Text, "HTML")
		total += strings.Count(f.Text, "Some words here.")
		if i > 0 && !c.Preview.Disabled {
			t.Errorf("part %d has a link preview", i)
		}
	}
	if total != 1000 {
		t.Errorf("%d paragraphs sent, want all 1000", total)
	}
	if !strings.HasSuffix(p.Calls[len(p.Calls)-1].Text, `<a href="https://example.org/l">example.org</a>`) {
		t.Error("the link is not at the end of the last part")
	}
}

// A template whose own text is too long is cut as a whole.
func TestTemplateTooLongIsCut(t *testing.T) {
	r, err := Parse("long.gohtml", strings.Repeat("<b>static</b> ", 1000)+"{{.Title}}", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	p := render(t, r, feed.Entry{Title: "T"}, Options{MediaMode: MediaNone})
	checkPost(t, p)
	if !strings.HasSuffix(p.Calls[0].Text, "…") {
		t.Errorf("text does not end in …: %q", p.Calls[0].Text[len(p.Calls[0].Text)-20:])
	}
}

// A feed that puts a whole article in the title: the title is shortened
// and the link survives.
func TestHugeTitleIsShortened(t *testing.T) {
	e := feed.Entry{Title: strings.Repeat("title words ", 1000), Link: "https://example.org/t", ContentHTML: "<p>short</p>"}
	p := render(t, Default(time.UTC), e, Options{MediaMode: MediaNone})
	checkPost(t, p)
	f, _ := tghtml.ParseText(p.Calls[0].Text, "HTML")
	if !strings.HasSuffix(f.Text, "…\n\nexample.org") || tghtml.TextLength(f.Text) > maxShortTitle+20 {
		t.Errorf("text = %q", f.Text)
	}
}
