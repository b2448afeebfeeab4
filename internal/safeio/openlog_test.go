//go:build unix

package safeio

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenLogRefusesLinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	os.WriteFile(outside, []byte("keep me\n"), 0o644)
	link := filepath.Join(dir, "events.jsonl")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenLog(link, 0o644); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		if f != nil {
			f.Close()
		}
		t.Fatalf("a link was opened: %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep me\n" {
		t.Fatalf("the link's target changed: %q", data)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenLog(fifo, 0o644); err == nil {
		f.Close()
		t.Fatal("a FIFO was opened as a log")
	}
	f, err := OpenLog(filepath.Join(dir, "new.jsonl"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("a\n")
	f.Close()
	if data, _ := os.ReadFile(filepath.Join(dir, "new.jsonl")); string(data) != "a\n" {
		t.Fatalf("%q", data)
	}
}
