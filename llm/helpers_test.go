package llm

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/problems/search"
)

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

type searchEvent = search.Event

func searchOptions(problem string, n int) search.Options {
	return search.Options{Problem: problem, PopSize: n, Seed: 1}
}

// checkNoKey reads every file below root, fails the test for each one holding the test API
// key, and returns how many files it read.
func checkNoKey(t *testing.T, root string) int {
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
		for _, secret := range []string{testKey, "SECRET"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s contains the API key", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
