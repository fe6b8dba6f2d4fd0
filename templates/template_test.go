package templates

import (
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

// Rule (issue 5): a template that does not parse stops start-up with
// "post template post.gohtml:7: …".
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text, prefix, contains string
	}{
		{"syntax", "line1\nline2\n{{.Title", "post template post.gohtml:3:", "unclosed action"},
		{"unknown field", "{{.Nope}}", "post template post.gohtml:1:", "Nope"},
		{"unknown function", "\n{{shout .Title}}", "post template post.gohtml:2:", "shout"},
		{"escaper", `<a href="{{.PostLink}}`, "post template post.gohtml: ", "non-text context"},
		{"not Telegram HTML", "<p>{{.Title}}</p>", "post template post.gohtml: the output is not Telegram HTML:", `Unsupported start tag "p"`},
	}
	for _, tt := range tests {
		_, err := Parse("post.gohtml", tt.text, time.UTC)
		if err == nil || !strings.HasPrefix(err.Error(), tt.prefix) || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("%s: error = %v, want %q…%q", tt.name, err, tt.prefix, tt.contains)
		}
	}
}

func TestParseAcceptsWorkingTemplates(t *testing.T) {
	for _, text := range []string{
		defaultTemplateEN, defaultTemplateDE,
		`{{.Title}} {{truncate 10 .ContentHTML}} {{escape .Author}} {{join .Hashtags " "}}`,
		`{{date .Published}} {{date "2006-01-02" .Published}} {{time .Published}} {{datetime .Updated}} {{format "Jan 2" .Published}} {{with .Event}}{{when .}}{{end}}`,
		`<pre><code class="language-go">{{.Content}}</code></pre><tg-spoiler>{{.Summary}}</tg-spoiler>`,
	} {
		if _, err := Parse("t.gohtml", text, time.UTC); err != nil {
			t.Errorf("Parse(%q): %v", text, err)
		}
	}
}

func render(t *testing.T, r *Renderer, e feed.Entry, o Options) Post {
	t.Helper()
	p, err := r.Render(e, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The default template: the bold title, the content as Telegram HTML, the
// feed's name linking the entry; every field escaped.
func TestDefaultTemplate(t *testing.T) {
	e := feed.Entry{
		Title:       `Tom & Jerry <script>alert(1)</script> "quoted"`,
		Link:        "https://www.example.org/a?x=1&y=2",
		ContentHTML: `<p>1 &lt; 2 &amp; 3 &gt; 2</p><p>second <b>para</b></p>`,
	}
	p := render(t, Default(time.UTC), e, Options{FeedTitle: "Feed <&>", MediaMode: MediaNone})
	want := "<b>Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt; &#34;quoted&#34;</b>\n\n" +
		"1 &lt; 2 &amp; 3 &gt; 2\n\nsecond <b>para</b>\n\n" +
		`<a href="https://www.example.org/a?x=1&amp;y=2">Feed &lt;&amp;&gt;</a>`
	if len(p.Calls) != 1 || p.Calls[0].Text != want {
		t.Errorf("text =\n%s\nwant\n%s", p.Calls[0].Text, want)
	}
}

// The German default template is chosen by the language (BOT_LANGUAGE).
func TestDefaultTemplateLanguage(t *testing.T) {
	e := feed.Entry{Title: "Treffen", Event: &feed.Event{Start: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), AllDay: true, Status: "CANCELLED"}}
	for lang, want := range map[string]string{
		"en": "Treffen\n📅 Mon, 2 Mar 2026 (all day)\n❌ Cancelled",
		"de": "Treffen\n📅 Mo., 2. März 2026 (ganztägig)\n❌ Abgesagt",
	} {
		p := render(t, Default(time.UTC), e, Options{Language: lang})
		r := mustRich(t, p.Calls[0].Text)
		if r.text != want {
			t.Errorf("%s: %q, want %q", lang, r.text, want)
		}
	}
}

// Rule (issue 5): a template that fails for one entry falls back to the
// default template for that entry; the entry is still posted.
func TestTemplateFallback(t *testing.T) {
	r, err := Parse("post.gohtml", `{{.Title}}: {{.Event.Location}}`, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	ok := render(t, r, feed.Entry{Title: "Party", Event: &feed.Event{Start: time.Now(), Location: "Hall"}}, Options{})
	if ok.TemplateErr != nil || ok.Calls[0].Text != "Party: Hall" {
		t.Errorf("working entry: %+v", ok)
	}
	failed := render(t, r, feed.Entry{Title: "News"}, Options{})
	if failed.TemplateErr == nil || !strings.HasPrefix(failed.TemplateErr.Error(), "post template post.gohtml:1:") {
		t.Errorf("TemplateErr = %v", failed.TemplateErr)
	}
	if failed.Calls[0].Text != "<b>News</b>" {
		t.Errorf("fallback text = %q, want the built-in template's", failed.Calls[0].Text)
	}
}

// A subscription's own template wins over the global one; a broken one
// falls back with an error that names it.
func TestSubscriptionTemplate(t *testing.T) {
	r, err := Parse("post.gohtml", `global {{.Title}}`, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	e := feed.Entry{Title: "T"}
	if p := render(t, r, e, Options{Template: `sub {{.Title}}`}); p.Calls[0].Text != "sub T" {
		t.Errorf("subscription template: %q", p.Calls[0].Text)
	}
	if p := render(t, r, e, Options{}); p.Calls[0].Text != "global T" {
		t.Errorf("global template: %q", p.Calls[0].Text)
	}
	p := render(t, r, e, Options{Template: `{{.Title`})
	if p.TemplateErr == nil || !strings.HasPrefix(p.TemplateErr.Error(), "post template subscription:1:") || p.Calls[0].Text != "<b>T</b>" {
		t.Errorf("broken subscription template: %+v", p)
	}
	if err := r.Check("subscription", "<div>"); err == nil {
		t.Error("Check accepted a template that writes <div>")
	}
}

// A template that writes nothing visible still posts the entry: its title,
// else its link, else its identity.
func TestEmptyOutputPostsTitle(t *testing.T) {
	r, err := Parse("empty.gohtml", `{{if false}}x{{end}}`, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		e    feed.Entry
		want string
	}{
		{feed.Entry{Title: "A <b>", Identity: "urn:x"}, "A &lt;b&gt;"},
		{feed.Entry{Link: "https://e.org/1", Identity: "urn:x"}, "https://e.org/1"},
		{feed.Entry{Identity: "urn:x"}, "urn:x"},
	} {
		if got := render(t, r, tt.e, Options{}).Calls[0].Text; got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestFuncs(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 7, 4, 22, 30, 0, 0, time.UTC)
	e := feed.Entry{Title: "T & U", Published: at, Categories: []string{"a b", "c"}, ContentHTML: "<b>bold words here</b>",
		Event: &feed.Event{Start: at, End: at.Add(3 * time.Hour)}}
	tests := []struct {
		lang, text, want string
	}{
		{"en", `{{date .Published}}`, "5 July 2026"},
		{"de", `{{date .Published}}`, "5. Juli 2026"},
		{"en", `{{date "2006-01-02 15:04 MST" .Published}}`, "2026-07-05 00:30 CEST"},
		{"en", `{{time .Published}} {{datetime .Published}}`, "00:30 5 July 2026, 00:30"},
		{"en", `{{format "Mon" .Published}}`, "Sun"},
		{"en", `{{with .Event}}{{when .}}{{end}}`, "Sun, 5 Jul 2026, 00:30–03:30"},
		{"de", `{{with .Event}}{{when .}}{{end}}`, "So., 5. Juli 2026, 00:30–03:30"},
		{"en", `{{truncate 8 .ContentHTML}}`, "<b>bold</b>…"},
		{"en", `{{truncate 3 .Title}}`, "T…"},
		{"en", `{{escape .Title}}`, "T &amp; U"},
		{"en", `{{join .Hashtags " "}}`, "#a_b #c"},
		{"en", `{{date .Updated}}x`, "x"},
	}
	for _, tt := range tests {
		r, err := Parse("f.gohtml", tt.text, berlin)
		if err != nil {
			t.Fatalf("%s: %v", tt.text, err)
		}
		if got := render(t, r, e, Options{Language: tt.lang}).Calls[0].Text; got != tt.want {
			t.Errorf("%s %s = %q, want %q", tt.lang, tt.text, got, tt.want)
		}
	}
}

func TestEventTimes(t *testing.T) {
	f := newDateFormatter("en", time.UTC)
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		ev   *Event
		want string
	}{
		{"all day, one day", &Event{Start: day(5), End: day(6), AllDay: true}, "Mon, 5 Jan 2026 (all day)"},
		{"all day, several days (end exclusive)", &Event{Start: day(5), End: day(8), AllDay: true}, "Mon, 5 Jan 2026 – Wed, 7 Jan 2026"},
		{"no end", &Event{Start: day(5).Add(9 * time.Hour)}, "Mon, 5 Jan 2026, 09:00"},
		{"over midnight", &Event{Start: day(5).Add(22 * time.Hour), End: day(6).Add(2 * time.Hour)}, "Mon, 5 Jan 2026, 22:00 – Tue, 6 Jan 2026, 02:00"},
		{"nil", nil, ""},
	}
	for _, tt := range tests {
		if got := f.event(tt.ev); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
