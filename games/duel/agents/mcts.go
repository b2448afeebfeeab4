package agents

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"pcgwb/games/duel/core"
)

// DefaultUCT is gg-bench's exploration constant (spec §9).
const DefaultUCT = 1.4

// MCTS is UCT Monte-Carlo tree search as gg-bench's opponent uses it (spec §9): UCB1 selection
// with c = 1.4 and unvisited children first, expansion of the last untried legal move,
// rollouts to the end of the game, a win credited to the nodes whose incoming move the winner
// made, a draw as half a win, and the most-visited root move played.
//
// Deviations, all deliberate: a rollout that reaches the ply cap counts as a draw instead of
// crashing the process; a position with one legal move is answered without searching; the
// rollout policy is random (or greedy) rather than a trained network.
type MCTS struct {
	Iterations int     // default 100
	C          float64 // default DefaultUCT
	Rollout    Policy  // default RandomPolicy
}

func (m *MCTS) Name() string {
	n := fmt.Sprintf("mcts-%d", m.iterations())
	if m.Rollout != nil && m.Rollout.Name() != "random" {
		n += "-" + m.Rollout.Name()
	}
	return n
}

func (m *MCTS) iterations() int {
	if m.Iterations <= 0 {
		return 100
	}
	return m.Iterations
}

type mctsNode struct {
	parent   *mctsNode
	state    core.State
	move     int // the move that led here
	mover    int // the player who made it
	toMove   int
	outcome  core.Outcome
	ply      int
	untried  []int
	children []*mctsNode
	visits   float64
	wins     float64
}

// ctxCheckEvery is how many iterations pass between checks of the context.
const ctxCheckEvery = 16

func (m *MCTS) Act(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) (int, error) {
	if len(t.Legal) == 1 {
		return t.Legal[0], nil
	}
	stats, err := m.Search(ctx, g, t, rng)
	if err != nil {
		return 0, err
	}
	return stats.Move, nil
}

// SearchStats is the result of one search: the chosen move, and the root's children.
type SearchStats struct {
	Move     int
	Rollouts int
	Children []ChildStats
}

// ChildStats is one root move's visit count and mean value for the player to move.
type ChildStats struct {
	Move   int
	Visits int
	Value  float64
}

// Search runs the iterations from t and reports the statistics of the root's moves.
func (m *MCTS) Search(ctx context.Context, g core.Game, t core.Turn, rng *rand.Rand) (SearchStats, error) {
	c := m.C
	if c == 0 {
		c = DefaultUCT
	}
	policy := m.Rollout
	if policy == nil {
		policy = RandomPolicy{}
	}
	maxPlies := t.MaxPlies
	if maxPlies <= 0 {
		maxPlies = core.DefaultMaxPlies
	}
	root := &mctsNode{state: t.State, move: -1, mover: 1 - t.Player, toMove: t.Player, ply: t.Ply}
	root.untried = append([]int(nil), t.Legal...)
	var stats SearchStats
	for it := 0; it < m.iterations(); it++ {
		if it%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return stats, err
			}
		}
		// selection
		n := root
		for len(n.untried) == 0 && len(n.children) > 0 {
			n = n.select_(c)
		}
		// expansion
		if len(n.untried) > 0 && !n.outcome.Done() && n.ply < maxPlies {
			a := n.untried[len(n.untried)-1]
			n.untried = n.untried[:len(n.untried)-1]
			child, err := m.expand(g, n, a, maxPlies)
			if err != nil {
				return stats, err
			}
			n.children = append(n.children, child)
			n = child
		}
		// simulation
		winner, err := m.rollout(g, n, policy, maxPlies, rng)
		if err != nil {
			return stats, err
		}
		stats.Rollouts++
		// backpropagation
		for x := n; x != nil; x = x.parent {
			x.visits++
			switch winner {
			case x.mover:
				x.wins++
			case -1:
				x.wins += 0.5
			}
		}
	}
	best := -1.0
	for _, ch := range root.children {
		stats.Children = append(stats.Children, ChildStats{Move: ch.move, Visits: int(ch.visits), Value: ch.wins / max(ch.visits, 1)})
		if ch.visits > best {
			best, stats.Move = ch.visits, ch.move
		}
	}
	if best < 0 {
		stats.Move = t.Legal[len(t.Legal)-1]
	}
	return stats, nil
}

func (n *mctsNode) select_(c float64) *mctsNode {
	logN := math.Log(n.visits)
	var best *mctsNode
	bestScore := math.Inf(-1)
	for _, ch := range n.children {
		if ch.visits == 0 {
			return ch
		}
		score := ch.wins/ch.visits + c*math.Sqrt(logN/ch.visits)
		if score > bestScore {
			best, bestScore = ch, score
		}
	}
	return best
}

func (m *MCTS) expand(g core.Game, n *mctsNode, a, maxPlies int) (*mctsNode, error) {
	s, err := g.Apply(n.state, a)
	if err != nil {
		return nil, err
	}
	child := &mctsNode{parent: n, state: s, move: a, mover: n.toMove, ply: n.ply + 1}
	if child.outcome, err = g.Outcome(s); err != nil {
		return nil, err
	}
	if child.outcome.Done() || child.ply >= maxPlies {
		return child, nil // a leaf: nothing to expand, the rollout scores it at once
	}
	if child.toMove, err = g.ToMove(s); err != nil {
		return nil, err
	}
	if child.untried, err = g.Legal(s); err != nil {
		return nil, err
	}
	if len(child.untried) == 0 {
		return nil, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
	}
	return child, nil
}

// rollout plays from n to the end of the game and returns the winner, or -1 for a draw or a
// game cut off by the ply cap.
func (m *MCTS) rollout(g core.Game, n *mctsNode, policy Policy, maxPlies int, rng *rand.Rand) (int, error) {
	if n.outcome.Done() {
		return n.outcome.Winner(), nil
	}
	// n is the node just expanded, so its untried list is still its full legal list
	s, legal, ply := n.state, n.untried, n.ply
	for ply < maxPlies {
		if len(legal) == 0 {
			return 0, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
		}
		a, err := policy.Pick(g, s, legal, rng)
		if err != nil {
			return 0, err
		}
		if s, err = g.Apply(s, a); err != nil {
			return 0, err
		}
		ply++
		o, err := g.Outcome(s)
		if err != nil {
			return 0, err
		}
		if o.Done() {
			return o.Winner(), nil
		}
		if legal, err = g.Legal(s); err != nil {
			return 0, err
		}
	}
	return -1, nil
}
