package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/script"
)

// referenceDuel plays a whole game with the core alone: the person (player 0) plays the middle
// legal move, the agent answers by the session's seeding rule. The Games tab's test
// (app.TestDuelTabAgentMovesFollowTheSeed) checks the tab against the same reference.
func referenceDuel(t *testing.T, game, agent string, seed int64) (all, person []int) {
	t.Helper()
	g, err := script.LoadBuiltin(game, script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ag, err := agents.ParseAgent(agent)
	if err != nil {
		t.Fatal(err)
	}
	s, err := duel.NewSession(g, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	for {
		turn, err := s.Turn()
		if err != nil {
			return s.Moves(), person
		}
		a := turn.Legal[len(turn.Legal)/2]
		if turn.Player == 1 {
			if _, a, err = s.AgentMove(context.Background(), ag); err != nil {
				t.Fatal(err)
			}
		} else {
			person = append(person, a)
		}
		if err := s.Play(a); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDuelPlayAgentMovesFollowTheSeed: `workbench duel play --seed S` answers the person's
// moves exactly as the core's session does (and so as the Games tab does, see the app test).
func TestDuelPlayAgentMovesFollowTheSeed(t *testing.T) {
	for _, tc := range []struct {
		game, agent string
		seed        int64
	}{{"tic-tac-toe", "mcts-40", 7}, {"connect-four", "mcts-20", 11}, {"nim", "random", 3}} {
		t.Run(tc.game, func(t *testing.T) {
			all, person := referenceDuel(t, tc.game, tc.agent, tc.seed)
			var in strings.Builder
			for _, a := range person {
				fmt.Fprintln(&in, a)
			}
			code, out, errs := runCLIInput(t, in.String(), "duel", "play", tc.game, "--agent", tc.agent, "--seed", fmt.Sprint(tc.seed))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if want := fmt.Sprintf("moves: %v", all); !strings.Contains(out, want) {
				t.Errorf("want %s; the CLI:\n%s", want, out[max(0, len(out)-300):])
			}
		})
	}
}
