package tghtml

import (
	"errors"
	"html"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Rules cited below are from the Bot API's "Formatting options" (HTML style) and
// TDLib's parse_html, as summarised in shared/telegram/BOTAPI.md "Formatting".
func TestParseHTMLAccepts(t *testing.T) {
	tests := []struct {
		rule, in, plain string
		entities        []Entity
	}{
		{"tags become entities", "<b>bold</b> text", "bold text",
			[]Entity{{Type: "bold", Offset: 0, Length: 4}}},
		{"tag names are case-insensitive", "<B>x</b><STRONG>y</Strong>", "xy",
			[]Entity{{Type: "bold", Offset: 0, Length: 1}, {Type: "bold", Offset: 1, Length: 1}}},
		{"synonyms map to one entity type", "<em>a</em><ins>b</ins><del>c</del><strike>d</strike><s>e</s>", "abcde",
			[]Entity{{Type: "italic", Length: 1}, {Type: "underline", Offset: 1, Length: 1},
				{Type: "strikethrough", Offset: 2, Length: 1}, {Type: "strikethrough", Offset: 3, Length: 1},
				{Type: "strikethrough", Offset: 4, Length: 1}}},
		{"named entities lt gt amp quot", "&lt;&gt;&amp;&quot;", `<>&"`, nil},
		{"a named entity needs no semicolon", "&amp x", "& x", nil},
		{"unknown named entities stay literal", "&nbsp;x &copy;", "&nbsp;x &copy;", nil},
		{"decimal and lower-case hex references", "&#65;&#x42;&#128512;", "AB😀", nil},
		{"upper-case X is not a hex reference", "&#X43;", "&#X43;", nil},
		{"reference zero stays literal", "&#0;", "&#0;", nil},
		{"references of 10+ characters stay literal", "&#0000000065;", "&#0000000065;", nil},
		{"U+10FFFF and above stay literal", "&#x10FFFF;", "&#x10FFFF;", nil},
		{"a bare ampersand is text", "Q&A", "Q&A", nil},
		{"a bare > is text", "a > b", "a > b", nil},
		{"offsets count UTF-16 units", "😀<b>x</b>", "😀x",
			[]Entity{{Type: "bold", Offset: 2, Length: 1}}},
		{"unknown attributes are ignored", `<b foo="1" bar=baz>x</b>`, "x",
			[]Entity{{Type: "bold", Length: 1}}},
		{"white space inside tags", "<b\n>x</b >", "x", []Entity{{Type: "bold", Length: 1}}},
		{"an empty end tag closes the open tag", "<i>x</>", "x", []Entity{{Type: "italic", Length: 1}}},
		{"empty elements make no entity", "<b></b>x", "x", nil},
		{"nesting", "<i>a<b>c</b></i>", "ac",
			[]Entity{{Type: "italic", Length: 2}, {Type: "bold", Offset: 1, Length: 1}}},
		{"links decode references in href", `<a href="https://e.com/?a=1&amp;b=2">l</a>`, "l",
			[]Entity{{Type: "text_link", Length: 1, URL: "https://e.com/?a=1&b=2"}}},
		{"a link without href links its text", `<a>https://e.com</a>`, "https://e.com",
			[]Entity{{Type: "text_link", Length: 13, URL: "https://e.com"}}},
		{"tg://user links mention the user", `<a href="tg://user?id=42">u</a>`, "u",
			[]Entity{{Type: "text_mention", Length: 1, User: &EntityUser{ID: 42}}}},
		{"unusable links are dropped, not refused", `<a href="javascript:alert(1)">x</a>`, "x", nil},
		{"spoiler span", `<span class="tg-spoiler">s</span><tg-spoiler>t</tg-spoiler>`, "st",
			[]Entity{{Type: "spoiler", Length: 1}, {Type: "spoiler", Offset: 1, Length: 1}}},
		{"pre with a code language", `<pre><code class="language-go">x</code></pre>`, "x",
			[]Entity{{Type: "pre", Length: 1, Language: "go"}}},
		{"code alone keeps no language", `<code class="language-go">x</code>`, "x",
			[]Entity{{Type: "code", Length: 1}}},
		{"blockquote", "<blockquote>q</blockquote>", "q", []Entity{{Type: "blockquote", Length: 1}}},
		{"expandable blockquote", "<blockquote expandable>q</blockquote>", "q",
			[]Entity{{Type: "expandable_blockquote", Length: 1}}},
		{"custom emoji", `<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>`, "👍",
			[]Entity{{Type: "custom_emoji", Length: 2, CustomEmojiID: "5368324170671202286"}}},
		{"date and time", `<tg-time unix="1647531900" format="wDT">22:45</tg-time>`, "22:45",
			[]Entity{{Type: "date_time", Length: 5, UnixTime: 1647531900, DateTimeFormat: "wDT"}}},
		{"leading and trailing white space is kept by the parser", "  x  ", "  x  ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			plain, entities, err := ParseHTMLEntities(tt.in)
			if err != nil {
				t.Fatalf("ParseHTMLEntities(%q) error %v", tt.in, err)
			}
			if plain != tt.plain {
				t.Errorf("plain = %q, want %q", plain, tt.plain)
			}
			if !reflect.DeepEqual(entities, tt.entities) {
				t.Errorf("entities = %+v, want %+v", entities, tt.entities)
			}
		})
	}
}

func TestParseHTMLRefuses(t *testing.T) {
	tests := []struct{ rule, in, detail string }{
		{"only the listed tags", "<p>x</p>", `Unsupported start tag "p" at byte offset 0`},
		{"unsupported tags are reported lower-cased", "hi <P>", `Unsupported start tag "p" at byte offset 3`},
		{"a bare < starts a tag with an empty name", "a < b", `Unsupported start tag "" at byte offset 2`},
		{"a self-closing tag is not a tag name", "<br/>", `Unsupported start tag "br/" at byte offset 0`},
		{"a start tag must end", "<b", "Unclosed start tag at byte offset 0"},
		{"a trailing < is an unclosed tag", "x<", "Unclosed start tag at byte offset 1"},
		{"every start tag needs an end tag", "<b>x", `Can't find end tag corresponding to start tag "b"`},
		{"the innermost open tag is reported", "<b><i>x</i>", `Can't find end tag corresponding to start tag "b"`},
		{"an end tag needs a start tag", "x</b>", "Unexpected end tag at byte offset 1"},
		{"end tags close the innermost tag", "<b><i>x</b></i>",
			`Unmatched end tag at byte offset 7, expected "</i>", found "</b>"`},
		{"end tag names are compared lower-cased", "<b>x</I>",
			`Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`},
		{"an end tag must end", "<b>x</b", "Unclosed end tag at byte offset 4"},
		{"no space after </", "<b>x</ b>", "Unclosed end tag at byte offset 4"},
		{"span needs the spoiler class", "<span>x</span>", `Tag "span" must have class "tg-spoiler" at byte offset 0`},
		{"span with another class", `x<span class="red">y</span>`, `Tag "span" must have class "tg-spoiler" at byte offset 1`},
		{"attribute names can't be empty", `<a ="x">y</a>`, `Empty attribute name in the tag "a" at byte offset 0`},
		{"an attribute at the end of the text", `<a href`, `Unclosed start tag "a" at byte offset 0`},
		{"an attribute value at the end of the text", `<a href=`, `Unclosed start tag "a" at byte offset 0`},
		{"an unterminated quoted value", `<a href="x`, "Unclosed start tag at byte offset 0"},
		{"unquoted values are name tokens", `<a href=https://e.com>x</a>`, "Unexpected end of name token at byte offset 8"},
		{"a valueless attribute at the end", "<blockquote expandable", `Unclosed start tag "blockquote" at byte offset 0`},
		{"custom emoji need a numeric id", "<tg-emoji>x</tg-emoji>", "Invalid custom emoji identifier specified"},
		{"lone surrogates are refused", "&#xD83D;", "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			_, err := ParseHTML(tt.in)
			var tgErr *Error
			if !errors.As(err, &tgErr) {
				t.Fatalf("ParseHTML(%q) error = %v, want an *Error", tt.in, err)
			}
			want := "Bad Request: can't parse entities: " + tt.detail
			if tgErr.Description != want {
				t.Errorf("ParseHTML(%q) = %q, want %q", tt.in, tgErr.Description, want)
			}
		})
	}
}

func FuzzParseHTML(f *testing.F) {
	for _, seed := range []string{
		"", "<b>x</b>", "a < b", "&#xD83D;", "<a href=\"x\">y</a>", "<pre><code class=\"language-go\">x</code></pre>",
		"<blockquote expandable>q</blockquote>", "<b", "&#", "&", "<tg-emoji emoji-id=1>x</tg-emoji>", "\x00<b>\x00",
		"<span class='tg-spoiler'>s</span>", "😀<i>é</i>", "</", "<a href='tg://user?id=1'>u</a>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		plain, entities, err := ParseHTMLEntities(in)
		if err != nil {
			if !strings.HasPrefix(err.Error(), DescParsePrefix) {
				t.Fatalf("error %q lacks the parse prefix", err)
			}
			return
		}
		n := UTF16Len(plain)
		for _, e := range entities {
			if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > n {
				t.Fatalf("entity %+v outside text of %d units (%q)", e, n, plain)
			}
		}
		if !utf8.ValidString(plain) {
			return
		}
		// Escaped, the visible text must come back unchanged.
		again, err := ParseHTML(html.EscapeString(plain))
		if err != nil || again != plain {
			t.Fatalf("escaped round trip of %q = %q, %v", plain, again, err)
		}
	})
}
