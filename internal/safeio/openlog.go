package safeio

import (
	"fmt"
	"io/fs"
	"os"
)

// OpenLog opens (creating it if needed, mode perm) a file a program appends to and may cut
// back, such as a run's events.jsonl or usage.jsonl, for reading and writing. A symbolic
// link in its place is refused, not followed (so a planted link cannot make the program
// truncate or append to a file outside the folder), and so is anything but a regular file.
func OpenLog(path string, perm fs.FileMode) (*os.File, error) {
	if lst, err := os.Lstat(path); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: refusing to follow a symbolic link", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow|openFlags, perm)
	if err != nil {
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: refusing to follow a symbolic link", path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = CheckRegular(path, fi, 0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
