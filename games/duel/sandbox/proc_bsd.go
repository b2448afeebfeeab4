//go:build unix && !linux

package sandbox

import "syscall"

// workerProcAttr puts a worker in a process group of its own (so it can be killed whole).
func workerProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
