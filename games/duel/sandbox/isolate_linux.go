package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// runtimeSlack is address space left for what the process maps besides the heap: thread
// stacks (8 MiB each for cgo threads), the runtime's own metadata, the binary's libraries.
const runtimeSlack = 256 << 20

// LimitSelf applies the OS limits to the current process: it is the first thing a sandbox
// child does. The address-space limit counts from the current size of the process, since the
// Go runtime reserves a large region at start (about 1.2 GB on linux/amd64) that it never
// touches.
func LimitSelf(l ChildLimits) error {
	l = l.withDefaults()
	base, err := vmSize()
	if err != nil {
		return err
	}
	as := base + l.Memory + runtimeSlack
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
		return fmt.Errorf("address-space limit: %w", err)
	}
	cpu := uint64(l.CPU.Seconds() + 1)
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu + 5}); err != nil {
		return fmt.Errorf("CPU limit: %w", err)
	}
	// no core dumps of a crashing script
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	debug.SetMemoryLimit(int64(l.Memory))
	return nil
}

func vmSize() (uint64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("VmSize not found in /proc/self/status")
}
