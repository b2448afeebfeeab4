//go:build unix

package script

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used so far (user + system, all threads). On a busy
// machine it measures the work of a benchmark better than the wall clock.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
