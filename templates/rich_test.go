package templates

import (
	"strings"
	"testing"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// mustRich reads Telegram HTML into rich text or fails the test.
func mustRich(t *testing.T, s string) richText {
	t.Helper()
	r, err := parseTelegramHTML(s)
	if err != nil {
		t.Fatalf("parseTelegramHTML(%q): %v", s, err)
	}
	return r
}

func TestTelegramHTMLRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<b>bold</b> <i>it</i> <u>u</u> <s>s</s> <tg-spoiler>sp</tg-spoiler>", ""},
		{`<a href="https://e.org/?a=1&amp;b=&quot;2&quot;">x &lt; y</a>`, ""},
		{`<pre><code class="language-go">a &amp;&amp; b</code></pre>`, ""},
		{"<pre>plain</pre>", ""},
		{"<blockquote expandable>more</blockquote>", ""},
		{`<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>`, ""},
		{`<tg-time unix="1647531900" format="wDT">22:45</tg-time>`, ""},
		{`<a href="tg://user?id=42">u</a>`, ""},
		// Telegram's synonyms come back as the canonical tags.
		{"<strong>a</strong><em>b</em><ins>c</ins><del>d</del>", "<b>a</b><i>b</i><u>c</u><s>d</s>"},
		// Telegram trims; rich text does too.
		{"  \n<b> x </b>\n ", "<b>x</b>"},
		// An unusable link keeps its text only, as Telegram keeps it.
		{`<a href="javascript:x">t</a>`, "t"},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := mustRich(t, tt.in).html(); got != want {
			t.Errorf("round trip of %q = %q, want %q", tt.in, got, want)
		}
	}
}

// Rule: spans move with the text they cover; text replaced exactly keeps
// its span; a span whose text is gone is dropped.
func TestApplyMovesSpans(t *testing.T) {
	r := mustRich(t, `Read <b>more</b> on <a href="https://x.example">XYZ</a> now`)
	tests := []struct {
		name  string
		edits []edit
		want  string
	}{
		{"delete before a span", []edit{{0, 5, ""}}, `<b>more</b> on <a href="https://x.example">XYZ</a> now`},
		{"delete a whole span", []edit{{5, 9, ""}}, `Read  on <a href="https://x.example">XYZ</a> now`},
		{"replace exactly a span's text", []edit{{13, 16, "ABC"}}, `Read <b>more</b> on <a href="https://x.example">ABC</a> now`},
		{"delete across span ends", []edit{{7, 14, ""}}, `Read <b>mo</b><a href="https://x.example">YZ</a> now`},
		{"insert-like growth", []edit{{0, 4, "Please read"}}, `Please read <b>more</b> on <a href="https://x.example">XYZ</a> now`},
		{"several edits", []edit{{0, 5, ""}, {16, 20, ""}}, `<b>more</b> on <a href="https://x.example">XYZ</a>`},
	}
	for _, tt := range tests {
		if got := r.apply(tt.edits).html(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestNormalizeClipsCrossingSpans(t *testing.T) {
	r := richText{text: "abcdef", spans: []span{{start: 0, end: 4, tag: "b"}, {start: 2, end: 6, tag: "i"}, {start: 3, end: 3, tag: "u"}}}.normalize()
	if got, want := r.html(), "<b>ab<i>cd</i></b>ef"; got != want {
		t.Errorf("html = %q, want %q", got, want)
	}
}

// Rule (issue 5): shortened at a word boundary with "…", tags balanced,
// length counted in code points as Telegram counts; clusters are not split.
func TestTruncate(t *testing.T) {
	tests := []struct {
		name string
		n    int
		in   string
		want string
	}{
		{"fits", 10, "short", "short"},
		{"word boundary", 10, "one two three four", "one two…"},
		{"no space near: hard cut", 5, "abcdefghij", "abcd…"},
		{"code points, not bytes", 4, "ääääää", "äää…"},
		{"tags stay balanced", 8, "<b>bold words</b> more", "<b>bold</b>…"},
		{"link kept up to the cut", 12, `see <a href="https://e.org">the long link</a>`, `see <a href="https://e.org">the</a>…`},
		{"astral characters count once", 3, "😀😀😀😀", "😀😀…"},
		{"ZWJ family not split", 4, "ab👨‍👩‍👧 c", "ab…"},
		{"flag pair not split", 4, "abc🇩🇪", "abc…"},
		{"skin tone kept with its hand", 3, "a👍🏽b", "a…"},
		{"combining mark kept with its letter", 3, "abe\u0301c", "ab…"},
		{"CJK without spaces", 4, "漢字漢字漢字", "漢字漢…"},
		{"right-to-left text", 8, "שלום עולם יפה", "שלום…"},
		{"zero", 0, "abc", ""},
	}
	for _, tt := range tests {
		r := mustRich(t, tt.in).truncate(tt.n)
		if got := r.html(); got != tt.want {
			t.Errorf("%s: truncate(%d, %q) = %q, want %q", tt.name, tt.n, tt.in, got, tt.want)
		}
		if n := tghtml.TextLength(r.text); n > max(tt.n, 0) {
			t.Errorf("%s: length %d > %d", tt.name, n, tt.n)
		}
	}
}

// Emoji right at Telegram's limit: 4095 letters then an emoji fit exactly;
// one more character is cut before the emoji, not inside it.
func TestTruncateAtTelegramLimit(t *testing.T) {
	fits := strings.Repeat("a", tghtml.MaxTextLength-1) + "😀"
	if got := (richText{text: fits}).truncate(tghtml.MaxTextLength).text; got != fits {
		t.Error("a text of exactly 4096 code points was shortened")
	}
	over := strings.Repeat("a", tghtml.MaxTextLength-2) + "👍🏽b" // the cut falls between hand and tone
	got := richText{text: over}.truncate(tghtml.MaxTextLength).text
	if !strings.HasSuffix(got, "a…") || tghtml.TextLength(got) > tghtml.MaxTextLength {
		t.Errorf("cut inside the emoji sequence: ...%q (%d)", got[len(got)-8:], tghtml.TextLength(got))
	}
}

// Rule (issue 5, split): the rest goes out as further messages; paragraphs
// are preferred cut points; formatting continues across a cut.
func TestSplit(t *testing.T) {
	first := "<b>Head</b> " + strings.TrimSpace(strings.Repeat("word ", 12))
	para := first + "\n\n" + strings.Repeat("text ", 30) + "\n\n<i>" + strings.Repeat("more ", 30) + "</i>"
	parts := mustRich(t, para).split(100)
	if len(parts) < 3 {
		t.Fatalf("%d parts, want at least 3", len(parts))
	}
	var joined []string
	for i, p := range parts {
		out := p.html()
		if _, err := tghtml.CheckText(out, "HTML"); err != nil {
			t.Errorf("part %d refused: %v", i, err)
		}
		if n := p.length(); n > 100 {
			t.Errorf("part %d has %d characters", i, n)
		}
		joined = append(joined, p.text)
	}
	if parts[0].html() != first {
		t.Errorf("first part %q: want the cut at the paragraph end", parts[0].text)
	}
	if last := parts[len(parts)-1].html(); !strings.HasPrefix(last, "<i>") {
		t.Errorf("last part %q lost its italics", last)
	}
	if got, want := strings.Join(strings.Fields(strings.Join(joined, " ")), " "), strings.Join(strings.Fields(mustRich(t, para).text), " "); got != want {
		t.Error("split lost or repeated text")
	}
}

// Telegram also limits a text to 32768 bytes before parsing: markup-heavy
// text is split into more parts.
func TestSplitRespectsRawSize(t *testing.T) {
	link := `<a href="https://example.org/` + strings.Repeat("x", 200) + `">w</a> `
	parts := mustRich(t, strings.Repeat(link, 1000)).split(tghtml.MaxTextLength)
	if len(parts) < 7 {
		t.Errorf("%d parts for ~230 KB of markup", len(parts))
	}
	for i, p := range parts {
		if _, err := tghtml.CheckText(p.html(), "HTML"); err != nil {
			t.Errorf("part %d: %v", i, err)
		}
	}
}

func TestTidy(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a  b", "a b"},
		{"a \n\n\n\n b", "a\n\n b"},
		{"line  \nnext", "line\nnext"},
		{"  lead and trail  ", "lead and trail"},
		{"• x\n   • nested", "• x\n   • nested"},
		{"<pre>keep   this\n\n\n\nspacing</pre>", "<pre>keep   this\n\n\n\nspacing</pre>"},
		{"<b>a</b>   <i>b</i>", "<b>a</b> <i>b</i>"},
	}
	for _, tt := range tests {
		if got := mustRich(t, tt.in).tidy().html(); got != tt.want {
			t.Errorf("tidy(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeHTML(t *testing.T) {
	if got, want := EscapeHTML(`<a href="x">&</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"; got != want {
		t.Errorf("EscapeHTML = %q, want %q", got, want)
	}
}
