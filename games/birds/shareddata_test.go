package birds

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedData locates ../shared/science-birds next to the module root. The files there are
// reference data that must not be copied into the project, so tests read them in place: a
// missing folder skips the test locally and fails it in CI.
func sharedData(t testing.TB, rel ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared", "science-birds"}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("reference data missing: %v", err)
		}
		t.Skipf("reference data not available: %v", err)
	}
	return p
}
