package learn

import (
	"fmt"
	"strings"
)

// The test games: copies of package duel's test helpers (a race to 5 adding 1 or 2).

// contractBodies are the bodies of a small valid game: a race to 5 adding 1 or 2.
var contractBodies = map[string]string{
	"initial_state": `return {"n": 0, "p": 0}`,
	"to_move":       `return s["p"]`,
	"legal_actions": `return [0, 1]`,
	"apply":         `return {"n": s["n"] + 1 + a, "p": 1 - s["p"]}`,
	"outcome":       `return 1 - s["p"] if s["n"] >= 5 else None`,
	"observe":       `return [s["n"]]`,
	"render":        `return "n=%d" % s["n"]`,
	"action_label":  `return "add %d" % (a + 1)`,
}

// contractOrder is the order in which gameSource writes the contract functions.
var contractOrder = []string{"initial_state", "to_move", "legal_actions", "apply", "outcome", "observe", "render", "action_label"}

var contractParams = map[string]string{
	"initial_state": "seed", "to_move": "s", "legal_actions": "s", "apply": "s, a",
	"outcome": "s", "observe": "s, player", "render": "s", "action_label": "s, a",
}

// gameSource writes the small game with some function bodies replaced ("" drops the function)
// and a prelude of top-level code.
func gameSource(prelude string, bodies map[string]string) string {
	var b strings.Builder
	b.WriteString(prelude)
	if !strings.Contains(prelude, "NUM_ACTIONS") {
		b.WriteString("\nNUM_ACTIONS = 2\nOBS_SIZE = 1\n")
	}
	for _, c := range contractOrder {
		body, ok := bodies[c]
		if !ok {
			body = contractBodies[c]
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
