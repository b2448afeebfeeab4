//go:build unix

package duel

import (
	"fmt"
	"os/exec"
	"syscall"
)

// signalFault classifies a child killed by a signal: the CPU limit sends SIGXCPU (then SIGKILL).
func signalFault(ee *exec.ExitError, lim ChildLimits) *Fault {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return nil
	}
	switch ws.Signal() {
	case syscall.SIGXCPU, syscall.SIGKILL:
		return &Fault{Kind: FaultTimeout, Msg: fmt.Sprintf("the sandbox process was killed by %s (CPU limit %s)", ws.Signal(), lim.CPU)}
	}
	return &Fault{Kind: FaultPanic, Msg: fmt.Sprintf("the sandbox process was killed by %s", ws.Signal())}
}
