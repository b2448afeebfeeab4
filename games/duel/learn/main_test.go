package learn

import (
	"os"
	"testing"

	"pcgwb/games/duel/sandbox"
)

// TestMain makes the test binary a sandbox worker when it is started as one (the training
// tests run self-play in one).
func TestMain(m *testing.M) {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(nil))
	}
	os.Exit(m.Run())
}
