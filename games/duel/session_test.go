package duel

import (
	"context"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"testing"
)

// TestSessionAgentMovesFollowTheSeed: the agent's moves in a session depend only on the
// session's seed, the moves so far and the agent, whether the game runs in this process or
// in a sandbox worker, and whether the agent thinks on another instance (a replay, On).
func TestSessionAgentMovesFollowTheSeed(t *testing.T) {
	ctx := context.Background()
	local, err := script.LoadBuiltin("connect-four", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	remote, err := sandbox.OpenSandboxed(ctx, "connect-four", sandbox.SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	play := func(g core.Game, think core.Game) []int {
		s, err := NewSession(g, 11, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for s.Ply() < 12 {
			if s.Ply()%2 == 0 { // the person: the middle legal move
				turn, err := s.Turn()
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Play(turn.Legal[len(turn.Legal)/2]); err != nil {
					t.Fatal(err)
				}
				continue
			}
			on, err := s.On(think)
			if err != nil {
				t.Fatal(err)
			}
			_, a, err := on.AgentMove(ctx, &agents.MCTS{Iterations: 20})
			on.Close()
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Play(a); err != nil {
				t.Fatal(err)
			}
		}
		return s.Moves()
	}
	want := play(local, local)
	for _, tc := range []struct {
		name        string
		game, think core.Game
	}{{"sandboxed", remote, remote}, {"board here, agent in the sandbox", local, remote}} {
		if got := play(tc.game, tc.think); !equalInts(got, want) {
			t.Errorf("%s: %v, in process %v", tc.name, got, want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
