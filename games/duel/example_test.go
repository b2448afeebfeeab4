package duel_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// Example embeds a game: a rulebook written as a script (here a race to 5, adding 1 or 2 a
// move; a built-in such as script.LoadBuiltin("tic-tac-toe", ...) loads the same way), two
// agents, one game under the harness's rules, and its outcome. The same seed gives the same
// game. Untrusted scripts run in a sandbox worker instead (sandbox.Pool.Open), played the same way.
func Example() {
	src := `
NUM_ACTIONS = 2
OBS_SIZE = 1
def initial_state(seed):
    return {"n": 0, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [0, 1]
def apply(s, a):
    return {"n": s["n"] + 1 + a, "p": 1 - s["p"]}
def outcome(s):
    return 1 - s["p"] if s["n"] >= 5 else None
def observe(s, player):
    return [s["n"]]
def render(s):
    return "n=%d" % s["n"]
def action_label(s, a):
    return "add %d" % (a + 1)
`
	g, err := script.Load("race-to-5", []byte(src), script.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	players := [2]core.Agent{&agents.MCTS{Iterations: 200}, agents.Random{}}
	seed := int64(1)
	rngs := [2]*rand.Rand{duel.SeatRNG(seed, 0, 0), duel.SeatRNG(seed, 0, 1)}
	res, err := duel.Play(context.Background(), g, players, seed, 0, rngs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s vs %s: %s after %d moves %v\n", players[0].Name(), players[1].Name(), g.Info().OutcomeText(res.Outcome), res.Plies, res.Moves)
	// Output: mcts-200 vs random: Player 1 wins after 3 moves [1 1 1]
}
