package feed

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	longComment := "<!--" + strings.Repeat("licence text ", 1000) + "-->"
	tests := []struct {
		name, body, want string
	}{
		{"rss", `<?xml version="1.0"?><rss version="2.0"><channel/></rss>`, FormatRSS},
		{"atom", `<feed xmlns="http://www.w3.org/2005/Atom"></feed>`, FormatAtom},
		{"rdf with prefix", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></rdf:RDF>`, FormatRDF},
		// gofeed's detector reads only 4 KB; the root here starts after 13 KB.
		{"root after a long comment", "<?xml version=\"1.0\"?>\n" + longComment + "<rss></rss>", FormatRSS},
		{"BOM, whitespace, PI and doctype", "\xEF\xBB\xBF \n<?xml version=\"1.0\"?><?xml-stylesheet href=\"a.xsl\"?><!DOCTYPE rss [<!ENTITY x \"a>b\">]><rss/>", FormatRSS},
		{"json feed 1.1", `{"version":"https://jsonfeed.org/version/1.1","title":"x","items":[]}`, FormatJSON},
		{"json feed with version last", `{"items":[{"id":"1"}],"version":"https://jsonfeed.org/version/1"}`, FormatJSON},
		{"json but not a feed", `{"version":"2","items":[]}`, ""},
		{"bare json feed version with items", `{"version":"1.1","items":[]}`, FormatJSON},
		{"bare version without items", `{"version":"1.0","data":[]}`, ""},
		{"calendar", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", FormatICal},
		{"calendar lower case", "begin:vcalendar\nend:vcalendar\n", FormatICal},
		{"html page", "<!DOCTYPE html><html><head><title>x</title></head></html>", ""},
		{"empty", "  \n", ""},
		{"unterminated comment", "<!-- never ends <rss>", ""},
		{"plain text", "hello", ""},
		{"utf-16le with BOM", "\xFF\xFE<\x00r\x00s\x00s\x00>\x00", FormatRSS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect([]byte(tt.body)); got != tt.want {
				t.Errorf("Detect = %q, want %q", got, tt.want)
			}
		})
	}
}
