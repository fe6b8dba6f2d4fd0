package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/bot/telegramtest"
)

const previewRSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Preview &amp; Co</title><link>https://example.org/</link>
<item><title>First &lt;entry&gt;</title><link>https://example.org/1</link><guid>1</guid>
<description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;&lt;img src="https://example.org/one.jpg"&gt;</description></item>
<item><title>Second</title><link>https://example.org/2</link><guid>2</guid><description>Plain</description></item>
<item><title>Third</title><link>https://example.org/3</link><guid>3</guid></item>
</channel></rss>`

// previewSite serves the feed at /feed.xml and a page that links it at /.
func previewSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/feed.xml":
			w.Header().Set("Content-Type", "application/rss+xml")
			w.Write([]byte(previewRSS))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>site</body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// runPreview runs `rssbot preview args…` with settings and returns the exit
// code, stdout and stderr.
func runPreview(t *testing.T, settings map[string]string, dir string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if dir == "" {
		dir = t.TempDir()
	}
	code := run(context.Background(), append([]string{"preview"}, args...),
		env{getenv: func(k string) string { return settings[k] }, dir: dir, stdout: &stdout, stderr: &stderr})
	return code, stdout.String(), stderr.String()
}

type apiCall struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
}

// The contract (DESIGN.md): --json prints one line per entry, each a JSON
// array of the Bot API calls for that entry.
func TestPreviewJSON(t *testing.T) {
	srv := previewSite(t)
	allow := map[string]string{"ALLOW_PRIVATE_NETWORKS": "true"}
	for _, target := range []string{srv.URL + "/feed.xml", srv.URL + "/"} { // a feed, and a page that links it
		code, out, errOut := runPreview(t, allow, "", "--json", "-n", "2", target)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", target, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines, want 2 (-n 2):\n%s", target, len(lines), out)
		}
		var calls []apiCall
		if err := json.Unmarshal([]byte(lines[0]), &calls); err != nil {
			t.Fatalf("line 1 is not a JSON array of calls: %v\n%s", err, lines[0])
		}
		if len(calls) != 1 || calls[0].Method != "sendMessage" || calls[0].Params["parse_mode"] != "HTML" {
			t.Fatalf("calls = %+v", calls)
		}
		text, _ := calls[0].Params["text"].(string)
		want := "<b>First &lt;entry&gt;</b>\n\nHello <b>world</b>\n\n" + `<a href="https://example.org/1">Preview &amp; Co</a>`
		if text != want {
			t.Errorf("text = %q, want %q", text, want)
		}
		if err := telegramtest.CheckText(text, "HTML"); err != nil {
			t.Errorf("Telegram would refuse the text: %v", err)
		}
		lp, _ := calls[0].Params["link_preview_options"].(map[string]any)
		if lp["url"] != "https://example.org/one.jpg" || lp["show_above_text"] != true {
			t.Errorf("link_preview_options = %v, want the entry's image above the text", lp)
		}
	}
}

func TestPreviewLocalFileReadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "feed.xml"), []byte(previewRSS), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runPreview(t, nil, dir, "feed.xml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"entry 1 of 3: First <entry>", "entry 3 of 3: Third", "sendMessage", "parse_mode: HTML",
		"    <b>Second</b>", `link_preview_options: {"url":"https://example.org/2"}`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// POST_TEMPLATE applies to the preview, which is how templates are tried;
// a template that does not parse is a configuration error (exit 2).
func TestPreviewTemplate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("feed.xml", previewRSS)
	write("good.gohtml", `🔔 {{.Title}} — {{.PostDomain}}`)
	write("bad.gohtml", "line one\n{{.Title")
	code, out, errOut := runPreview(t, map[string]string{"POST_TEMPLATE": "good.gohtml"}, dir, "--json", "-n", "1", "feed.xml")
	if code != 0 || !strings.Contains(out, `"text":"🔔 First &lt;entry&gt; — example.org"`) {
		t.Errorf("exit %d, output %s %s", code, out, errOut)
	}
	code, _, errOut = runPreview(t, map[string]string{"POST_TEMPLATE": "bad.gohtml"}, dir, "feed.xml")
	if code != 2 || !strings.Contains(errOut, "post template bad.gohtml:2:") {
		t.Errorf("broken template: exit %d, stderr %q", code, errOut)
	}
}

func TestPreviewFailures(t *testing.T) {
	srv := previewSite(t)
	tests := []struct {
		name     string
		settings map[string]string
		args     []string
		code     int
		stderr   string
	}{
		{"no target", nil, nil, 2, "give one URL or FILE"},
		{"two targets", nil, []string{"a", "b"}, 2, "give one URL or FILE"},
		{"bad -n", nil, []string{"-n", "x", "a"}, 2, "invalid value"},
		{"private network refused by default", nil, []string{srv.URL + "/feed.xml"}, 1, "private address"},
		{"no feed there", map[string]string{"ALLOW_PRIVATE_NETWORKS": "true"}, []string{srv.URL + "/missing"}, 1, "404"},
	}
	for _, tt := range tests {
		code, _, errOut := runPreview(t, tt.settings, "", tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tt.name, code, errOut, tt.code, tt.stderr)
		}
	}
}
