package sandbox

import "syscall"

// workerProcAttr puts a worker in a process group of its own (so it can be killed whole) and
// has the kernel kill it when its parent dies.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
