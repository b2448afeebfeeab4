//go:build linux

package slurm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
)

// lockedHere reports whether a live process on this machine holds the run folder's lock. It
// reads /proc/locks rather than trying the lock, which could make a starting run fail.
func lockedHere(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, folderlock.FileName))
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	data, err := safeio.ReadFile("/proc/locks", 16<<20)
	if err != nil {
		return false
	}
	dev := uint64(st.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		// "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF" (blocked waiters have "->").
		if len(f) >= 6 && f[1] == "FLOCK" && f[5] == want {
			return true
		}
	}
	return false
}
