package ddave

import (
	"fmt"

	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
)

// Tile values of the content.
const (
	Solid = iota
	Empty
	Player
	Exit
	Diamond
	Key
	Spike
)

// Jump physics: a jump starts with jumpAirTime, the player rises while the air time is above
// hangTime, floats for hangTime steps, then falls one cell per step.
const (
	jumpAirTime = 3
	hangTime    = 1
)

// MaxDiamonds is the number of diamonds the compact state encoding can track. ddave-large-v0
// (17×11) holds at most 184 diamonds in a level that is played (one player, exit and key).
const MaxDiamonds = 64 * diamondWords

const diamondWords = 3

// maxCells bounds the padded level so that a cell index fits the state's int16.
const maxCells = 1 << 15

// Directions are the moves, in the agents' child order: stay (let gravity act), left, right,
// jump.
var Directions = []solver.Dir{{X: 0, Y: 0}, {X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}}

// Level is the static part of a game: the padded walls and the items' places. States share it.
type Level struct {
	// W, H are the padded width and height (content columns + 2, content rows + 2).
	W, H  int
	solid []bool
	spike []bool
	// diamondAt[cell] is the diamond's index in the scan-order diamond list, or -1.
	diamondAt []int16
	diamonds  []int
	door      int
	// key is the key's cell, or -1 when the level has none.
	key int
	// target is the cell the diamond-reachability runs aim for, or -1 for the real game (key,
	// then door).
	target int
}

type diamondSet [diamondWords]uint64

func (d *diamondSet) has(i int) bool { return d[i>>6]&(1<<(i&63)) != 0 }
func (d *diamondSet) drop(i int)     { d[i>>6] &^= 1 << (i & 63) }

// State is a position of a game. It is a small value; copying it clones it.
type State struct {
	level *Level
	// remaining holds the diamonds still on the map (bit i = diamond i of the level's list).
	remaining  diamondSet
	player     int16
	jumps      int16
	collected  int16
	health     int8
	airTime    int8
	keys       int8
	keyPresent bool
}

// StateKey identifies a state for the agents' visited set. The reference's key is the player's
// position and health, the door, the key's position while it lies on the map, the remaining
// diamonds and the spikes; door, key position and spikes never change during a search, and
// air time and jump count are deliberately absent (states differing only there merge).
type StateKey struct {
	remaining  diamondSet
	player     int16
	health     int8
	keyPresent bool
}

// NewGame builds the level and the initial state from an unpadded content grid, padding it
// with solid as the reference does. The content should already be repaired (see Repair). As in
// the reference's parser, the last player, door and key in scan order count. A level without a
// player or a door is an error.
func NewGame(content shape.Grid) (State, error) {
	g := content.Padded(Solid)
	if g.W*g.H > maxCells {
		return State{}, fmt.Errorf("ddave: a %d×%d level is too large", content.W, content.H)
	}
	l := &Level{
		W: g.W, H: g.H,
		solid:     make([]bool, len(g.Cells)),
		spike:     make([]bool, len(g.Cells)),
		diamondAt: make([]int16, len(g.Cells)),
		door:      -1,
		key:       -1,
		target:    -1,
	}
	s := State{level: l, player: -1, health: 1}
	for i, v := range g.Cells {
		l.diamondAt[i] = -1
		switch v {
		case Solid:
			l.solid[i] = true
		case Player:
			s.player = int16(i)
		case Exit:
			l.door = i
		case Diamond:
			if len(l.diamonds) == MaxDiamonds {
				return State{}, fmt.Errorf("ddave: more than %d diamonds", MaxDiamonds)
			}
			l.diamondAt[i] = int16(len(l.diamonds))
			s.remaining[len(l.diamonds)>>6] |= 1 << (len(l.diamonds) & 63)
			l.diamonds = append(l.diamonds, i)
		case Key:
			l.key = i
		case Spike:
			l.spike[i] = true
		}
	}
	if s.player < 0 {
		return State{}, fmt.Errorf("ddave: the level has no player")
	}
	if l.door < 0 {
		return State{}, fmt.Errorf("ddave: the level has no exit")
	}
	s.keyPresent = l.key >= 0
	return s, nil
}

// WithTarget returns the state playing for the padded cell (x, y) instead of key and door: it
// wins on reaching the cell and its heuristic is the distance to it (the reference's
// diamond-reachability runs).
func (s State) WithTarget(x, y int) State {
	l := *s.level
	l.target = y*l.W + x
	s.level = &l
	return s
}

// Level is the state's static level.
func (s State) Level() *Level { return s.level }

// Solid reports whether the padded cell (x, y) is a wall (outside counts as wall).
func (l *Level) Solid(x, y int) bool {
	return x < 0 || y < 0 || x >= l.W || y >= l.H || l.solid[y*l.W+x]
}

// Spike reports whether the padded cell (x, y) holds a spike.
func (l *Level) Spike(x, y int) bool {
	return l.in(x, y) && l.spike[y*l.W+x]
}

// Door is the exit's padded position.
func (l *Level) Door() shape.Point { return l.point(l.door) }

// Target is the reachability target's padded position, if one is set.
func (l *Level) Target() (shape.Point, bool) {
	if l.target < 0 {
		return shape.Point{}, false
	}
	return l.point(l.target), true
}

func (l *Level) in(x, y int) bool { return x >= 0 && y >= 0 && x < l.W && y < l.H }

func (l *Level) point(cell int) shape.Point { return shape.Point{X: cell % l.W, Y: cell / l.W} }

// Player is the player's padded position.
func (s State) Player() shape.Point { return s.level.point(int(s.player)) }

// Health is 1, or 0 once the player touched a spike.
func (s State) Health() int { return int(s.health) }

// AirTime is the remaining jump time (3 at take-off, 0 on the ground or falling).
func (s State) AirTime() int { return int(s.airTime) }

// Jumps is the number of jumps taken.
func (s State) Jumps() int { return int(s.jumps) }

// Collected is the number of diamonds collected.
func (s State) Collected() int { return int(s.collected) }

// Keys is the number of keys picked up (0 or 1).
func (s State) Keys() int { return int(s.keys) }

// KeyAt reports whether the key still lies on the padded cell (x, y).
func (s State) KeyAt(x, y int) bool {
	return s.keyPresent && s.level.in(x, y) && s.level.key == y*s.level.W+x
}

// DiamondAt reports whether a diamond still lies on the padded cell (x, y).
func (s State) DiamondAt(x, y int) bool {
	if !s.level.in(x, y) {
		return false
	}
	i := s.level.diamondAt[y*s.level.W+x]
	return i >= 0 && s.remaining.has(int(i))
}

// Step is the reference's update: one move (sign of d.X; d.Y < 0 jumps) with gravity. A
// horizontal move takes precedence over a jump; a jump starts only from the ground under a free
// cell. Only the cell the player ends on is checked for items: a diamond is collected, a spike
// kills, the key is picked up. Steps after the game is won or lost do nothing.
func (s *State) Step(d solver.Dir) {
	if s.Win() || s.Lose() {
		return
	}
	l := s.level
	dx := shape.Sign(d.X)
	p := int(s.player)
	ground := l.solid[p+l.W]
	ceiling := l.solid[p-l.W]
	next := p
	if dx != 0 {
		if !l.solid[p+dx] {
			next = p + dx
		}
	} else if d.Y < 0 && ground && !ceiling {
		s.airTime = jumpAirTime
		s.jumps++
	}
	switch {
	case s.airTime > hangTime:
		s.airTime--
		if !l.solid[next-l.W] {
			next -= l.W
		} else {
			s.airTime = hangTime
		}
	case s.airTime > 0:
		s.airTime--
	default:
		if !l.solid[next+l.W] {
			next += l.W
		}
	}
	s.arrive(next)
}

// arrive moves the player to cell and resolves the first matching item there.
func (s *State) arrive(cell int) {
	l := s.level
	s.player = int16(cell)
	if i := l.diamondAt[cell]; i >= 0 && s.remaining.has(int(i)) {
		s.collected++
		s.remaining.drop(int(i))
		return
	}
	if l.spike[cell] {
		s.health = 0
		return
	}
	if s.keyPresent && cell == l.key {
		s.keys++
		s.keyPresent = false
	}
}

// Next implements solver.State: every move gives a child.
func (s State) Next(d solver.Dir) (State, bool) {
	s.Step(d)
	return s, true
}

// Key implements solver.State.
func (s State) Key() StateKey {
	return StateKey{remaining: s.remaining, player: s.player, health: s.health, keyPresent: s.keyPresent}
}

// Win: on the target when one is set, else on the door holding the key.
func (s State) Win() bool {
	if s.level.target >= 0 {
		return int(s.player) == s.level.target
	}
	return s.keys > 0 && int(s.player) == s.level.door
}

// Lose: the player touched a spike.
func (s State) Lose() bool { return s.health <= 0 }

// Heuristic is the Manhattan distance to the target when one is set; otherwise to the key plus
// the padded width and height while the key lies on the map, then to the door.
func (s State) Heuristic() int {
	l := s.level
	p := int(s.player)
	switch {
	case l.target >= 0:
		return l.manhattan(p, l.target)
	case s.keyPresent:
		return l.manhattan(p, l.key) + l.W + l.H
	}
	return l.manhattan(p, l.door)
}

func (l *Level) manhattan(a, b int) int {
	return shape.Abs(a%l.W-b%l.W) + shape.Abs(a/l.W-b/l.W)
}

// GameStatus is the reference's status record of a final state.
type GameStatus struct {
	Status      string `json:"status"`
	Health      int    `json:"health"`
	AirTime     int    `json:"airTime"`
	NumJumps    int    `json:"num_jumps"`
	ColDiamonds int    `json:"col_diamonds"`
	ColKey      int    `json:"col_key"`
}

// Status is the state's status record ("win", "lose" or "running"; a lost state never counts
// as won).
func (s State) Status() GameStatus {
	return GameStatus{
		Status: solver.StatusText(s), Health: int(s.health), AirTime: int(s.airTime),
		NumJumps: int(s.jumps), ColDiamonds: int(s.collected), ColKey: int(s.keys),
	}
}

var agentPool = solver.NewPool[State, StateKey](solver.Config{Directions: Directions})

// Solve runs the reference's agents in its order — A* with balance 1, 0.5 and 0, then BFS — each with power
// iterations, and stops at the first that wins (see solver.Pool.Solve).
func Solve(s State, power int) (int, solver.Result[State]) {
	return agentPool.Solve(s, power, solver.BFSLast)
}
