package duel

import (
	"context"
	"math/rand/v2"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"slices"
	"testing"
)

// TestRemoteMatchesInProcess: a sandboxed game between agents is move for move the game played
// in this process (one seeding rule: the move seed, wherever the agent searches).
func TestRemoteMatchesInProcess(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		game   string
		agents string
	}{
		{"tic-tac-toe", "mcts-30,random"},
		{"nim", "random,mcts-20-greedy"},
		{"connect-four", "first,mcts-10"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			if !slices.Contains(script.Builtins(), tc.game) {
				t.Skipf("no built-in %s", tc.game)
			}
			agents, err := agents.ParseAgents(tc.agents)
			if err != nil {
				t.Fatal(err)
			}
			local, err := script.LoadBuiltin(tc.game, script.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			remote, err := sandbox.OpenSandboxed(ctx, tc.game, sandbox.SandboxOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer remote.Close()
			for k := 0; k < 2; k++ {
				seats := [2]core.Agent{agents[k%2], agents[1-k%2]}
				want, err := Play(ctx, local, seats, int64(k), 0, [2]*rand.Rand{SeatRNG(3, k, 0), SeatRNG(3, k, 1)})
				if err != nil {
					t.Fatal(err)
				}
				got, err := Play(ctx, remote, seats, int64(k), 0, [2]*rand.Rand{SeatRNG(3, k, 0), SeatRNG(3, k, 1)})
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Moves) == 0 {
					t.Errorf("game %d: no moves (fault %v)", k, got.Fault)
				}
				if !slices.Equal(got.Moves, want.Moves) || got.Outcome != want.Outcome || got.Fault != nil {
					t.Errorf("game %d: sandboxed %v %s (fault %v), in process %v %s", k, got.Moves, got.Outcome, got.Fault, want.Moves, want.Outcome)
				}
			}
		})
	}
}
