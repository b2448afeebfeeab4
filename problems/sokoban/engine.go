package sokoban

import (
	"fmt"

	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
)

// Limits of the compact state encoding: cells are bytes and a key holds the player plus
// MaxCrates crates. Every registered variant fits (sokoban-large-v0 pads to 10×10 = 100 cells,
// and a playable 8×8 level has at most 31 crates).
const (
	MaxCells  = 256
	MaxCrates = 31
)

// directions are the agents' child order: left, right, up, down.
var directions = []solver.Dir{{X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: 0, Y: 1}}

// Level is the static part of a game: the padded walls, the targets and the precomputed
// deadlock cells. States share it.
type Level struct {
	// W, H are the padded width and height (content columns + 2, content rows + 2).
	W, H     int
	solid    []bool
	target   []bool
	deadlock []bool
	// targets are the target cells in scan order (the reference's target list).
	targets []uint8
	// targetDist[cell*len(targets)+j] is the Manhattan distance from cell to target j.
	targetDist []uint8
	cellX      []int
	cellY      []int
}

// State is a position of a game: the player and the crates, which keep their identity (list
// order) as they move. It is a small value; copying it clones it.
type State struct {
	level  *Level
	player uint8
	n      uint8
	crates [MaxCrates]uint8
}

// Key identifies a state for the agents' visited set: the player cell, then the crate cells in
// crate-list order (so permuted crates are different states, as in the reference). The
// reference's key also holds the crate and target counts and the target cells, which never
// change during a search.
type Key [MaxCrates + 1]uint8

// NewGame builds the level and the initial state from an unpadded content grid (0 solid,
// 1 empty, 2 player, 3 crate, 4 target), padding it with solid as the reference does. With
// several players the last one in scan order is used (the reference's parser overwrites); a
// level without a player is an error.
func NewGame(content shape.Grid) (State, error) {
	g := content.Padded(Solid)
	if g.W*g.H > MaxCells {
		return State{}, fmt.Errorf("sokoban: a %d×%d level is too large (at most %d padded cells)", content.W, content.H, MaxCells)
	}
	l := &Level{
		W: g.W, H: g.H,
		solid:    make([]bool, len(g.Cells)),
		target:   make([]bool, len(g.Cells)),
		deadlock: make([]bool, len(g.Cells)),
		cellX:    make([]int, len(g.Cells)),
		cellY:    make([]int, len(g.Cells)),
	}
	s := State{level: l}
	hasPlayer := false
	for i, v := range g.Cells {
		l.cellX[i], l.cellY[i] = i%g.W, i/g.W
		switch v {
		case Solid:
			l.solid[i] = true
		case Player:
			s.player, hasPlayer = uint8(i), true
		case Crate:
			if int(s.n) == MaxCrates {
				return State{}, fmt.Errorf("sokoban: more than %d crates", MaxCrates)
			}
			s.crates[s.n] = uint8(i)
			s.n++
		case Target:
			l.target[i] = true
			l.targets = append(l.targets, uint8(i))
		}
	}
	if !hasPlayer {
		return State{}, fmt.Errorf("sokoban: the level has no player")
	}
	if len(l.targets) > MaxCrates {
		return State{}, fmt.Errorf("sokoban: more than %d targets", MaxCrates)
	}
	l.targetDist = make([]uint8, len(g.Cells)*len(l.targets))
	for c := range g.Cells {
		for j, t := range l.targets {
			l.targetDist[c*len(l.targets)+j] = uint8(shape.Abs(l.cellX[c]-l.cellX[t]) + shape.Abs(l.cellY[c]-l.cellY[t]))
		}
	}
	l.findDeadlocks()
	return s, nil
}

// findDeadlocks marks the cells a pushed crate can never leave towards a target: corners
// (two orthogonal walls, no target), and every cell of a wall-hugging run between two corners
// on the same row or column when the run holds no target and no gap in the wall beside it.
func (l *Level) findDeadlocks() {
	at := func(x, y int) int { return y*l.W + x }
	var corners []int
	for y := 1; y < l.H-1; y++ {
		for x := 1; x < l.W-1; x++ {
			i := at(x, y)
			if l.solid[i] || l.target[i] {
				continue
			}
			up, down := l.solid[at(x, y-1)], l.solid[at(x, y+1)]
			left, right := l.solid[at(x-1, y)], l.solid[at(x+1, y)]
			if (up && left) || (up && right) || (down && left) || (down && right) {
				corners = append(corners, i)
				l.deadlock[i] = true
			}
		}
	}
	for _, c1 := range corners {
		for _, c2 := range corners {
			x1, y1, x2, y2 := l.cellX[c1], l.cellY[c1], l.cellX[c2], l.cellY[c2]
			dx, dy := shape.Sign(x1-x2), shape.Sign(y1-y2)
			if (dx == 0) == (dy == 0) {
				continue // the same cell, or not on one row or column
			}
			if l.wallRun(x2, y2, x1, y1, dx, dy) {
				for x, y := x2+dx, y2+dy; x != x1 || y != y1; x, y = x+dx, y+dy {
					l.deadlock[at(x, y)] = true
				}
			}
		}
	}
}

// wallRun reports whether every cell strictly between (x, y) and (tx, ty), walking by
// (dx, dy), is a free non-target cell with a wall on one side of the walk.
func (l *Level) wallRun(x, y, tx, ty, dx, dy int) bool {
	at := func(x, y int) int { return y*l.W + x }
	for x, y = x+dx, y+dy; x != tx || y != ty; x, y = x+dx, y+dy {
		i := at(x, y)
		if l.target[i] || l.solid[i] {
			return false
		}
		if dx != 0 && !l.solid[at(x, y-1)] && !l.solid[at(x, y+1)] {
			return false
		}
		if dy != 0 && !l.solid[at(x-1, y)] && !l.solid[at(x+1, y)] {
			return false
		}
	}
	return true
}

// Level is the state's static level.
func (s State) Level() *Level { return s.level }

// Player is the player's padded position.
func (s State) Player() shape.Point {
	return shape.Point{X: s.level.cellX[s.player], Y: s.level.cellY[s.player]}
}

// Crates are the crates' padded positions in crate-list order.
func (s State) Crates() []shape.Point {
	out := make([]shape.Point, s.n)
	for i := range out {
		c := s.crates[i]
		out[i] = shape.Point{X: s.level.cellX[c], Y: s.level.cellY[c]}
	}
	return out
}

// Solid reports whether the padded cell (x, y) is a wall (outside counts as wall).
func (l *Level) Solid(x, y int) bool {
	return x < 0 || y < 0 || x >= l.W || y >= l.H || l.solid[y*l.W+x]
}

// Target reports whether the padded cell (x, y) is a target.
func (l *Level) Target(x, y int) bool {
	return x >= 0 && y >= 0 && x < l.W && y < l.H && l.target[y*l.W+x]
}

// Deadlock reports whether a crate on the padded cell (x, y) can never reach a target.
func (l *Level) Deadlock(x, y int) bool {
	return x >= 0 && y >= 0 && x < l.W && y < l.H && l.deadlock[y*l.W+x]
}

// CrateAt reports whether a crate stands on the padded cell (x, y).
func (s State) CrateAt(x, y int) bool {
	if x < 0 || y < 0 || x >= s.level.W || y >= s.level.H {
		return false
	}
	return s.crateIndex(y*s.level.W+x) >= 0
}

func (s *State) crateIndex(cell int) int {
	for i := 0; i < int(s.n); i++ {
		if int(s.crates[i]) == cell {
			return i
		}
	}
	return -1
}

// free is the reference's checkMovableLocation. The padding ring is solid and the player and
// crates are always inside it, so a step never leaves the grid.
func (s *State) free(cell int) bool {
	return !s.level.solid[cell] && s.crateIndex(cell) < 0
}

// Move is the reference's update: a step of the player, pushing a crate if one is in the way
// and the cell behind it is free. Diagonal moves and moves after the level is won do nothing.
func (s *State) Move(d solver.Dir) (moved, pushed bool) {
	if (d.X != 0 && d.Y != 0) || s.Win() {
		return false, false
	}
	step := shape.Sign(d.X) + shape.Sign(d.Y)*s.level.W
	next := int(s.player) + step
	if s.free(next) {
		s.player = uint8(next)
		return true, false
	}
	if c := s.crateIndex(next); c >= 0 && s.free(next+step) {
		s.player = uint8(next)
		s.crates[c] = uint8(next + step)
		return true, true
	}
	return false, false
}

func (s *State) onDeadlock() bool {
	for i := 0; i < int(s.n); i++ {
		if s.level.deadlock[s.crates[i]] {
			return true
		}
	}
	return false
}

// Next implements solver.State: a child is kept if the player moved and, when it pushed a
// crate, no crate (any crate, not only the pushed one) stands on a deadlock cell.
func (s State) Next(d solver.Dir) (State, bool) {
	moved, pushed := s.Move(d)
	if !moved || (pushed && s.onDeadlock()) {
		return s, false
	}
	return s, true
}

// Key implements solver.State.
func (s State) Key() Key {
	var k Key
	k[0] = s.player
	copy(k[1:], s.crates[:s.n])
	return k
}

// Win reports whether there are as many crates as targets (at least one) and every target
// holds a crate. Crates never share a cell, so counting crates on targets is enough.
func (s State) Win() bool {
	if int(s.n) != len(s.level.targets) || s.n == 0 {
		return false
	}
	for i := 0; i < int(s.n); i++ {
		if !s.level.target[s.crates[i]] {
			return false
		}
	}
	return true
}

// Lose implements solver.State; Sokoban has no losing state.
func (s State) Lose() bool { return false }

// Heuristic is the reference's greedy matching: each crate in list order takes the nearest
// remaining target (Manhattan distance; the first of equals; starting from the bound W+H with
// the first remaining target as the fallback) and adds its distance. Removing a target from
// the reference's list keeps the others in order, so a mask of taken targets walks the same
// sequence. It needs at least as many targets as crates, which the problem guarantees before it
// searches.
func (s State) Heuristic() int {
	l := s.level
	nt := len(l.targets)
	var taken uint64
	total := 0
	for i := 0; i < int(s.n); i++ {
		row := l.targetDist[int(s.crates[i])*nt : (int(s.crates[i])+1)*nt]
		best, bestDist := -1, l.W+l.H
		for j, d := range row {
			if taken&(1<<j) == 0 {
				if best < 0 {
					best = j // the fallback when no target is nearer than W+H
				}
				if int(d) < bestDist {
					best, bestDist = j, int(d)
				}
			}
		}
		total += int(row[best])
		taken |= 1 << best
	}
	return total
}

var agentPool = solver.NewPool[State, Key](solver.Config{Directions: directions})

// Solve runs the reference's agents in its order — BFS, then A* with balance 1, 0.5 and 0 — each with power
// iterations, and stops at the first that wins (see solver.Pool.Solve).
func Solve(s State, power int) (int, solver.Result[State]) {
	return agentPool.Solve(s, power, solver.BFSFirst)
}
