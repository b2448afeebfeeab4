// Package duetest holds what the duel packages' tests share: the small game they are written
// against — a race to 5 in which each player adds 1 or 2 — with GameSource, which writes it
// with some contract functions replaced (the way hostile and faulty scripts are built in
// tests), LoadBuiltin and MoveByLabel. Only tests
// import it; it is internal so that the fixture has one home instead of one copy a package.
package duetest

import (
	"fmt"
	"strings"
	"testing"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// ContractBodies are the bodies of the small valid game's contract functions.
var ContractBodies = map[string]string{
	"initial_state": `return {"n": 0, "p": 0}`,
	"to_move":       `return s["p"]`,
	"legal_actions": `return [0, 1]`,
	"apply":         `return {"n": s["n"] + 1 + a, "p": 1 - s["p"]}`,
	"outcome":       `return 1 - s["p"] if s["n"] >= 5 else None`,
	"observe":       `return [s["n"]]`,
	"render":        `return "n=%d" % s["n"]`,
	"action_label":  `return "add %d" % (a + 1)`,
}

// contractOrder is the order in which GameSource writes the contract functions.
var contractOrder = []string{"initial_state", "to_move", "legal_actions", "apply", "outcome", "observe", "render", "action_label"}

var contractParams = map[string]string{
	"initial_state": "seed", "to_move": "s", "legal_actions": "s", "apply": "s, a",
	"outcome": "s", "observe": "s, player", "render": "s", "action_label": "s, a",
}

// GameSource writes the small game with some function bodies replaced ("" drops the function)
// after a prelude of top-level code (NUM_ACTIONS = 2 and OBS_SIZE = 1 unless the prelude sets
// NUM_ACTIONS).
func GameSource(prelude string, bodies map[string]string) string {
	var b strings.Builder
	b.WriteString(prelude)
	if !strings.Contains(prelude, "NUM_ACTIONS") {
		b.WriteString("\nNUM_ACTIONS = 2\nOBS_SIZE = 1\n")
	}
	for _, c := range contractOrder {
		body, ok := bodies[c]
		if !ok {
			body = ContractBodies[c]
		}
		if body == "" {
			continue
		}
		fmt.Fprintf(&b, "def %s(%s):\n", c, contractParams[c])
		for _, line := range strings.Split(body, "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String()
}

// LoadBuiltin loads a built-in game in this process, closed when the test ends.
func LoadBuiltin(t testing.TB, name string) *script.ScriptGame {
	t.Helper()
	g, err := script.LoadBuiltin(name, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// MoveByLabel finds the legal move of s with the given label; labels of legal moves are unique.
func MoveByLabel(g core.Game, s core.State, legal []int, label string) (int, error) {
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
