package engine

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// MEDIA_MAX_BYTES bounds data: images in feeds on every parse path.
func TestParseHoldsDataImagesToMediaLimit(t *testing.T) {
	img := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 2000)))
	body := fmt.Sprintf(`<rss version="2.0"><channel><title>t</title><item><guid>g</guid>
		<description>&lt;img src="data:image/png;base64,%s"&gt;</description></item></channel></rss>`, img)
	tests := []struct {
		limit  int64
		images int
	}{
		{0, 1},    // the parser's default (20 MiB)
		{4096, 1}, // within the setting
		{1000, 0}, // over the setting: dropped
	}
	for _, tt := range tests {
		e := New(nil, nil, Options{MediaMaxBytes: tt.limit})
		f, err := e.parse([]byte(body), "application/rss+xml", "https://example.org/feed")
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Entries[0].Images); n != tt.images {
			t.Errorf("limit %d: %d images, want %d", tt.limit, n, tt.images)
		}
	}
}
