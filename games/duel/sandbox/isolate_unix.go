//go:build unix

package sandbox

import (
	"fmt"
	"os/exec"
	"pcgwb/games/duel/core"
	"syscall"
)

// signalFault classifies a child killed by a signal: the CPU limit sends SIGXCPU (then SIGKILL).
func signalFault(ee *exec.ExitError, lim ChildLimits) *core.Fault {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return nil
	}
	switch ws.Signal() {
	case syscall.SIGXCPU, syscall.SIGKILL:
		return &core.Fault{Kind: core.FaultTimeout, Msg: fmt.Sprintf("the sandbox process was killed by %s (CPU limit %s)", ws.Signal(), lim.CPU)}
	}
	return &core.Fault{Kind: core.FaultPanic, Msg: fmt.Sprintf("the sandbox process was killed by %s", ws.Signal())}
}
