package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// runWith runs a subcommand with exactly the given settings.
func runWith(t *testing.T, settings map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, env{getenv: func(k string) string { return settings[k] }, dir: t.TempDir(), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

func TestServeWithoutTokenSaysWhatToSet(t *testing.T) {
	code, _, stderr := runWith(t, map[string]string{"DATABASE_URL": storagetest.SQLiteURL(t)})
	if code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
	for _, want := range []string{"BOT_TOKEN", "BOT_TOKEN_FILE", "ADMIN_ID"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not name %s: %q", want, stderr)
		}
	}
}

func TestBadSettingNamesSettingAndValue(t *testing.T) {
	code, _, stderr := runWith(t, map[string]string{"POLL_INTERVAL": "10 minutes"}, "migrate")
	if code != 2 || !strings.Contains(stderr, `POLL_INTERVAL: invalid duration "10 minutes"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	old := version
	version = "1.2.3"
	defer func() { version = old }()
	code, stdout, _ := runWith(t, nil, "version")
	if code != 0 || strings.TrimSpace(stdout) != "rssbot 1.2.3" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runWith(t, nil, "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) || !strings.Contains(stderr, "usage:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestMigrate(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		for i := 0; i < 2; i++ { // the second run finds nothing to do
			code, stdout, stderr := runWith(t, map[string]string{"DATABASE_URL": databaseURL}, "migrate")
			if code != 0 || !strings.Contains(stdout, "up to date") {
				t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i, code, stdout, stderr)
			}
		}
		store := storagetest.Open(t, databaseURL)
		if _, err := store.ListFeeds(context.Background()); err != nil {
			t.Errorf("schema missing after migrate: %v", err)
		}
	})
}

func TestServeRefusesBrokenTemplate(t *testing.T) {
	dir := t.TempDir()
	settings := map[string]string{
		"BOT_TOKEN": "123:abc", "ADMIN_ID": "1", "DATABASE_URL": storagetest.SQLiteURL(t),
		"POST_TEMPLATE": dir + "/post.gohtml",
	}
	if err := writeFile(dir+"/post.gohtml", "line 1\n{{.Title"); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWith(t, settings)
	if code != 2 || !strings.Contains(stderr, "post template post.gohtml:2:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func writeFile(path, content string) error {
	return os.WriteFile(path, []byte(content), 0o644)
}
