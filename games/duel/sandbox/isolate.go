package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strings"
	"time"
)

// ChildEnv is set in the environment of a sandbox child process: a re-executed copy of the
// same binary that runs one untrusted job under OS limits and reports on stdout. The in-process
// guards stop the common memory bombs; the child is the hard boundary for everything else (a
// Go "fatal error: out of memory" cannot be recovered in-process).
const ChildEnv = "PCGWB_DUEL_CHILD"

// ChildLimits are the OS limits of a sandbox child.
type ChildLimits struct {
	// Memory is the address space the child may use beyond what the Go runtime reserved at
	// start (default 1 GiB). The child's Go heap limit is set to the same value, so the
	// collector works harder before the OS refuses memory.
	Memory uint64
	// CPU is the child's CPU-time limit (default 10 minutes).
	CPU time.Duration
	// Wall is the parent's wall-time limit on the child (default 30 minutes).
	Wall time.Duration
}

func (l ChildLimits) withDefaults() ChildLimits {
	if l.Memory == 0 {
		l.Memory = 1 << 30
	}
	if l.CPU == 0 {
		l.CPU = 10 * time.Minute
	}
	if l.Wall == 0 {
		l.Wall = 30 * time.Minute
	}
	return l
}

// ChildOutput is what a finished child printed.
type ChildOutput struct {
	Stdout, Stderr []byte
}

// RunChild runs cmd (the same binary, with ChildEnv set by the caller's choice of arguments)
// under the wall-time limit and turns a crash into a *Fault: memory when the runtime ran out
// of memory, timeout when the CPU or wall limit killed it, panic otherwise. A child that exits
// with status 0 or 1 (a normal verdict) is not a crash: its output is returned with a nil
// error for 0 and an *exec.ExitError for 1.
func RunChild(ctx context.Context, cmd *exec.Cmd, lim ChildLimits) (ChildOutput, error) {
	lim = lim.withDefaults()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = SandboxEnv(cmd.Env) // a model-written script never sees the API key
	ctx, cancel := context.WithTimeout(ctx, lim.Wall)
	defer cancel()
	if err := cmd.Start(); err != nil {
		return ChildOutput{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		res := ChildOutput{out.Bytes(), errb.Bytes()}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return res, &core.Fault{Kind: core.FaultTimeout, Msg: fmt.Sprintf("the sandbox process ran longer than %s and was killed", lim.Wall)}
		}
		return res, ctx.Err()
	}
	res := ChildOutput{out.Bytes(), errb.Bytes()}
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) {
		return res, err
	}
	if ee.ExitCode() == 1 || ee.ExitCode() == 2 && !crashed(res.Stderr) {
		return res, err
	}
	return res, classifyCrash(ee, res.Stderr, lim)
}

func crashed(stderr []byte) bool {
	return bytes.Contains(stderr, []byte("fatal error:")) || bytes.Contains(stderr, []byte("panic:")) ||
		bytes.Contains(stderr, []byte("runtime: out of memory"))
}

func classifyCrash(ee *exec.ExitError, stderr []byte, lim ChildLimits) *core.Fault {
	if f := signalFault(ee, lim); f != nil {
		if said := workerSaid(stderr); said != "" {
			f.Msg += "; " + said
		}
		return f
	}
	return crashFault(ee.ExitCode(), stderr, lim)
}

// crashFault names a sandbox process's death from its exit status and what it wrote to
// stderr: out of memory and stack overflow keep their cause whatever else the dump holds,
// and every message ends with the worker's first and last lines (escaped, clipped).
func crashFault(code int, stderr []byte, lim ChildLimits) *core.Fault {
	s := string(stderr)
	said := workerSaid(stderr)
	if said != "" {
		said = "; " + said
	}
	switch {
	case strings.Contains(s, "stack overflow") || strings.Contains(s, "goroutine stack exceeds"):
		return &core.Fault{Kind: core.FaultMemory, Msg: "the sandbox process overflowed its stack (deep recursion or nesting in the script)" + said}
	case strings.Contains(s, "out of memory") || strings.Contains(s, "cannot allocate memory") ||
		strings.Contains(s, "failed to allocate"): // the last is the race detector's runtime
		return &core.Fault{Kind: core.FaultMemory, Msg: fmt.Sprintf("the sandbox process ran out of its %d MiB of memory", lim.Memory>>20) + said}
	}
	if code < 0 {
		return &core.Fault{Kind: core.FaultPanic, Msg: "the sandbox process crashed" + said}
	}
	return &core.Fault{Kind: core.FaultPanic, Msg: fmt.Sprintf("the sandbox process crashed (exit status %d)", code) + said}
}

// workerSaid is the first and the last non-empty line a crashed worker wrote, for a fault's
// message: the first line of a Go crash names it ("fatal error: stack overflow"), the last
// shows where the dump ended.
func workerSaid(stderr []byte) string {
	var lines []string
	for _, l := range strings.Split(string(stderr), "\n") {
		if l = strings.TrimSpace(l); l != "" && l != elided {
			lines = append(lines, l)
		}
	}
	switch len(lines) {
	case 0:
		return ""
	case 1:
		return "the worker said: " + core.PrintableLine(script.Clip(lines[0], 200))
	}
	first := lines[0]
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") || strings.HasPrefix(l, "runtime:") {
			first = l
			break
		}
	}
	return fmt.Sprintf("the worker's first line: %s; its last: %s", core.PrintableLine(script.Clip(first, 200)), core.PrintableLine(script.Clip(lines[len(lines)-1], 200)))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	// the first line of a Go crash says what happened; the goroutine dump after it does not
	for i, l := range lines {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			return strings.Join(lines[i:min(len(lines), i+n)], " | ")
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
