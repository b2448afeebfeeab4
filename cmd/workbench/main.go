// Command workbench is PCG Workbench: with no arguments it opens the desktop workbench; its
// subcommands run the same core headless (see docs/cli.md for the CLI).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"pcgwb/games/duel/sandbox"
)

func main() {
	// A sandbox process (a duel worker running untrusted game scripts under OS limits) is this
	// same binary re-executed: it does nothing else.
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(func() int { return run(os.Args[1:], os.Stdout, os.Stderr) }))
	}
	// Ctrl-C and SIGTERM cancel the running command's context: long work (runs, matches,
	// evaluations) stops promptly and keeps what it finished, and the exit status is the
	// shell's for that signal (130 for Ctrl-C, 143 for SIGTERM).
	ctx, caught := interruptible(context.Background())
	code := runContext(ctx, os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	os.Exit(interruptedStatus(code, caught()))
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM, and a function
// telling which signal cancelled it (nil if none).
func interruptible(parent context.Context) (context.Context, func() os.Signal) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	got := make(chan os.Signal, 1)
	go func() {
		s := <-sigs
		got <- s
		cancel(context.Canceled)
	}()
	return ctx, func() os.Signal {
		select {
		case s := <-got:
			return s
		default:
			return nil
		}
	}
}

// interruptedStatus is 128 + the signal's number when a signal stopped the command (130 for
// Ctrl-C, as shells report a process killed by SIGINT), else the command's own status.
func interruptedStatus(code int, sig os.Signal) int {
	if sig == nil {
		return code
	}
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}
