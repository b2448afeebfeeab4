package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteRefusesSymlinkAndCleansStale(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("keep"), 0o644)
	link := filepath.Join(dir, "result")
	os.Symlink(outside, link)
	if err := Write(link, []byte("x"), 0o644); err == nil {
		t.Fatal("wrote through a symlink")
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatal("target behind the link changed")
	}
	p := filepath.Join(dir, "a.json")
	if err := Write(p, []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ".a.json"+tempMarker+"123")
	os.WriteFile(stale, []byte("half"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	removed, err := CleanStale(dir, time.Minute)
	if err != nil || len(removed) != 1 {
		t.Fatalf("removed %v, %v", removed, err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal("target removed")
	}
}
