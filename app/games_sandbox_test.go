package app

import (
	"os"

	"pcgwb/games/duel"
)

// The test binary stands in for the workbench as the Games tab's sandbox worker.
func init() {
	if duel.IsSandboxChild() {
		os.Exit(duel.RunSandboxChild(nil))
	}
}
