package core

import (
	"context"
	"math/rand/v2"
)

// Turn is what an agent sees when asked for a move.
type Turn struct {
	State  State
	Legal  []int // sorted, never empty
	Player int   // the player to move, 0 or 1
	// Ply is the number of moves played so far; MaxPlies is the cap after which the game is
	// truncated, so a search can stop its rollouts there too.
	Ply, MaxPlies int
}

// Agent chooses moves. Agents hold no per-game state and are safe for concurrent use; the
// randomness they use comes from rng, which the harness seeds per game and seat.
type Agent interface {
	Name() string
	Act(ctx context.Context, g Game, t Turn, rng *rand.Rand) (int, error)
}

// DefaultMaxPlies is gg-bench's step cap: 100 moves, both players' counted (spec §6).
const DefaultMaxPlies = 100
