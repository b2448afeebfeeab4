package llmplay

import (
	"os"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
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

// playLabels plays moves given by their labels from the start of a game.
func playLabels(t testing.TB, g core.Game, labels ...string) *duel.Session {
	t.Helper()
	sess, err := duel.NewSession(g, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range labels {
		tu, err := sess.Turn()
		if err != nil {
			t.Fatal(err)
		}
		a, err := moveByLabel(g, tu.State, tu.Legal, l)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	return sess
}

func loadBuiltin(t testing.TB, name string) *script.ScriptGame { return duetest.LoadBuiltin(t, name) }

func moveByLabel(g core.Game, s core.State, legal []int, label string) (int, error) {
	return duetest.MoveByLabel(g, s, legal, label)
}
