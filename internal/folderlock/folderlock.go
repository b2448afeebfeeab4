// Package folderlock gives one writer at a time to a folder (a run, a sweep, an LLM output
// folder). The lock is an advisory flock(2) on DIR/.lock, so the kernel releases it when the
// holder dies, even by kill -9: a stale lock never needs cleaning by hand. The holder's pid is
// written into the file so a refused writer can name it.
package folderlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FileName is the lock file's name inside the locked folder.
const FileName = ".lock"

// ErrHeld is wrapped by the error of Acquire when another process holds the folder.
var ErrHeld = errors.New("folder is in use by another process")

// HeldError says who holds a folder.
type HeldError struct {
	Dir string
	PID int // 0 when the holder's pid could not be read
}

func (e *HeldError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s is in use by another workbench process (pid %d); wait for it to finish or stop it", e.Dir, e.PID)
	}
	return fmt.Sprintf("%s is in use by another workbench process; wait for it to finish or stop it", e.Dir)
}

func (e *HeldError) Unwrap() error { return ErrHeld }

// Lock is a held folder lock.
type Lock struct {
	f   *os.File
	dir string
}

// Acquire takes the exclusive lock of dir (which must exist) without waiting. When another
// process holds it, the error is a *HeldError wrapping ErrHeld.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, FileName)
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: lock file is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, &HeldError{Dir: dir, PID: readPID(path)}
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f, dir: dir}, nil
}

// Dir is the locked folder.
func (l *Lock) Dir() string { return l.dir }

// Release gives the folder back. It is safe to call more than once and on a nil lock.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// Holder returns the pid written in dir's lock file if the folder is locked now, or 0.
func Holder(dir string) int {
	l, err := Acquire(dir)
	if err == nil {
		l.Release()
		return 0
	}
	var held *HeldError
	if errors.As(err, &held) {
		return held.PID
	}
	return 0
}

func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 32 {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
