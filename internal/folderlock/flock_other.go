//go:build !unix

package folderlock

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("would block")

// Without flock the lock is only as good as the file's existence; such platforms are not
// supported targets of the workbench (Linux is).
func tryLock(*os.File) error { return nil }
func unlock(*os.File) error  { return nil }
