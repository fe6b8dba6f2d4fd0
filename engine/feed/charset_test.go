package feed

import (
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

func encode(t *testing.T, cm *charmap.Charmap, s string) string {
	t.Helper()
	out, err := cm.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func utf16le(s string) string {
	var b strings.Builder
	b.WriteString("\xFF\xFE")
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

func TestCharsets(t *testing.T) {
	rss := func(prolog, title string) string {
		return prolog + "<rss version=\"2.0\"><channel><title>" + title + "</title></channel></rss>"
	}
	tests := []struct {
		name, body, contentType, want string
	}{
		{"ISO-8859-1 by prolog", rss(`<?xml version="1.0" encoding="ISO-8859-1"?>`, encode(t, charmap.ISO8859_1, "Café")), "", "Café"},
		{"windows-1251 by prolog", rss(`<?xml version="1.0" encoding="windows-1251"?>`, encode(t, charmap.Windows1251, "Цитаты")), "", "Цитаты"},
		{"KOI8-R by prolog", rss(`<?xml version="1.0" encoding="KOI8-R"?>`, encode(t, charmap.KOI8R, "Пример")), "", "Пример"},
		{"windows-1251 by HTTP header, no prolog", rss("", encode(t, charmap.Windows1251, "Новости")), "application/rss+xml; charset=windows-1251", "Новости"},
		// The prolog wins over a server's default charset…
		{"prolog over header", rss(`<?xml version="1.0" encoding="windows-1251"?>`, encode(t, charmap.Windows1251, "Цитаты")), "text/xml; charset=iso-8859-1", "Цитаты"},
		// …unless it is wrong: UTF-8 claimed for bytes that are not.
		{"header when the prolog is wrong", rss(`<?xml version="1.0" encoding="utf-8"?>`, encode(t, charmap.KOI8R, "Пример")), "text/xml; charset=koi8-r", "Пример"},
		{"header when the prolog is unknown", rss(`<?xml version="1.0" encoding="bogus"?>`, encode(t, charmap.KOI8R, "Пример")), "text/xml; charset=koi8-r", "Пример"},
		// Wrong prolog: valid UTF-8 that claims a legacy charset.
		{"UTF-8 body, ISO-8859-1 prolog", rss(`<?xml version="1.0" encoding="ISO-8859-1"?>`, "Café €"), "", "Café €"},
		// Wrong prolog: legacy bytes that claim UTF-8.
		{"Latin-1 body, UTF-8 prolog", rss(`<?xml version="1.0" encoding="utf-8"?>`, encode(t, charmap.ISO8859_1, "Jürgen")), "", "Jürgen"},
		{"unknown prolog label", rss(`<?xml version="1.0" encoding="invalid"?>`, "테스트"), "", "테스트"},
		{"UTF-8 with BOM", "\xEF\xBB\xBF" + rss(`<?xml version="1.0" encoding="utf-8"?>`, "Ünïcode"), "", "Ünïcode"},
		{"UTF-16LE with BOM", utf16le(rss(`<?xml version="1.0" encoding="utf-16"?>`, "Ünïcode")), "", "Ünïcode"},
		// C1 controls from a windows-1252 text converted as Latin-1.
		{"demoronized", rss("", "don\u0092t"), "", "don’t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.body), tt.contentType, "")
			if err != nil {
				t.Fatal(err)
			}
			if f.Title != tt.want {
				t.Errorf("title %q, want %q", f.Title, tt.want)
			}
		})
	}
}

// TestMinifluxCharsetCorpus decodes Miniflux's charset test feeds.
func TestMinifluxCharsetCorpus(t *testing.T) {
	tests := []struct{ file, title, firstEntry string }{
		{"miniflux/internal/reader/parser/testdata/encoding_ISO-8859-1.xml", "Golem.de", "Red Dead Redemption 2: Hinweise auf PC-Umsetzung in App von Rockstar Games"},
		{"miniflux/internal/reader/parser/testdata/no_encoding_ISO-8859-1.xml", "Flux RSS du magazine de psychologie Le Cercle Psy", "Perturbateurs endocriniens : quels effets sur le cerveau ?"},
		{"miniflux/internal/reader/parser/testdata/encoding_WINDOWS-1251.xml", "iBash.Org.Ru", "Цитата #17703"},
		{"miniflux/internal/reader/xml/testdata/koi8r.xml", "Пример RSS ленты", "Первая новость"},
		{"miniflux/internal/reader/encoding/testdata/koi8r.xml", "Пример RSS ленты", "Первая новость"},
		{"miniflux/internal/reader/encoding/testdata/iso-8859-1.xml", "Café", ""},
		{"miniflux/internal/reader/encoding/testdata/windows-1252.xml", "Euro €", ""},
		{"miniflux/internal/reader/encoding/testdata/windows-1252-incorrect-prolog.xml", "Euro €", ""},
		{"miniflux/internal/reader/encoding/testdata/utf8-incorrect-prolog.xml", "테스트 피드", "Café"},
		{"miniflux/internal/reader/encoding/testdata/invalid-prolog.xml", "테스트 피드", "Café"},
		{"miniflux/internal/reader/parser/testdata/rdf_UTF8.xml", "heise online News", "OLED-TVs: Vorsichtsmaßnahmen gegen Einbrennen"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Parse(corpusFile(t, tt.file), "", "https://example.com/")
			if err != nil {
				t.Fatal(err)
			}
			if f.Title != tt.title {
				t.Errorf("title %q, want %q", f.Title, tt.title)
			}
			if tt.firstEntry != "" && (len(f.Entries) == 0 || f.Entries[0].Title != tt.firstEntry) {
				t.Errorf("first entry %+v, want title %q", f.Entries[:min(1, len(f.Entries))], tt.firstEntry)
			}
		})
	}
}
