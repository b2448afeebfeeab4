package agents

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"pcgwb/games/duel/core"
	"slices"
)

// Table is a small game enumerated once: every position reachable from the start, keyed as the
// Solver keys them, with its player to move, legal moves, successors and outcome. Its Game
// replays the enumerated game natively (a position is an int32), so a search over it costs
// no script calls: the way to ask questions of a small game that need millions of moves.
type Table struct {
	info  core.Info
	nodes []tableNode
}

type tableNode struct {
	toMove   int
	outcome  core.Outcome
	legal    []int
	children []int32
}

// ErrCycle is Enumerate's answer for a game whose positions can repeat: it has no longest line.
var ErrCycle = errors.New("duel: a position can recur, so the game cannot be tabled")

// Enumerate visits every position reachable from g's start (seed 0) and tables them. It
// refuses, with ErrTooLarge, a game of more than maxStates positions (0: 200,000, the
// Solver's limit) or one whose longest line reaches core.DefaultMaxPlies (the ply cap would
// then make a position's future depend on how it was reached), and with ErrCycle a game whose
// positions can repeat.
func Enumerate(ctx context.Context, g core.Game, maxStates int) (*Table, error) {
	if maxStates <= 0 {
		maxStates = 200_000
	}
	t := &Table{info: g.Info()}
	ids := map[string]int32{}
	var states []core.State
	keyer := &Solver{}
	add := func(s core.State) (int32, error) {
		k := keyer.key(s)
		if id, ok := ids[k]; ok {
			return id, nil
		}
		if len(t.nodes) >= maxStates {
			return 0, ErrTooLarge
		}
		o, err := g.Outcome(s)
		if err != nil {
			return 0, err
		}
		n := tableNode{outcome: o}
		if !o.Done() {
			if n.toMove, err = g.ToMove(s); err != nil {
				return 0, err
			}
			if n.legal, err = g.Legal(s); err != nil {
				return 0, err
			}
			if len(n.legal) == 0 {
				return 0, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
			}
		}
		id := int32(len(t.nodes))
		ids[k] = id
		t.nodes = append(t.nodes, n)
		states = append(states, s)
		return id, nil
	}
	s0, err := g.Initial(0)
	if err != nil {
		return nil, err
	}
	if _, err := add(s0); err != nil {
		return nil, err
	}
	for i := 0; i < len(t.nodes); i++ {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if t.nodes[i].outcome.Done() {
			continue
		}
		legal := t.nodes[i].legal
		children := make([]int32, len(legal))
		for j, a := range legal {
			s, err := g.Apply(states[i], a)
			if err != nil {
				return nil, err
			}
			if children[j], err = add(s); err != nil {
				return nil, err
			}
		}
		t.nodes[i].children = children
	}
	longest, err := t.longestLine()
	if err != nil {
		return nil, err
	}
	if longest >= core.DefaultMaxPlies {
		return nil, ErrTooLarge
	}
	return t, nil
}

// longestLine is the most moves any line from the start takes, or ErrCycle.
func (t *Table) longestLine() (int, error) {
	const (
		unseen = iota
		open
		closed
	)
	mark := make([]uint8, len(t.nodes))
	depth := make([]int, len(t.nodes))
	// iterative depth-first search: a recursion as deep as the game could exhaust the stack
	type frame struct{ id, next int32 }
	stack := []frame{{0, 0}}
	mark[0] = open
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		n := &t.nodes[f.id]
		if int(f.next) < len(n.children) {
			c := n.children[f.next]
			f.next++
			switch mark[c] {
			case open:
				return 0, ErrCycle
			case unseen:
				mark[c] = open
				stack = append(stack, frame{c, 0})
			}
			continue
		}
		for _, c := range n.children {
			depth[f.id] = max(depth[f.id], depth[c]+1)
		}
		mark[f.id] = closed
		stack = stack[:len(stack)-1]
	}
	return depth[0], nil
}

// Positions is the number of positions in the table.
func (t *Table) Positions() int { return len(t.nodes) }

// Game is the tabled game as a core.Game whose states are int32 positions (0 the start). It
// answers the rules only: Observe, Render and ActionLabel fail, so agents that read the
// position (a trained network, a language model) cannot play on it.
func (t *Table) Game() core.Game { return tableGame{t} }

type tableGame struct{ t *Table }

func (g tableGame) node(s core.State) (*tableNode, error) {
	id, ok := s.(int32)
	if !ok || id < 0 || int(id) >= len(g.t.nodes) {
		return nil, fmt.Errorf("duel: %v is not a position of the table", s)
	}
	return &g.t.nodes[id], nil
}

func (g tableGame) Info() core.Info                   { return g.t.info }
func (g tableGame) Initial(int64) (core.State, error) { return int32(0), nil }
func (g tableGame) Observe(core.State, int) ([]float64, error) {
	return nil, errors.New("duel: a tabled game has no observation")
}
func (g tableGame) Render(core.State) (string, error) {
	return "", errors.New("duel: a tabled game has no rendering")
}
func (g tableGame) ActionLabel(core.State, int) (string, error) {
	return "", errors.New("duel: a tabled game has no move labels")
}

func (g tableGame) ToMove(s core.State) (int, error) {
	n, err := g.node(s)
	if err != nil {
		return 0, err
	}
	return n.toMove, nil
}

func (g tableGame) Legal(s core.State) ([]int, error) {
	n, err := g.node(s)
	if err != nil {
		return nil, err
	}
	return n.legal, nil
}

func (g tableGame) Outcome(s core.State) (core.Outcome, error) {
	n, err := g.node(s)
	if err != nil {
		return 0, err
	}
	return n.outcome, nil
}

func (g tableGame) Apply(s core.State, a int) (core.State, error) {
	n, err := g.node(s)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(n.legal, a); i >= 0 {
		return n.children[i], nil
	}
	return nil, &core.Fault{Kind: core.FaultIllegal, Msg: fmt.Sprintf("move %d is not legal", a)}
}

// BestResponse is the most a player could win against a fixed opponent, estimated.
type BestResponse struct {
	Opponent string `json:"opponent"`
	// Seat[p] is the best response's win rate when it is player p (0 moves first); Mean is
	// their average, the rate of a match whose first mover alternates.
	Seat [2]float64 `json:"seat"`
	Mean float64    `json:"mean"`
	// Samples is how many of the opponent's moves were drawn in each position it was asked
	// about; Asked is how many positions that was.
	Samples int `json:"samples"`
	Asked   int `json:"asked"`
}

// BestRespond estimates how often a player that knows the opponent's every move distribution
// could beat it: expectimax over the tabled game, where the best response takes the move of
// highest winning chance and the opponent's moves follow their frequencies in samples draws
// of its Act in each position it reaches (seeded by seed). A draw counts as no win. Over a
// noisy estimate the maximum is biased upwards (the expectation of a maximum is at least the
// maximum of expectations), so the figure leans towards overstating what can be won: a
// target above it is out of any player's reach. The opponent must not read the position
// (the table has no observation): MCTS with random rollouts, Random and the policies can.
func BestRespond(ctx context.Context, t *Table, opp core.Agent, samples int, seed uint64) (BestResponse, error) {
	if samples <= 0 {
		return BestResponse{}, errors.New("duel: best response needs at least one sample a position")
	}
	g := t.Game()
	rng := rand.New(rand.NewPCG(seed, 0x6272)) // "br"
	dist := map[int32][]int{}                  // per position: how often each legal move was drawn
	moveDist := func(id int32) ([]int, error) {
		if d, ok := dist[id]; ok {
			return d, nil
		}
		n := &t.nodes[id]
		d := make([]int, len(n.legal))
		turn := core.Turn{State: id, Legal: n.legal, Player: n.toMove, MaxPlies: core.DefaultMaxPlies}
		for range samples {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			a, err := opp.Act(ctx, g, turn, rng)
			if err != nil {
				return nil, err
			}
			i := slices.Index(n.legal, a)
			if i < 0 {
				return nil, &core.Fault{Kind: core.FaultIllegal, Msg: fmt.Sprintf("%s chose %d, not a legal move", opp.Name(), a)}
			}
			d[i]++
		}
		dist[id] = d
		return d, nil
	}
	br := BestResponse{Opponent: opp.Name(), Samples: samples}
	for seat := range 2 {
		memo := make(map[int32]float64)
		var value func(id int32) (float64, error)
		value = func(id int32) (float64, error) {
			if v, ok := memo[id]; ok {
				return v, nil
			}
			n := &t.nodes[id]
			var v float64
			switch {
			case n.outcome.Done():
				if n.outcome.Winner() == seat {
					v = 1
				}
			case n.toMove == seat:
				for _, c := range n.children {
					cv, err := value(c)
					if err != nil {
						return 0, err
					}
					v = max(v, cv)
				}
			default:
				d, err := moveDist(id)
				if err != nil {
					return 0, err
				}
				for i, count := range d {
					if count == 0 {
						continue
					}
					cv, err := value(n.children[i])
					if err != nil {
						return 0, err
					}
					v += float64(count) * cv
				}
				v /= float64(samples) // counts, not running fractions: exact for a sure move
			}
			memo[id] = v
			return v, nil
		}
		v, err := value(0)
		if err != nil {
			return BestResponse{}, err
		}
		br.Seat[seat] = v
	}
	br.Mean = (br.Seat[0] + br.Seat[1]) / 2
	br.Asked = len(dist)
	return br, nil
}
