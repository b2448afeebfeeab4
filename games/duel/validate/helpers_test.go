package validate

import (
	"os"
	"pcgwb/games/duel/internal/duetest"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"testing"
)

// TestMain makes the test binary a sandbox worker when it is started as one.
func TestMain(m *testing.M) {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(nil))
	}
	os.Exit(m.Run())
}

func loadBuiltin(t testing.TB, name string) *script.ScriptGame { return duetest.LoadBuiltin(t, name) }
