package sandbox

import (
	"os"
	"syscall"
)

func workerProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) {
	if p != nil {
		_ = p.Kill()
	}
}
