package feed

import (
	"strings"
	"testing"
)

func TestFirstImageSrc(t *testing.T) {
	tests := []struct{ name, html, want string }{
		{"plain src", `<p>x</p><img src="/a.png">`, "/a.png"},
		{"largest width in srcset", `<img src="s.jpg" srcset="m.jpg 640w, l.jpg 1280w, xs.jpg 320w">`, "l.jpg"},
		{"largest density", `<img src="s.jpg" srcset="a.jpg, b.jpg 2x, c.jpg 1.5x">`, "b.jpg"},
		{"width wins over density", `<img srcset="a.jpg 3x, b.jpg 800w">`, "b.jpg"},
		{"comma inside a srcset URL", `<img srcset="https://cdn.example/i/w_640,h_480/x.jpg 640w, https://cdn.example/i/w_1280,h_960/x.jpg 1280w">`, "https://cdn.example/i/w_1280,h_960/x.jpg"},
		{"bad srcset falls back to src", `<img src="s.jpg" srcset="x.jpg foo">`, "s.jpg"},
		{"tracking pixel skipped", `<img src="pixel.gif" width="1" height="1"><IMG SRC="real.jpg">`, "real.jpg"},
		{"img inside a comment is not an image", `<!-- <img src="no.jpg"> --><img src="yes.jpg">`, "yes.jpg"},
		{"no image", `<p>text about <b>img</b> tags</p>`, ""},
		{"img without src", `<img alt="x">`, ""},
	}
	for _, tt := range tests {
		if got := firstImageSrc(tt.html); got != tt.want {
			t.Errorf("%s: firstImageSrc = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestEntryImagesFromEverySource(t *testing.T) {
	body := `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<item><guid>1</guid>
  <enclosure url="/enc.jpg" type="image/jpeg" length="10"/>
  <enclosure url="/ep.mp3" type="audio/mpeg" length="12345"/>
  <media:content url="https://m.example/content.png" medium="image"><media:title>Caption</media:title></media:content>
  <media:content url="https://m.example/video.mp4" type="video/mp4"/>
  <media:group><media:thumbnail url="https://m.example/thumb.jpg"/></media:group>
  <itunes:image href="https://m.example/cover.jpg"/>
  <description>&lt;img src="body.jpg" srcset="body-big.jpg 2x"&gt;</description>
</item></channel></rss>`
	f, err := Parse([]byte(body), "", "https://site.example/feed/")
	if err != nil {
		t.Fatal(err)
	}
	e := f.Entries[0]
	var urls []string
	for _, img := range e.Images {
		urls = append(urls, img.URL)
	}
	want := "https://site.example/enc.jpg https://m.example/content.png https://m.example/thumb.jpg https://m.example/cover.jpg https://site.example/feed/body-big.jpg"
	if got := strings.Join(urls, " "); got != want {
		t.Errorf("images\n got %s\nwant %s", got, want)
	}
	if e.Images[1].Title != "Caption" {
		t.Errorf("media title %q", e.Images[1].Title)
	}
	if len(e.Enclosures) != 2 || e.Enclosures[1] != (Enclosure{URL: "https://site.example/ep.mp3", Type: "audio/mpeg", Length: 12345}) {
		t.Errorf("enclosures %+v", e.Enclosures)
	}
}

func TestDataURLImages(t *testing.T) {
	small := "data:image/png;base64,iVBORw0KGgo="
	big := "data:image/png;base64," + strings.Repeat("A", 4000)
	text := "data:text/plain,hello"
	body := `{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","content_html":"<img src=\"` + small + `\">","image":"` + big + `","banner_image":"` + text + `"}]}`
	f, err := ParseWith([]byte(body), "", "", Options{MaxDataURLBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	imgs := f.Entries[0].Images
	// The oversized and the non-image data: URLs are dropped.
	if len(imgs) != 1 || imgs[0].URL != small {
		t.Fatalf("images %+v", imgs)
	}
	if imgs[0].DataSHA256 != DataURLID(small) || len(imgs[0].DataSHA256) != 64 {
		t.Errorf("data id %q", imgs[0].DataSHA256)
	}
}

func TestDecodeDataURL(t *testing.T) {
	tests := []struct {
		url, wantData, wantMIME string
		max                     int64
		wantErr                 bool
	}{
		{url: "data:image/gif;base64,R0lGODlh", wantData: "GIF89a", wantMIME: "image/gif", max: 100},
		{url: "data:image/gif;base64,R0lG ODlh\n", wantData: "GIF89a", wantMIME: "image/gif", max: 100},
		{url: "data:image/gif;base64,R0lGODlh", max: 5, wantErr: true},
		{url: "data:image/svg+xml,%3Csvg%2F%3E", wantData: "<svg/>", wantMIME: "image/svg+xml", max: 100},
		{url: "data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E", wantData: "<svg/>", wantMIME: "image/svg+xml", max: 100},
		{url: "data:,plain", wantData: "plain", wantMIME: "text/plain", max: 100},
		{url: "data:image/png;base64,!!!", max: 100, wantErr: true},
		{url: "data:image/png;base64", max: 100, wantErr: true},
		{url: "https://example.com/x.png", max: 100, wantErr: true},
	}
	for _, tt := range tests {
		data, mime, err := DecodeDataURL(tt.url, tt.max)
		if tt.wantErr {
			if err == nil {
				t.Errorf("DecodeDataURL(%q) accepted", tt.url)
			} else if strings.Contains(err.Error(), "R0lG") || strings.Contains(err.Error(), "!!!") {
				t.Errorf("error %q quotes the payload", err)
			}
			continue
		}
		if err != nil || string(data) != tt.wantData || mime != tt.wantMIME {
			t.Errorf("DecodeDataURL(%q) = %q, %q, %v", tt.url, data, mime, err)
		}
	}
}
