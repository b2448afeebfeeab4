package safeio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFileRefusesSpecialAndLarge(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello"), 0o644)
	if b, err := ReadFile(small, 10); err != nil || string(b) != "hello" {
		t.Fatalf("small: %q %v", b, err)
	}
	if _, err := ReadFile(small, 3); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over limit: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := ReadFile(fifo, 10); !errors.Is(err, ErrSpecialFile) {
			t.Fatalf("fifo: %v", err)
		}
	}
	if _, err := ReadFile("/dev/zero", 10); !errors.Is(err, ErrSpecialFile) {
		t.Fatalf("/dev/zero: %v", err)
	}
	if _, err := ReadFile(dir, 10); !errors.Is(err, ErrSpecialFile) {
		t.Fatalf("folder: %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(small, link)
	if _, err := Read(link, Options{NoSymlink: true}); err == nil {
		t.Fatal("symlink followed with NoSymlink")
	}
	if _, err := Read(link, Options{}); err != nil {
		t.Fatalf("symlink refused without NoSymlink: %v", err)
	}
}

func TestLimitedReaderFails(t *testing.T) {
	r := LimitedReader(strings.NewReader(strings.Repeat("x", 100)), "body", 10)
	b, err := io.ReadAll(r)
	if !errors.Is(err, ErrTooLarge) || len(b) != 10 {
		t.Fatalf("got %d bytes, %v", len(b), err)
	}
	r = LimitedReader(strings.NewReader("short"), "body", 10)
	if b, err := io.ReadAll(r); err != nil || string(b) != "short" {
		t.Fatalf("short: %q %v", b, err)
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 1000)
	e := Excerpt([]byte(long))
	if len(e) > ExcerptLen+40 || !strings.Contains(e, "2000 bytes in all") {
		t.Fatalf("excerpt %d bytes: %s", len(e), e)
	}
	if Excerpt([]byte("a\nb")) != `"a\nb"` {
		t.Fatal("control characters not escaped")
	}
	if string(StripBOM([]byte("\xef\xbb\xbf[1]"))) != "[1]" {
		t.Fatal("BOM")
	}
}
