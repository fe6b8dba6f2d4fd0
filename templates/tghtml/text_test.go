package tghtml

import (
	"reflect"
	"strings"
	"testing"
)

// Limits cited from shared/telegram/BOTAPI.md "Limits": text 1-4096 characters
// after entity parsing (code points), caption 0-1024, raw text at most 32768
// bytes, empty after trimming refused.
func TestCheckText(t *testing.T) {
	tests := []struct {
		rule, text, mode, want string // want "" means accepted
	}{
		{"empty text", "", "", DescTextEmpty},
		{"white space only is empty after trimming", " \n\t ", "", DescTextEmpty},
		{"empty after parsing", "<b> </b>", "HTML", DescTextEmpty},
		{"4096 characters fit", strings.Repeat("a", 4096), "", ""},
		{"4097 characters are too long", strings.Repeat("a", 4097), "", DescTooLong},
		{"length counts code points, not bytes", strings.Repeat("é", 4096), "", ""},
		{"astral characters count once", strings.Repeat("😀", 4096), "", ""},
		{"length is measured after entity parsing", strings.Repeat("&amp;", 4096), "HTML", ""},
		{"tags don't count", "<b>" + strings.Repeat("a", 4096) + "</b>", "HTML", ""},
		{"trimmed white space doesn't count", "  " + strings.Repeat("a", 4096) + "\n\n", "", ""},
		{"entities count once parsed", strings.Repeat("&lt;", 4097), "HTML", DescTooLong},
		{"raw text over 32768 bytes", strings.Repeat("<b></b>", 4682), "HTML", DescRawTextTooLong},
		{"parse mode is case-insensitive", "<b>x</b>", "html", ""},
		{"plain text isn't parsed", "a < b", "", ""},
		{"parse errors surface", "a < b", "HTML", DescParsePrefix + `Unsupported start tag "" at byte offset 2`},
		{"unknown parse modes are refused", "x", "XML", "Bad Request: unsupported parse_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			_, err := CheckText(tt.text, tt.mode)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("CheckText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckCaption(t *testing.T) {
	tests := []struct {
		rule, caption, mode, want string
	}{
		{"captions may be empty", "", "HTML", ""},
		{"1024 characters fit", strings.Repeat("ж", 1024), "", ""},
		{"1025 characters are too long", strings.Repeat("ж", 1025), "", DescCaptionTooLong},
		{"measured after parsing", "<i>" + strings.Repeat("x", 1024) + "</i>", "HTML", ""},
		{"parse errors surface", "<p>", "HTML", DescParsePrefix + `Unsupported start tag "p" at byte offset 0`},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			_, err := CheckCaption(tt.caption, tt.mode)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("CheckCaption = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseTextTrimsAndClipsEntities(t *testing.T) {
	f, err := ParseText("  <b> x </b>  ", "HTML")
	if err != nil {
		t.Fatal(err)
	}
	want := Formatted{Text: "x", Entities: []Entity{{Type: "bold", Offset: 0, Length: 1}}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("ParseText = %+v, want %+v", f, want)
	}
}

// Nesting rules from BOTAPI.md "Formatting": styles may nest anywhere except in
// pre and code; blockquotes don't nest; other entities can't contain each other.
// Telegram drops what breaks a rule instead of failing.
func TestParseTextNesting(t *testing.T) {
	tests := []struct {
		rule, in string
		types    []string
	}{
		{"styles nest in links", `<a href="https://e.com"><b>x</b></a>`, []string{"text_link", "bold"}},
		{"code nests in styles", "<b>a<code>x</code></b>", []string{"bold", "code"}},
		{"styles may share a range with code", "<code><b>x</b></code>", []string{"code", "bold"}},
		{"nothing nests in code", "<code>a<b>x</b></code>", []string{"code"}},
		{"nothing nests in pre", `<pre>a<a href="https://e.com">x</a></pre>`, []string{"pre"}},
		{"links don't nest in links", `<a href="https://a.com"><a href="https://b.com">x</a></a>`, []string{"text_link"}},
		{"blockquotes don't nest", "<blockquote><blockquote>x</blockquote></blockquote>", []string{"blockquote"}},
		{"styles nest in blockquotes", "<blockquote><i>x</i></blockquote>", []string{"blockquote", "italic"}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f, err := ParseText(tt.in, "HTML")
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, e := range f.Entities {
				types = append(types, e.Type)
			}
			if !reflect.DeepEqual(types, tt.types) {
				t.Errorf("entity types = %v, want %v", types, tt.types)
			}
		})
	}
}

func BenchmarkParseHTML(b *testing.B) {
	in := strings.Repeat(`<b>Title</b> &amp; <a href="https://example.com/a?b=1&amp;c=2">link</a> text `, 50)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := ParseHTML(in); err != nil {
			b.Fatal(err)
		}
	}
}

// Telegram counts code points for limits and UTF-16 units for entity
// offsets, and trims ASCII white space only.
func TestLengths(t *testing.T) {
	tests := []struct {
		in            string
		length, utf16 int
		trimmed       string
	}{
		{"abc", 3, 3, "abc"},
		{"é😀", 2, 3, "é😀"},
		{" \t\n x \r\v\f", 9, 9, "x"},
		{"\u00a0x\u00a0", 3, 3, "\u00a0x\u00a0"}, // no-break space is not trimmed
	}
	for _, tt := range tests {
		if n := TextLength(tt.in); n != tt.length {
			t.Errorf("TextLength(%q) = %d, want %d", tt.in, n, tt.length)
		}
		if n := UTF16Len(tt.in); n != tt.utf16 {
			t.Errorf("UTF16Len(%q) = %d, want %d", tt.in, n, tt.utf16)
		}
		if s := TrimSpace(tt.in); s != tt.trimmed {
			t.Errorf("TrimSpace(%q) = %q, want %q", tt.in, s, tt.trimmed)
		}
	}
}
