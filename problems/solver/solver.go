package solver

import "pcgwb/problems/shape"

// Dir is one move: a unit step, or (Dangerous Dave's "do nothing") no step at all. Its JSON is
// the reference's action dict.
type Dir struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// State is one game state. S is the implementing type itself (best a small value type, so that
// cloning is a copy) and K the key that identifies it in the visited set.
type State[S any, K comparable] interface {
	// Next is the reference's child construction in one step: clone this state, apply the
	// move, and report whether the agents keep the result as a child. This is the games'
	// children filter: Sokoban drops moves that leave the player in place and pushes that leave
	// any crate on a deadlock cell; the other games keep every child.
	Next(d Dir) (child S, keep bool)
	// Key must encode exactly the fields of the reference's getKey (no more: extra fields
	// would split states the reference merges and change which nodes are expanded).
	Key() K
	Heuristic() int
	Win() bool
	// Lose marks states the agents skip when they pop them (Sokoban has none).
	Lose() bool
}

// Config is what differs between the games' copies of the agents.
type Config struct {
	// Directions are tried in this order when a node is expanded; the order fixes the order
	// of the children in the queues and so which of several equal solutions is found.
	Directions []Dir
	// MaxIterations bounds the number of popped nodes (the games' "solver" parameter); <= 0
	// means unlimited.
	MaxIterations int
}

// Result is what an agent returns: the first winning node, or when the budget runs out (or
// the frontier empties) the best node it expanded.
type Result[S any] struct {
	// Won reports whether Final is a winning state.
	Won bool
	// States is the path from the root to the returned node, both included; its last element
	// is the returned state. It is empty only if the agent never expanded a node (every popped
	// node was a losing state — the reference would crash there).
	States []S
	// Actions[i] is the move that led from States[i] to States[i+1].
	Actions []Dir
	// Heuristic is the returned state's heuristic (-1 when States is empty).
	Heuristic int
	// Iterations is the number of popped nodes.
	Iterations int
}

// Final is the returned state (the zero S when the agent found nothing).
func (r Result[S]) Final() S {
	var zero S
	if len(r.States) == 0 {
		return zero
	}
	return r.States[len(r.States)-1]
}

// Depth is the number of moves from the root to the returned state.
func (r Result[S]) Depth() int { return len(r.Actions) }

// Location is one entry of the location list Dangerous Dave and MiniDungeons report: the
// player's position before a move and that move; the last entry is the final position with
// the move {0, 0}.
type Location struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Action Dir `json:"action"`
}

// Locations converts the path into the reference's getLocations list (length depth+1), reading
// the player's position from each state with pos.
func Locations[S any](r Result[S], pos func(S) (x, y int)) []Location {
	out := make([]Location, len(r.States))
	for i, s := range r.States {
		x, y := pos(s)
		out[i] = Location{X: x, Y: y}
		if i < len(r.Actions) {
			out[i].Action = r.Actions[i]
		}
	}
	return out
}

// PlayerLocations is Locations for the games whose states report the player's position
// (Dangerous Dave, MiniDungeons), in the states' padded coordinates.
func PlayerLocations[S interface{ Player() shape.Point }](r Result[S]) []Location {
	return Locations(r, func(s S) (int, int) {
		p := s.Player()
		return p.X, p.Y
	})
}

type node[S any] struct {
	state  S
	parent int32
	action int32 // index into Config.Directions; -1 for the root
	depth  int32
	h      int32
}

// Agents runs the search agents of one game. It keeps its memory between runs, so one value
// should serve the successive agents of one evaluation; it is not safe for concurrent use.
type Agents[S State[S, K], K comparable] struct {
	Config
	nodes   []node[S]
	visited map[K]struct{}
	best    int32
	// frontier is the A* queue, kept between runs so that its storage is reused.
	frontier frontier
}

// NewAgents prepares agents with the given configuration.
func NewAgents[S State[S, K], K comparable](cfg Config) *Agents[S, K] {
	return &Agents[S, K]{Config: cfg, visited: map[K]struct{}{}}
}

func (a *Agents[S, K]) reset(root S) {
	a.nodes = a.nodes[:0]
	clear(a.visited)
	a.best = -1
	a.add(root, -1, -1, 0)
}

func (a *Agents[S, K]) add(s S, parent, action, depth int32) {
	a.nodes = append(a.nodes, node[S]{state: s, parent: parent, action: action, depth: depth, h: int32(s.Heuristic())})
}

// priority is node i's A* ordering key h + balance*depth; the reference compares exactly this
// float sum with "<" (balance is 1, 0.5 or 0, so it is exact).
func (a *Agents[S, K]) priority(i int32, balance float64) float64 {
	n := &a.nodes[i]
	return float64(n.h) + balance*float64(n.depth)
}

func (a *Agents[S, K]) budgetLeft(iterations int) bool {
	return a.MaxIterations <= 0 || iterations < a.MaxIterations
}

// visit is the shared body after the lose and win tests: a node whose key is new may become
// the best node, is marked visited, and is reported for expansion.
func (a *Agents[S, K]) visit(i int32) bool {
	n := &a.nodes[i]
	k := n.state.Key()
	if _, seen := a.visited[k]; seen {
		return false
	}
	if a.best < 0 {
		a.best = i
	} else if b := &a.nodes[a.best]; n.h < b.h || (n.h == b.h && n.depth < b.depth) {
		a.best = i
	}
	a.visited[k] = struct{}{}
	return true
}

// expand appends the kept children of node i to the arena, in direction order, and returns the
// range of their indices.
func (a *Agents[S, K]) expand(i int32) (first, end int32) {
	first = int32(len(a.nodes))
	parent := a.nodes[i].state
	depth := a.nodes[i].depth + 1
	for d, dir := range a.Directions {
		if child, keep := parent.Next(dir); keep {
			a.add(child, i, int32(d), depth)
		}
	}
	return first, int32(len(a.nodes))
}

// BFS is the reference's BFSAgent: a FIFO frontier. Children are queued in creation order, so
// the arena itself is the queue.
func (a *Agents[S, K]) BFS(root S) Result[S] {
	a.reset(root)
	iterations := 0
	for head := int32(0); a.budgetLeft(iterations) && int(head) < len(a.nodes); head++ {
		iterations++
		n := &a.nodes[head]
		if n.state.Lose() {
			continue
		}
		if n.state.Win() {
			return a.result(head, true, iterations)
		}
		if a.visit(head) {
			a.expand(head)
		}
	}
	return a.result(a.best, false, iterations)
}

// AStar is the reference's AStarAgent: a heapq frontier ordered by h + balance*depth.
func (a *Agents[S, K]) AStar(root S, balance float64) Result[S] {
	a.reset(root)
	frontier := &a.frontier
	frontier.reset()
	frontier.push(a.priority(0, balance), 0)
	iterations := 0
	for a.budgetLeft(iterations) && frontier.len() > 0 {
		iterations++
		i := frontier.pop()
		n := &a.nodes[i]
		if n.state.Lose() {
			continue
		}
		if n.state.Win() {
			return a.result(i, true, iterations)
		}
		if a.visit(i) {
			first, end := a.expand(i)
			for c := first; c < end; c++ {
				frontier.push(a.priority(c, balance), c)
			}
		}
	}
	return a.result(a.best, false, iterations)
}

func (a *Agents[S, K]) result(i int32, won bool, iterations int) Result[S] {
	r := Result[S]{Won: won, Heuristic: -1, Iterations: iterations}
	if i < 0 {
		return r
	}
	depth := a.nodes[i].depth
	r.Heuristic = int(a.nodes[i].h)
	r.States = make([]S, depth+1)
	r.Actions = make([]Dir, depth)
	for j := depth; ; j-- {
		n := &a.nodes[i]
		r.States[j] = n.state
		if n.parent < 0 {
			break
		}
		r.Actions[j-1] = a.Directions[n.action]
		i = n.parent
	}
	return r
}

// BFS runs a fresh breadth-first agent.
func BFS[S State[S, K], K comparable](root S, cfg Config) Result[S] {
	return NewAgents[S, K](cfg).BFS(root)
}

// AStar runs a fresh A* agent with the given balance (weight of the depth against the
// heuristic).
func AStar[S State[S, K], K comparable](root S, balance float64, cfg Config) Result[S] {
	return NewAgents[S, K](cfg).AStar(root, balance)
}
