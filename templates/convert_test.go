package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/templates/tghtml"
)

var update = flag.Bool("update", false, "rewrite the golden files of the converter")

// goldenBase is the base URL the golden inputs resolve relative links with.
const goldenBase = "https://example.org/posts/1"

// TestConvertGolden converts each testdata/convert/*.html and compares the
// Telegram HTML and the collected images with the .golden file beside it
// (go test -run TestConvertGolden -update rewrites them). Every output must
// also be accepted by Telegram's parser.
func TestConvertGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "convert", "*.html"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	conv := newHTMLConverter()
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".html")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			c := conv.convert(string(src), goldenBase)
			out := c.rich.html()
			if _, err := tghtml.CheckText(out, "HTML"); err != nil {
				t.Errorf("Telegram would refuse the output: %v\n%s", err, out)
			}
			got := out + "\n"
			if len(c.images) > 0 {
				got += "--- images\n" + strings.Join(c.images, "\n") + "\n"
			}
			golden := strings.TrimSuffix(in, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}

// FuzzConvert: whatever a feed holds, the converter's output is Telegram
// HTML that Telegram accepts, and shortening or splitting it keeps it so.
func FuzzConvert(f *testing.F) {
	for _, seed := range []string{
		"", "plain", "<p>a</p><p>b</p>", "<ul><li>x<ol><li>y</ol></ul>", "<pre><code class=language-go>a &lt; b</code></pre>",
		"<table><tr><td>a<td>b</table>", `<a href="/x">rel</a><a href="javascript:x">js</a>`, "<b><i>x</b></i>", "a < b & c",
		"<blockquote><blockquote>q</blockquote></blockquote>", "😀<b>👨‍👩‍👧</b>🇩🇪", "\x00<b>\x00</b>", "<img src=x><img src=data:image/png;base64,AA==>",
		"<h1>h</h1>text<br><br>more", "&#xD83D;&amp;&lt;", "<a href=\"https://e.org\"><pre>x</pre></a>",
	} {
		f.Add(seed)
	}
	conv := newHTMLConverter()
	f.Fuzz(func(t *testing.T, in string) {
		c := conv.convert(in, "https://example.org/")
		out := c.rich.html()
		text, err := tghtml.ParseHTML(out)
		if err != nil {
			t.Fatalf("output refused: %v\nin:  %q\nout: %q", err, in, out)
		}
		if text != c.rich.text {
			t.Fatalf("visible text %q, rich text %q", text, c.rich.text)
		}
		if _, err := tghtml.ParseHTML(c.rich.truncate(17).html()); err != nil {
			t.Fatalf("shortened output refused: %v", err)
		}
		for _, part := range c.rich.split(23) {
			if _, err := tghtml.CheckText(part.html(), "HTML"); err != nil {
				t.Fatalf("part refused: %v (%q)", err, part.html())
			}
		}
	})
}
