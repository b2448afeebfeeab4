package llmplay

import (
	"fmt"
	"os"
	"pcgwb/games/duel"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
)

// TestMain makes the test binary a sandbox worker when it is started as one.
func TestMain(m *testing.M) {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(nil))
	}
	os.Exit(m.Run())
}

func loadBuiltin(t testing.TB, name string) *script.ScriptGame {
	t.Helper()
	g, err := script.LoadBuiltin(name, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
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

// moveByLabel finds the legal move with the given label; labels of legal moves are unique.
func moveByLabel(g core.Game, s core.State, legal []int, label string) (int, error) {
	found := -1
	for _, a := range legal {
		l, err := g.ActionLabel(s, a)
		if err != nil {
			return 0, err
		}
		if l == label {
			if found >= 0 {
				return 0, fmt.Errorf("two legal moves are labelled %q", label)
			}
			found = a
		}
	}
	if found < 0 {
		var labels []string
		for _, a := range legal {
			l, _ := g.ActionLabel(s, a)
			labels = append(labels, l)
		}
		return 0, fmt.Errorf("no legal move is labelled %q; legal: %s", label, strings.Join(labels, "; "))
	}
	return found, nil
}
