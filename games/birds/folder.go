package birds

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
)

// A competition folder is hostile input: it comes from other teams, archives and scripts. The
// pipeline reads every file with a size limit and without following a symbolic link, writes
// only through real folders inside the competition folder (never through a link), and derives
// each stage's outputs from its current inputs, removing the outputs of inputs that changed
// into a failure or vanished.

// ErrNotRealFolder is wrapped by the error for a stage folder that is a symbolic link or a file.
var ErrNotRealFolder = errors.New("not a real folder inside the competition folder")

// realDir checks that path is a directory and not a symbolic link; missing is reported as
// fs.ErrNotExist.
func realDir(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s: %w", path, ErrNotRealFolder)
	}
	return nil
}

// outDir returns dir/parts..., creating the missing folders, after checking that every folder
// on the way below dir is a real folder (a link to elsewhere would make the pipeline write
// outside the competition folder).
func outDir(dir string, parts ...string) (string, error) {
	p := dir
	for _, part := range parts {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, `/\`) {
			return "", fmt.Errorf("%q: %w", part, ErrNotRealFolder)
		}
		p = filepath.Join(p, part)
		err := realDir(p)
		if errors.Is(err, fs.ErrNotExist) {
			if err = os.Mkdir(p, 0o755); err == nil {
				continue
			}
			if errors.Is(err, fs.ErrExist) {
				err = realDir(p)
			}
		}
		if err != nil {
			return "", err
		}
	}
	return p, nil
}

// writeOut writes data to dir/parts.../name atomically, through real folders only. A folder
// on the way or the file itself that is a link (or not a folder, not a regular file) fails the
// write as a trial error: nothing is written, the reason is reported, other trials go on.
func writeOut(dir string, name string, data []byte, parts ...string) error {
	d, err := outDir(dir, parts...)
	if err != nil {
		if errors.Is(err, ErrNotRealFolder) {
			return trialError{err}
		}
		return err
	}
	path := filepath.Join(d, name)
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return trialError{fmt.Errorf("%s: %w (a link or special file in an output's place)", path, ErrNotRealFolder)}
	}
	return atomicfile.Write(path, data, 0o644)
}

// writeOutChanged is writeOut that leaves a regular file already holding data untouched (same
// bytes, same time stamp) and reports whether it wrote.
func writeOutChanged(dir string, name string, data []byte, parts ...string) (bool, error) {
	if d, err := outDir(dir, parts...); err == nil {
		path := filepath.Join(d, name)
		if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() && info.Size() == int64(len(data)) {
			if old, err := readInput(path, int64(len(data))); err == nil && bytes.Equal(old, data) {
				return false, nil
			}
		}
	}
	return true, writeOut(dir, name, data, parts...)
}

// readInput reads one input file of the pipeline: a regular file (not a link, not a device or
// pipe) of at most limit bytes. Any failure is the trial's, not the pipeline's.
func readInput(path string, limit int64) ([]byte, error) {
	data, err := safeio.Read(path, safeio.Options{Limit: limit, NoSymlink: true})
	if err != nil {
		if errors.Is(err, safeio.ErrTooLarge) {
			err = fmt.Errorf("%w: %s is larger than %d bytes", ErrTooLarge, filepath.Base(path), limit)
		}
		return nil, trialError{err}
	}
	return data, nil
}

// pruneStale removes, from the real folder dir/parts..., the files with the given suffix
// (outputs of a stage) that are not in keep (names). Links in a file's place are removed as
// links; a folder that is a link is left alone (nothing is written there either). It returns
// how many files went.
func pruneStale(dir string, keep map[string]bool, suffix string, skip func(name string) bool, parts ...string) (int, error) {
	p := filepath.Join(append([]string{dir}, parts...)...)
	if err := realDir(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotRealFolder) {
			return 0, nil
		}
		return 0, err
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, suffix) || keep[name] || skip != nil && skip(name) {
			continue
		}
		if err := os.Remove(filepath.Join(p, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, err
		}
		n++
	}
	return n, nil
}

// lockFolder takes the competition folder's writer lock for one pipeline command.
func lockFolder(dir string) (*folderlock.Lock, error) {
	if info, err := os.Lstat(dir); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// Not "inside the competition folder": the folder given is itself a link.
		real, _ := filepath.EvalSymlinks(dir)
		return nil, fmt.Errorf("%s is a symbolic link: give the real folder (%s)", dir, real)
	}
	if err := realDir(dir); err != nil {
		return nil, err
	}
	return folderlock.Acquire(dir)
}

// locked runs fn holding the folder's lock.
func locked[T any](dir string, fn func() (T, error)) (T, error) {
	l, err := lockFolder(dir)
	if err != nil {
		var zero T
		return zero, err
	}
	defer l.Release()
	return fn()
}
