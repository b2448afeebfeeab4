package learn

import (
	"context"
	"fmt"
	"io"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"

	"pcgwb/stats"
)

// StrengthRefs are the reference agents an opponent's strength is measured against: uniform
// random play, and plain MCTS (random rollouts) at gg-bench's 100 iterations and ten times that.
var StrengthRefs = []string{"random", "mcts-100", "mcts-1000"}

// Strength says what an agent is: its record against reference agents, so that two results
// say what they were measured against.
type Strength struct {
	Agent   string        `json:"agent"`
	Against []StrengthRow `json:"against"`
}

// StrengthRow is the agent's record against one reference agent. WinRate is wins over the
// games counted (draws and truncated games are not wins, the reference's faults are; games lost
// to faults of the game script are left out), with its 95% Wilson interval (stats.Wilson).
type StrengthRow struct {
	Opponent string        `json:"opponent"`
	Wins     int           `json:"wins"`
	Losses   int           `json:"losses"`
	Draws    int           `json:"draws"`
	Faults   int           `json:"faults,omitempty"`
	WinRate  duel.Interval `json:"win_rate"`
	// LossRate is the reference's win rate against the agent (its gg-bench score), with its
	// interval: what a uniformly random model scores against the agent, for random.
	LossRate duel.Interval `json:"loss_rate"`
	Seed     int64         `json:"seed"`
}

func (s StrengthRow) String() string {
	return fmt.Sprintf("vs %s: wins %s (W-L-D %d-%d-%d); %s wins %.1f%% [%.1f, %.1f]", s.Opponent, s.WinRate, s.Wins, s.Losses, s.Draws,
		s.Opponent, 100*s.LossRate.Rate, 100*s.LossRate.Lo, 100*s.LossRate.Hi)
}

// RowOf turns a pair's record (A is the measured agent) into a strength row.
func RowOf(opponent string, pr duel.PairResult, seed int64) StrengthRow {
	row := StrengthRow{Opponent: opponent, Wins: pr.AWins + pr.BFaults, Losses: pr.BWins + pr.AFaults,
		Draws: pr.Draws + pr.Truncated, Faults: pr.AFaults, Seed: seed}
	n := pr.Games - pr.EnvFaults
	for _, c := range []struct {
		k   int
		dst *duel.Interval
	}{{row.Wins, &row.WinRate}, {row.Losses, &row.LossRate}} {
		iv := stats.Wilson(c.k, n)
		*c.dst = duel.Interval{Rate: iv.Mean, Lo: iv.Lo, Hi: iv.Hi, N: n}
		if n == 0 {
			*c.dst = duel.Interval{Lo: 0, Hi: 1}
		}
	}
	return row
}

// MeasureStrength plays agent against each reference (names ParseAgent reads, default
// StrengthRefs), games games each with the first mover alternating, on g.
func MeasureStrength(ctx context.Context, g core.Game, agent core.Agent, refs []string, games int, seed int64, progress func(ref string, k int)) (*Strength, error) {
	if len(refs) == 0 {
		refs = StrengthRefs
	}
	st := &Strength{Agent: agent.Name()}
	for _, name := range refs {
		ref, err := agents.ParseAgent(name)
		if err != nil {
			return nil, err
		}
		pr, err := duel.PlayMatch(ctx, g, [2]core.Agent{agent, ref}, games, seed, func(k int, _ [2]core.Agent, _ duel.Result, _ duel.PairResult) {
			if progress != nil {
				progress(name, k)
			}
		})
		if err != nil {
			return st, err
		}
		st.Against = append(st.Against, RowOf(ref.Name(), pr, seed))
	}
	return st, nil
}

// WriteText prints the strength, one reference a line.
func (s *Strength) WriteText(w io.Writer) {
	for _, r := range s.Against {
		fmt.Fprintf(w, "  %s %s\n", s.Agent, r)
	}
}
