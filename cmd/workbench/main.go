// Command workbench is PCG Workbench: with no arguments it opens the desktop workbench; its
// subcommands run the same core headless (see README.md for the CLI).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"pcgwb/games/duel"
)

func main() {
	// A sandbox process (a duel worker running untrusted game scripts under OS limits) is this
	// same binary re-executed: it does nothing else.
	if duel.IsSandboxChild() {
		os.Exit(duel.RunSandboxChild(func() int { return run(os.Args[1:], os.Stdout, os.Stderr) }))
	}
	// Ctrl-C and SIGTERM cancel the running command's context: long work (runs, matches,
	// evaluations) stops promptly and keeps what it finished.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(runContext(ctx, os.Args[1:], IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
