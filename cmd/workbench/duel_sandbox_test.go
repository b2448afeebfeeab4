package main

import (
	"os"

	"pcgwb/games/duel/sandbox"
)

// The test binary stands in for the workbench as the duel sandbox's worker (main does this
// first thing in the real binary; TestMain never calls main in a worker).
func init() {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(func() int { return run(os.Args[1:], os.Stdout, os.Stderr) }))
	}
}
