// Package atomicfile writes files so that a reader (or a crash) never sees half of one: the data
// goes to a temporary file in the same directory, is synced, is renamed over the target, and the
// directory is synced so the rename itself survives a power cut.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempMarker is the infix of every temporary file this package creates; CleanStale finds
// leftovers of crashed writers by it.
const tempMarker = ".tmp-"

// Write atomically replaces path with data.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc atomically replaces path with what write produces; on any error the target is left
// as it was and the temporary file is removed. A target that is a symbolic link or not a regular
// file is refused: nothing is ever written through a link.
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) (err error) {
	if st, lerr := os.Lstat(path); lerr == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("refusing to write %s: it is a %s, not a regular file", path, describeMode(st.Mode()))
	}
	dir := filepath.Dir(path)
	if st, lerr := os.Lstat(dir); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("refusing to write %s: its folder is a symbolic link", path)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMarker+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return SyncDir(dir)
}

// SyncDir flushes a directory's entries (a rename or a new file in it) to disk. File systems that
// cannot sync a directory (EINVAL) are not an error.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isEINVAL(err) {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	return nil
}

// CleanStale removes temporary files that crashed writers left in dir (names containing the
// package's temporary marker, older than minAge). Call it when a writer takes a folder over, after
// taking its lock, so no live writer's file is removed. It returns the names removed.
func CleanStale(dir string, minAge time.Duration) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, tempMarker) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < minAge {
			continue
		}
		if os.Remove(filepath.Join(dir, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	default:
		return "special file"
	}
}
