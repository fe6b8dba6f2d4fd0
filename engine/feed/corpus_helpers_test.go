package feed

import (
	"os"
	"path/filepath"
	"testing"
)

// corporaDir returns the shared corpora folder (RSSBOT_CORPORA overrides
// ../../../shared/corpora) or skips the test when it is absent.
func corporaDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("RSSBOT_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpora")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Skipf("corpora not found at %s", dir)
	}
	return dir
}

// corpusFile reads one corpus file or skips the test when it is absent.
func corpusFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corporaDir(t), rel))
	if err != nil {
		t.Skipf("corpus file: %v", err)
	}
	return b
}
