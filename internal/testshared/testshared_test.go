package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	base := t.TempDir()
	module := filepath.Join(base, "main")
	pkg := filepath.Join(module, "some", "pkg")
	want := filepath.Join(base, "shared", "data", "set")
	for _, d := range []string{pkg, want} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkg)
	t.Setenv("CI", "")
	if got := Dir(t, "data", "set"); got != want {
		t.Fatalf("Dir = %q, want %q", got, want)
	}
	var sub *testing.T
	t.Run("missing", func(t *testing.T) {
		sub = t
		Dir(t, "data", "absent")
		t.Fatal("Dir returned for a missing folder")
	})
	if !sub.Skipped() {
		t.Fatal("a missing folder does not skip the test outside CI")
	}
}
