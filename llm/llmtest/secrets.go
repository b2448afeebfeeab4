package llmtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// CheckNoSecret reads every file below root and fails t for each one that holds any of the
// secrets (an API key must reach the server's Authorization header and nothing on disk). It
// returns how many files it read, so a test can also check that something was written.
func CheckNoSecret(t testing.TB, root string, secrets ...string) int {
	t.Helper()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if s != "" && bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the secret %.8s…", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
