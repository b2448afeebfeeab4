package duel

import (
	"math/rand/v2"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
)

// TestScriptAPIConveniences: the parts of the contract that make a rulebook easier to follow.
func TestScriptAPIConveniences(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prelude string
		bodies  map[string]string
		loadErr string // part of the load fault, or ""
		check   func(t *testing.T, g *script.ScriptGame)
	}{
		{name: "players named as the rulebook names them",
			prelude: "PLAYERS = (\"White\", \"Black\")\n",
			bodies: map[string]string{"to_move": `return "White" if s["p"] == 0 else "Black"`,
				"outcome": `return ("Black" if s["p"] == 0 else "White") if s["n"] >= 5 else None`},
			check: func(t *testing.T, g *script.ScriptGame) {
				res := playFirst(t, g)
				if res.Fault != nil || !res.Outcome.Done() || g.Info().PlayerName(0) != "White" {
					t.Errorf("%+v, names %v", res, g.Info().Players)
				}
			}},
		{name: "rulebook numbering is explained",
			bodies: map[string]string{"to_move": `return s["p"] + 1`},
			check: func(t *testing.T, g *script.ScriptGame) {
				s, _ := g.Initial(0)
				s, _ = g.Apply(s, 0) // the second player's turn: to_move says 2
				_, err := g.ToMove(s)
				if err == nil || !strings.Contains(err.Error(), "Player 1 and Player 2") {
					t.Errorf("error %v", err)
				}
				if (core.Info{}).PlayerName(0) != "Player 1" || (core.Info{}).PlayerName(1) != "Player 2" {
					t.Error("default names are not 1/2")
				}
			}},
		{name: "a player who cannot move loses",
			prelude: "STUCK_LOSES = True\n",
			bodies: map[string]string{"legal_actions": `return [0, 1] if s["n"] < 5 else []`,
				"outcome": `return None`},
			check: func(t *testing.T, g *script.ScriptGame) {
				res := playFirst(t, g)
				// first-legal adds 1 each ply: n reaches 5 after 5 plies, player 1 to move and stuck
				if res.Fault != nil || res.Outcome != core.FirstWins || res.Plies != 5 {
					t.Errorf("%+v", res)
				}
			}},
		{name: "observe is optional",
			prelude: "NUM_ACTIONS = 2\n",
			bodies:  map[string]string{"observe": ""},
			check: func(t *testing.T, g *script.ScriptGame) {
				s, _ := g.Initial(0)
				if obs, err := g.Observe(s, 0); err != nil || len(obs) != 0 {
					t.Errorf("observe: %v %v", obs, err)
				}
			}},
		{name: "f-strings", bodies: map[string]string{"render": `return f"n={s['n']}"`}, loadErr: "Starlark has no f-strings"},
		{name: "import", prelude: "import math\nNUM_ACTIONS = 2\nOBS_SIZE = 1\n", loadErr: "Starlark has no import statement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := script.Load("api", []byte(gameSource(tc.prelude, tc.bodies)), script.Limits{})
			if tc.loadErr != "" {
				if f := core.FaultOf(err); f == nil || f.Kind != core.FaultLoad || !strings.Contains(err.Error(), tc.loadErr) {
					t.Fatalf("want a load fault saying %q, got %v", tc.loadErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			tc.check(t, g)
		})
	}
}

func playFirst(t *testing.T, g core.Game) Result {
	t.Helper()
	res, err := Play(t.Context(), g, [2]core.Agent{agents.FirstLegal{}, agents.FirstLegal{}}, 0, 0, [2]*rand.Rand{nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
