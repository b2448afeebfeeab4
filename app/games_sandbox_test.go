package app

import (
	"os"

	"pcgwb/games/duel/sandbox"
)

// The test binary stands in for the workbench as the Games tab's sandbox worker.
func init() {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(nil))
	}
}
