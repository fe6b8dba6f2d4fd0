package templates

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
)

// article100KB is a long article of ordinary markup: paragraphs with
// links and emphasis, headings, lists, code and images.
func article100KB() string {
	var b strings.Builder
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, `<h2>Section %d</h2><p>Paragraph %d has <b>bold</b>, <i>italic</i> and <a href="https://example.org/p/%d?a=1&amp;b=2">a link</a>; `+
			`it goes on for a while so that it reads like prose &amp; not like a test. Ünïcödé 😀 too.</p>`+
			`<ul><li>one <code>x &lt; y</code></li><li>two<ul><li>nested</li></ul></li></ul>`+
			`<pre><code class="language-go">for i := 0; i &lt; %d; i++ {}</code></pre><img src="/img/%d.jpg">`, i, i, i, i, i)
	}
	return b.String()
}

// BenchmarkRender100KB renders a 100 KB article with the default template
// (shortened to one message), and split into messages.
func BenchmarkRender100KB(b *testing.B) {
	e := feed.Entry{Title: "A long article", Link: "https://example.org/long", ContentHTML: article100KB()}
	r := Default(time.UTC)
	for _, split := range []bool{false, true} {
		b.Run(fmt.Sprintf("split=%v", split), func(b *testing.B) {
			b.SetBytes(int64(len(e.ContentHTML)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := r.Render(e, Options{MediaMode: MediaPreview, Split: split})
				if err != nil || len(p.Calls) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkConvert100KB is the HTML conversion alone.
func BenchmarkConvert100KB(b *testing.B) {
	html := article100KB()
	conv := newHTMLConverter()
	b.SetBytes(int64(len(html)))
	b.ReportAllocs()
	for b.Loop() {
		conv.convert(html, "https://example.org/long")
	}
}
