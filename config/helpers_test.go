package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// envOf returns a getenv over a fixed map.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// loadMap loads with the given environment and an empty directory.
func loadMap(t *testing.T, m map[string]string) (Config, error) {
	t.Helper()
	return Load(envOf(m), t.TempDir(), "1.2.3")
}

// problems splits a joined error into its messages.
func problems(err error) []string {
	if err == nil {
		return nil
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		return []string{err.Error()}
	}
	var out []string
	for _, e := range joined.Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

// writeFile writes a file in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
