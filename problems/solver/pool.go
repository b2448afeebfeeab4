package solver

import "sync"

// Stage is one agent of a game's fixed agent order: BFS, or A* with a balance.
type Stage struct {
	BFS     bool
	Balance float64
}

// The reference's agent orders: Sokoban tries BFS first; Dangerous Dave and MiniDungeons try
// the A* agents first and BFS last.
var (
	BFSFirst = []Stage{{BFS: true}, {Balance: 1}, {Balance: 0.5}, {Balance: 0}}
	BFSLast  = []Stage{{Balance: 1}, {Balance: 0.5}, {Balance: 0}, {BFS: true}}
)

// Pool keeps agents (their node arenas and visited sets) between evaluations: a hard level
// fills tens of thousands of nodes, and regrowing them dominated the cost.
type Pool[S State[S, K], K comparable] struct{ agents sync.Pool }

// NewPool makes a pool of agents with one configuration.
func NewPool[S State[S, K], K comparable](cfg Config) *Pool[S, K] {
	p := &Pool[S, K]{}
	p.agents.New = func() any { return NewAgents[S, K](cfg) }
	return p
}

// Solve runs the stages in order, each with power iterations, and stops at the first that
// wins. It returns the reference's (heuristic, result) pair: 0 with the winning path, or the
// heuristic of the last stage's best node with that stage's non-winning result.
func (p *Pool[S, K]) Solve(s S, power int, stages []Stage) (int, Result[S]) {
	agents := p.agents.Get().(*Agents[S, K])
	defer p.agents.Put(agents)
	agents.MaxIterations = power
	var r Result[S]
	for _, st := range stages {
		if st.BFS {
			r = agents.BFS(s)
		} else {
			r = agents.AStar(s, st.Balance)
		}
		if r.Won {
			return 0, r
		}
	}
	return r.Heuristic, r
}
