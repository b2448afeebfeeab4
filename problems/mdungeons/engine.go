package mdungeons

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
	Potion
	Treasure
	Goblin
	Ogre
)

// Combat and healing rules.
const (
	maxHealth    = 5
	potionHeal   = 2
	goblinDamage = 1
	ogreDamage   = 2
)

// Event is what a step resolved, as the letters diversity compares: 0 (nothing), 'p' (potion
// drunk), '$' (treasure taken), '1' (goblin killed), '2' (ogre killed).
type Event byte

// MaxItems is the number of potions, treasures and enemies together that the compact state
// encoding can track: every cell of mdungeons-large-v0 (16×24).
const MaxItems = 64 * itemWords

const itemWords = 6

// maxCells bounds the padded level so that a cell index fits the state's int16.
const maxCells = 1 << 15

// Directions are the moves, in the agents' child order: left, right, up, down.
var Directions = []solver.Dir{{X: -1, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: 0, Y: 1}}

// item is a potion, treasure or enemy: what it does when the player steps on it.
type item struct {
	event  Event
	damage int8
}

// Level is the static part of a game: the padded walls, the door and the items' places.
// States share it.
type Level struct {
	// W, H are the padded width and height (content columns + 2, content rows + 2).
	W, H  int
	solid []bool
	// itemAt[cell] indexes items, or is -1.
	itemAt []int16
	items  []item
	door   int
}

type itemSet [itemWords]uint64

func (m *itemSet) has(i int) bool { return m[i>>6]&(1<<(i&63)) != 0 }
func (m *itemSet) drop(i int)     { m[i>>6] &^= 1 << (i & 63) }

// State is a position of a game. It is a small value; copying it clones it.
type State struct {
	level *Level
	// remaining holds the items still on the map (bit i = item i of the level).
	remaining itemSet
	player    int16
	potions   int16
	treasures int16
	enemies   int16
	health    int8
}

// StateKey identifies a state for the agents' visited set. The reference's key is the
// player's position and health, the door and the remaining potions, treasures and enemies (in
// their scan-order lists); the door never changes, and since no two items share a cell the
// remaining items as a set determine those three lists.
type StateKey struct {
	remaining itemSet
	player    int16
	health    int8
}

// NewGame builds the level and the initial state from an unpadded content grid, padding it
// with solid as the reference does. As in the reference's parser, the last player and exit in
// scan order count. A level without a player or an exit is an error.
func NewGame(content shape.Grid) (State, error) {
	g := content.Padded(Solid)
	if g.W*g.H > maxCells {
		return State{}, fmt.Errorf("mdungeons: a %d×%d level is too large", content.W, content.H)
	}
	l := &Level{
		W: g.W, H: g.H,
		solid:  make([]bool, len(g.Cells)),
		itemAt: make([]int16, len(g.Cells)),
		door:   -1,
	}
	s := State{level: l, player: -1, health: maxHealth}
	for i, v := range g.Cells {
		l.itemAt[i] = -1
		var it item
		switch v {
		case Solid:
			l.solid[i] = true
			continue
		case Player:
			s.player = int16(i)
			continue
		case Exit:
			l.door = i
			continue
		case Potion:
			it = item{event: 'p'}
		case Treasure:
			it = item{event: '$'}
		case Goblin:
			it = item{event: '1', damage: goblinDamage}
		case Ogre:
			it = item{event: '2', damage: ogreDamage}
		default:
			continue
		}
		if len(l.items) == MaxItems {
			return State{}, fmt.Errorf("mdungeons: more than %d items", MaxItems)
		}
		l.itemAt[i] = int16(len(l.items))
		s.remaining[len(l.items)>>6] |= 1 << (len(l.items) & 63)
		l.items = append(l.items, it)
	}
	if s.player < 0 {
		return State{}, fmt.Errorf("mdungeons: the level has no player")
	}
	if l.door < 0 {
		return State{}, fmt.Errorf("mdungeons: the level has no exit")
	}
	return s, nil
}

// Level is the state's static level.
func (s State) Level() *Level { return s.level }

// Solid reports whether the padded cell (x, y) is a wall (outside counts as wall).
func (l *Level) Solid(x, y int) bool {
	return x < 0 || y < 0 || x >= l.W || y >= l.H || l.solid[y*l.W+x]
}

// Door is the exit's padded position.
func (l *Level) Door() shape.Point { return shape.Point{X: l.door % l.W, Y: l.door / l.W} }

// Player is the player's padded position.
func (s State) Player() shape.Point {
	return shape.Point{X: int(s.player) % s.level.W, Y: int(s.player) / s.level.W}
}

// Health is the player's health, 0..5.
func (s State) Health() int { return int(s.health) }

// Tile is what lies on the padded cell (x, y) now: Solid, Exit, a remaining Potion, Treasure,
// Goblin or Ogre, or Empty (the player is not included).
func (s State) Tile(x, y int) int {
	l := s.level
	if l.Solid(x, y) {
		return Solid
	}
	c := y*l.W + x
	if c == l.door {
		return Exit
	}
	if i := l.itemAt[c]; i >= 0 && s.remaining.has(int(i)) {
		switch l.items[i].event {
		case 'p':
			return Potion
		case '$':
			return Treasure
		case '1':
			return Goblin
		case '2':
			return Ogre
		}
	}
	return Empty
}

// Step is the reference's update: one orthogonal move (diagonal moves, and any move once the
// game is won or lost, do nothing). Walking into a wall does nothing; otherwise the player
// moves and resolves the item on the new cell: a potion heals 2 (up to 5), a treasure is
// taken, an enemy is killed at the cost of its damage (health stops at 0). A move of {0, 0}
// resolves the current cell again.
func (s *State) Step(d solver.Dir) Event {
	if s.Win() || s.Lose() || (d.X != 0 && d.Y != 0) {
		return 0
	}
	l := s.level
	next := int(s.player) + shape.Sign(d.X) + shape.Sign(d.Y)*l.W
	if l.solid[next] {
		return 0
	}
	s.player = int16(next)
	i := l.itemAt[next]
	if i < 0 || !s.remaining.has(int(i)) {
		return 0
	}
	s.remaining.drop(int(i))
	it := l.items[i]
	switch it.event {
	case 'p':
		s.potions++
		s.health = min(s.health+potionHeal, maxHealth)
	case '$':
		s.treasures++
	default:
		s.enemies++
		s.health = max(s.health-it.damage, 0)
	}
	return it.event
}

// Next implements solver.State: every move gives a child.
func (s State) Next(d solver.Dir) (State, bool) {
	s.Step(d)
	return s, true
}

// Key implements solver.State.
func (s State) Key() StateKey {
	return StateKey{remaining: s.remaining, player: s.player, health: s.health}
}

// Win: the player stands on the exit.
func (s State) Win() bool { return int(s.player) == s.level.door }

// Lose: the player's health is gone.
func (s State) Lose() bool { return s.health <= 0 }

// Heuristic is the reference's: Manhattan distance to the exit, plus 4 per missing health
// point, minus 2 per treasure taken, plus the padded area (so it stays positive).
func (s State) Heuristic() int {
	l := s.level
	p := int(s.player)
	dist := shape.Abs(p%l.W-l.door%l.W) + shape.Abs(p/l.W-l.door/l.W)
	return dist + 4*(maxHealth-int(s.health)) - 2*int(s.treasures) + l.W*l.H
}

// GameStatus is the reference's status record of a final state.
type GameStatus struct {
	Status       string `json:"status"`
	Health       int    `json:"health"`
	ColTreasures int    `json:"col_treasures"`
	ColPotions   int    `json:"col_potions"`
	ColEnemies   int    `json:"col_enemies"`
}

// Status is the state's status record ("win", "lose" or "running"; a lost state never counts
// as won).
func (s State) Status() GameStatus {
	return GameStatus{
		Status: solver.StatusText(s), Health: int(s.health), ColTreasures: int(s.treasures),
		ColPotions: int(s.potions), ColEnemies: int(s.enemies),
	}
}

var agentPool = solver.NewPool[State, StateKey](solver.Config{Directions: Directions})

// Solve runs the reference's agents in its order — A* with balance 1, 0.5 and 0, then BFS — each with power
// iterations, and stops at the first that wins (see solver.Pool.Solve).
func Solve(s State, power int) (int, solver.Result[State]) {
	return agentPool.Solve(s, power, solver.BFSLast)
}

// Events replays moves from start and returns the events they resolve, in order (the string
// diversity compares; moves that resolve nothing add nothing).
func Events(start State, moves []solver.Dir) string {
	s := start
	var b []byte
	for _, m := range moves {
		if e := s.Step(m); e != 0 {
			b = append(b, byte(e))
		}
	}
	return string(b)
}
