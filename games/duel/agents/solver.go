package agents

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// ErrTooLarge is a Solver's answer for a game with more positions than it may visit.
var ErrTooLarge = errors.New("duel: the game has too many positions to solve")

// Solver is a perfect player for small games: it solves the game by exhaustive search
// (negamax over every position, each solved once) and plays a move of the best value for it,
// chosen uniformly at random among the equally good. It is a measuring stick, not an opponent:
// against a reference agent it shows the most any sound player can be sure to score (in a
// drawn game such as tic-tac-toe, how often the reference errs). It keys positions by their
// full value (a script game's state as Starlark prints it), visits at most MaxStates of them
// (default 200,000; then ErrTooLarge) and follows a line at most DefaultMaxPlies deep (a game
// that can go on longer is refused with ErrTooLarge too). Not safe for concurrent use.
type Solver struct {
	MaxStates int
	memo      map[string]float64
	tooLarge  bool
}

// TooLarge reports whether the solver ever gave up (ErrTooLarge): a match it played lost
// games to that fault, not to the game.
func (sv *Solver) TooLarge() bool { return sv.tooLarge }

// Name is "perfect".
func (*Solver) Name() string { return "perfect" }

func (sv *Solver) key(s core.State) string {
	if v, err := script.StateValue(s); err == nil {
		return v.String()
	}
	return fmt.Sprintf("%T %v", s, s)
}

// value is the game's value of s for the player to move (+1 win, 0 draw, -1 loss).
func (sv *Solver) value(g core.Game, s core.State, depth int) (float64, error) {
	k := sv.key(s)
	if v, ok := sv.memo[k]; ok {
		return v, nil
	}
	if depth > core.DefaultMaxPlies {
		sv.tooLarge = true
		return 0, ErrTooLarge
	}
	limit := sv.MaxStates
	if limit <= 0 {
		limit = 200_000
	}
	if len(sv.memo) >= limit {
		sv.tooLarge = true
		return 0, ErrTooLarge
	}
	p, err := g.ToMove(s)
	if err != nil {
		return 0, err
	}
	legal, err := g.Legal(s)
	if err != nil {
		return 0, err
	}
	if len(legal) == 0 {
		return 0, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
	}
	best := -2.0
	for _, a := range legal {
		v, err := sv.after(g, s, p, a, depth)
		if err != nil {
			return 0, err
		}
		best = max(best, v)
		if best == 1 {
			break
		}
	}
	sv.memo[k] = best
	return best, nil
}

// after is the value for p of playing a in s.
func (sv *Solver) after(g core.Game, s core.State, p, a, depth int) (float64, error) {
	n, err := g.Apply(s, a)
	if err != nil {
		return 0, err
	}
	o, err := g.Outcome(n)
	if err != nil {
		return 0, err
	}
	if o.Done() {
		return o.Reward(p), nil
	}
	q, err := g.ToMove(n)
	if err != nil {
		return 0, err
	}
	v, err := sv.value(g, n, depth+1)
	if err != nil {
		return 0, err
	}
	if q != p {
		v = -v
	}
	return v, nil
}

// Act plays a move of the best value, uniformly among the equally good.
func (sv *Solver) Act(_ context.Context, g core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	if sv.memo == nil {
		sv.memo = map[string]float64{}
	}
	var best []int
	bv := -2.0
	for _, a := range t.Legal {
		v, err := sv.after(g, t.State, t.Player, a, t.Ply)
		if err != nil {
			return 0, err
		}
		switch {
		case v > bv:
			best, bv = []int{a}, v
		case v == bv:
			best = append(best, a)
		}
	}
	return best[rng.IntN(len(best))], nil
}
