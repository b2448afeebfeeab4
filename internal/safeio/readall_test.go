package safeio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// onlyReader hides every method but Read (a pipe: no size known).
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// Reading a stream allocates about twice its size at most (chunks, then the one buffer), and a
// regular file about its size; both give the bytes back and refuse one byte over the limit.
func TestReadAllLimitedMemory(t *testing.T) {
	const n = 24 << 20
	data := bytes.Repeat([]byte("0123456789abcdef"), n/16)
	allocated := func(read func() ([]byte, error)) uint64 {
		t.Helper()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := read()
		runtime.ReadMemStats(&after)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back %d bytes, %v", len(got), err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	if a := allocated(func() ([]byte, error) { return ReadAllLimited(onlyReader{bytes.NewReader(data)}, "s", n) }); a > 2*n+5<<20 {
		// the chunks (at most one 4 MiB chunk partly unused) and the buffer of the exact length
		t.Errorf("a stream of %d bytes allocated %d (%.2f×)", n, a, float64(a)/n)
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if a := allocated(func() ([]byte, error) { return ReadAllLimited(f, "f", n) }); a > n*11/10 {
		t.Errorf("a file of %d bytes allocated %d (%.2f×)", n, a, float64(a)/n)
	}
	if _, err := ReadAllLimited(onlyReader{bytes.NewReader(data)}, "s", n-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("one byte over the limit: %v", err)
	}
	f.Seek(0, io.SeekStart)
	if _, err := ReadAllLimited(f, "f", n-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
	if got, err := ReadAllLimited(onlyReader{bytes.NewReader(nil)}, "s", 10); err != nil || len(got) != 0 {
		t.Errorf("empty: %q %v", got, err)
	}
}
