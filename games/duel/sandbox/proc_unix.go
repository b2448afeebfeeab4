//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// killGroup kills a worker's whole process group.
func killGroup(p *os.Process) {
	if p == nil {
		return
	}
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
