package duel

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// TestTournamentPoolOrderAndCancel: the worker pool gives the same pairs, with Progress told
// 1, 2, ... n in order, whatever the parallelism; a cancelled context stops the tournament
// at once with the context's error, counts only the games that finished and asks no agent
// for a move after the cancel.
func TestTournamentPoolOrderAndCancel(t *testing.T) {
	p, err := script.BuiltinProgram("take-away", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	newGame := func() (core.Game, error) { return p.New() }
	players := []core.Agent{agents.Random{}, agents.FirstLegal{}, &agents.MCTS{Iterations: 5}}
	run := func(workers int) *Tournament {
		var seen []int
		tour, err := RunTournament(context.Background(), newGame, players, TournamentOptions{GamesPerPair: 4, Workers: workers, Seed: 3,
			Progress: func(done, total int) { seen = append(seen, done) }})
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range seen {
			if d != i+1 {
				t.Fatalf("workers %d: progress %v is not 1..%d in order", workers, seen, len(seen))
			}
		}
		if len(seen) != 12 {
			t.Fatalf("workers %d: progress told %d games, want 12", workers, len(seen))
		}
		return tour
	}
	one, three := run(1), run(3)
	if !reflect.DeepEqual(one.Pairs, three.Pairs) {
		t.Errorf("3 workers give other pairs than 1:\n%+v\n%+v", three.Pairs, one.Pairs)
	}

	// the feeder may hand out one more game as the cancel comes: a pool that counted that
	// game or asked its agents to move would be caught in one of the rounds
	for round := 0; round < 20; round++ {
		ctx, cancel := context.WithCancel(context.Background())
		var late atomic.Int64
		watched := make([]core.Agent, len(players))
		for i, a := range players {
			watched[i] = lateAgent{a, ctx, &late}
		}
		tour, err := RunTournament(ctx, newGame, watched, TournamentOptions{GamesPerPair: 4, Workers: 1, Seed: 3,
			Progress: func(done, total int) {
				if done == 2 {
					cancel()
				}
			}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: a cancelled tournament returned %v, want context.Canceled", round, err)
		}
		games := 0
		for _, pr := range tour.Pairs {
			games += pr.Games
		}
		if games != 2 || late.Load() != 0 {
			t.Fatalf("round %d: after the cancel: %d games counted (want 2), %d moves asked for (want 0)", round, games, late.Load())
		}
		cancel()
	}
}

// lateAgent counts the moves it is asked for once ctx is done.
type lateAgent struct {
	core.Agent
	ctx  context.Context
	late *atomic.Int64
}

func (a lateAgent) Act(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	if a.ctx.Err() != nil {
		a.late.Add(1)
	}
	return a.Agent.Act(ctx, g, t, rng)
}
