package engine

import (
	"sort"

	"pcgwb/problems/shape"
)

// Scripted is the benchmark's first agent (the framework's heuristic agent): always run right,
// and hold speed and jump whenever Mario may jump or is in the air.
//
// The reference agent returns the same mutable action list every step, so every step it
// records ends up equal to its last action; the problem reproduces that in its info, while the
// steps recorded here are the real ones (for replay).
type Scripted struct{}

// Act implements Agent.
func (Scripted) Act(w *World) Actions {
	if w.mario.mayJump || !w.mario.onGround {
		return Right | Speed | Jump
	}
	return Right
}

// AStar is the framework's deterministic A* agent. When its plan runs out it searches from the
// current world for at most Iterations node expansions, each node holding its action for
// Repetitions frames, and then plays the best plan one frame at a time.
type AStar struct {
	Iterations  float64
	Repetitions int
	plan        []Actions
}

// NewAStar makes the A* agent with the benchmark's settings (iterations = the problem's
// solver parameter, 8 repetitions).
func NewAStar(iterations float64, repetitions int) *AStar {
	return &AStar{Iterations: iterations, Repetitions: repetitions}
}

// Act implements Agent.
func (a *AStar) Act(w *World) Actions {
	if len(a.plan) == 0 {
		// The framework hands the agent a clone of the world, and the search clones it again
		// for its root; each clone rounds Mario's position as the reference does.
		a.plan = a.search(w.Clone())
	}
	if len(a.plan) == 0 {
		// Only possible with no search budget; the reference would fail on an empty list.
		return 0
	}
	act := a.plan[0]
	a.plan = a.plan[1:]
	return act
}

type node struct {
	world  *World
	action Actions
	parent *node
	depth  int
	score  float64
}

type visitKey struct{ x, y, t int }

// childActions are the A* actions in the framework's order; the jumping ones are only tried
// when Mario can still go up.
var childActions = [...]struct {
	a     Actions
	jumps bool
}{
	{Jump, true},
	{Jump | Speed, true},
	{Right | Speed, false},
	{Right | Jump | Speed, true},
	{Right, false},
	{Right | Jump, true},
	{Left, false},
	{Left | Jump, true},
	{Left | Speed, false},
	{Left | Jump | Speed, true},
}

func (a *AStar) search(model *World) []Actions {
	root := &node{world: model.Clone()}
	rootX := root.world.mario.x
	lose := float64(root.world.level.HeightPx() - 20)
	reps := a.Repetitions

	children := func(n *node, out []*node) []*node {
		if n.world.status != Running {
			return out
		}
		canJump := n.world.mario.mayJump || n.world.mario.jumpTime > 0
		for _, c := range childActions {
			if c.jumps && !canJump {
				continue
			}
			cw := n.world.Clone()
			for i := 0; i < reps; i++ {
				cw.Update(c.a)
			}
			child := &node{world: cw, action: c.a, parent: n, depth: n.depth + 1}
			// The heuristic: progress (with ten frames of speed) from the root, minus a
			// million per damage taken since the parent (Mario cannot shrink here, so only
			// death counts: 5 for falling into a hole, 2 otherwise), minus 0.9 per frame.
			m := &cw.mario
			h := m.x + float64(10*m.xa) - rootX
			damage := 0
			if cw.status == Lose {
				if m.y > lose {
					damage += 5
				} else {
					damage += 2
				}
			}
			h -= float64(damage * 1000000)
			child.score = h - float64(0.9*float64(child.depth*reps))
			out = append(out, child)
		}
		return out
	}

	queue := children(root, nil)
	sort.SliceStable(queue, func(i, j int) bool { return queue[i].score > queue[j].score })
	best := root
	bestScore := -10000000000000.0
	var visited []visitKey
	budget := a.Iterations
	var fresh []*node
	for len(queue) > 0 && budget > 0 {
		cur := queue[0]
		queue = queue[1:]
		key := visitKey{int(cur.world.mario.x), int(cur.world.mario.y), cur.depth * reps}
		if near(visited, key) {
			continue
		}
		visited = append(visited, key)
		if cur.world.status == Win {
			return plan(cur, reps)
		}
		if cur.score > bestScore && (cur.world.mario.onGround || best == root) {
			bestScore = cur.score
			best = cur
		}
		fresh = children(cur, fresh[:0])
		queue = mergeStable(queue, fresh)
		budget--
	}
	return plan(best, reps)
}

// mergeStable is the reference's stable sort (by score, highest first) of the sorted queue
// followed by the new children: the children are sorted stably among themselves and merged in,
// an old node staying ahead of a new one with an equal score.
func mergeStable(queue, fresh []*node) []*node {
	if len(fresh) == 0 {
		return queue
	}
	sort.SliceStable(fresh, func(i, j int) bool { return fresh[i].score > fresh[j].score })
	out := make([]*node, 0, len(queue)+len(fresh))
	i, j := 0, 0
	for i < len(queue) && j < len(fresh) {
		if queue[i].score >= fresh[j].score {
			out = append(out, queue[i])
			i++
		} else {
			out = append(out, fresh[j])
			j++
		}
	}
	out = append(out, queue[i:]...)
	return append(out, fresh[j:]...)
}

// near is the framework's visited test: within 2 px in x and y and less than 5 frames earlier.
func near(visited []visitKey, k visitKey) bool {
	for _, v := range visited {
		if shape.Abs(v.x-k.x) < 2 && shape.Abs(v.y-k.y) < 2 && shape.Abs(v.t-k.t) < 5 && k.t >= v.t {
			return true
		}
	}
	return false
}

// plan is the actions from the root to n, each held for reps frames.
func plan(n *node, reps int) []Actions {
	var out []Actions
	for c := n; c.parent != nil; c = c.parent {
		for i := 0; i < reps; i++ {
			out = append(out, c.action)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
