package agents

import (
	"context"
	"fmt"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"strconv"
	"strings"
)

// Random plays a uniformly random legal move.
type Random struct{}

func (Random) Name() string { return "random" }

func (Random) Act(_ context.Context, _ core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	return t.Legal[rng.IntN(len(t.Legal))], nil
}

// FirstLegal plays the lowest legal action: the scripted player of gg-bench's execution and
// timeout filters (spec §7).
type FirstLegal struct{}

func (FirstLegal) Name() string { return "first" }

func (FirstLegal) Act(_ context.Context, _ core.Game, t core.Turn, _ *rand.Rand) (int, error) {
	return t.Legal[0], nil
}

// Policy picks moves inside MCTS rollouts.
type Policy interface {
	Name() string
	Pick(g core.Game, s core.State, legal []int, rng *rand.Rand) (int, error)
}

// RandomPolicy picks uniformly among legal moves.
type RandomPolicy struct{}

func (RandomPolicy) Name() string { return "random" }

func (RandomPolicy) Pick(_ core.Game, _ core.State, legal []int, rng *rand.Rand) (int, error) {
	return legal[rng.IntN(len(legal))], nil
}

// GreedyPolicy plays a move that wins at once when there is one and a random move otherwise:
// a cheap domain-free policy that makes rollouts less noisy than uniform play, at the cost of
// trying every legal move each ply.
type GreedyPolicy struct{}

func (GreedyPolicy) Name() string { return "greedy" }

func (GreedyPolicy) Pick(g core.Game, s core.State, legal []int, rng *rand.Rand) (int, error) {
	if len(legal) > 1 {
		p, err := g.ToMove(s)
		if err != nil {
			return 0, err
		}
		start := rng.IntN(len(legal))
		for i := range legal {
			a := legal[(start+i)%len(legal)]
			next, err := g.Apply(s, a)
			if err != nil {
				return 0, err
			}
			o, err := g.Outcome(next)
			if err != nil {
				return 0, err
			}
			if o.Winner() == p {
				return a, nil
			}
		}
	}
	return legal[rng.IntN(len(legal))], nil
}

// ParseAgent reads an agent from its name: "random", "first", "mcts" (100 iterations),
// "mcts-N", and "mcts-N-greedy" for greedy rollouts ("mcts:N" works too).
func ParseAgent(spec string) (core.Agent, error) {
	s := strings.ToLower(strings.TrimSpace(spec))
	switch s {
	case "random":
		return Random{}, nil
	case "first", "first-legal":
		return FirstLegal{}, nil
	}
	s = strings.ReplaceAll(s, ":", "-")
	if parts := strings.Split(s, "-"); parts[0] == "mcts" {
		m := &MCTS{Iterations: 100}
		if len(parts) > 1 {
			n, err := strconv.Atoi(parts[1])
			if err != nil || n < 1 {
				return nil, fmt.Errorf("agent %q: iterations must be a positive integer", spec)
			}
			m.Iterations = n
		}
		if len(parts) > 2 {
			switch parts[2] {
			case "random":
			case "greedy":
				m.Rollout = GreedyPolicy{}
			default:
				return nil, fmt.Errorf("agent %q: unknown rollout policy %q (random, greedy)", spec, parts[2])
			}
		}
		if len(parts) > 3 {
			return nil, fmt.Errorf("agent %q: too many parts", spec)
		}
		return m, nil
	}
	return nil, fmt.Errorf("unknown agent %q (random, first, mcts, mcts-N, mcts-N-greedy)", spec)
}

// ParseAgents reads a comma-separated list of agents.
func ParseAgents(list string) ([]core.Agent, error) {
	var out []core.Agent
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		a, err := ParseAgent(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no agents given")
	}
	return out, nil
}

// DefaultLadder are the iteration counts of the strength ladder: each rung searches about
// three times as much as the one below.
var DefaultLadder = []int{10, 30, 100, 300}

// Ladder is random play followed by MCTS agents of increasing iteration counts.
func Ladder(iterations ...int) []core.Agent {
	if len(iterations) == 0 {
		iterations = DefaultLadder
	}
	out := []core.Agent{Random{}}
	for _, n := range iterations {
		out = append(out, &MCTS{Iterations: n})
	}
	return out
}
