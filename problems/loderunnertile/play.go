package loderunnertile

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

// State is a level being played by the simplified player whose reach the metric measures
// (Explore): it starts on the first player tile, walks left and right on anything but brick,
// climbs up a ladder and down a ladder or a rope, and falls one cell per step through empty
// cells that are not above brick or a ladder (while falling every move is a fall). Explore
// reaches exactly the cells these steps reach (a test checks it).
//
// The reference has no game engine, so nothing moves the enemies: they are static guards, and
// touching one loses. The metric's reach walks through them, so the player can dig (Dig): the
// guards on the four cells around it fall into the holes and are gone, and a level whose gold
// all lies within the metric's reach can always be won (Tour does it). Collecting every gold
// piece wins.
type State struct {
	lv     shape.Grid
	Player shape.Point
	// gold marks the gold pieces still lying in the level, guard the guards still standing.
	gold      []bool
	guard     []bool
	Collected int
	// Trapped counts the guards dug away.
	Trapped int
	Gold    int
	Moves   int
	dead    bool
}

// NewGame starts a level (as Problem.Level returns it, the brick floor included). A level
// without a player is an error.
func NewGame(level shape.Grid) (*State, error) {
	p, ok := shape.First(level, shape.TilesOf(Player))
	if !ok {
		return nil, fmt.Errorf("lode runner: the level has no player")
	}
	s := &State{lv: level, Player: p, gold: make([]bool, len(level.Cells)), guard: make([]bool, len(level.Cells))}
	for i, t := range level.Cells {
		switch t {
		case Gold:
			s.gold[i] = true
			s.Gold++
		case Enemy:
			s.guard[i] = true
		}
	}
	s.arrive()
	return s, nil
}

// Clone copies the state (the level is never modified, so it is shared).
func (s *State) Clone() *State {
	c := *s
	c.gold = append([]bool(nil), s.gold...)
	c.guard = append([]bool(nil), s.guard...)
	return &c
}

// tile is the level as the simplified player sees it: players, gold and enemies are empty.
func (s *State) tile(x, y int) int {
	if t := s.lv.Cells[y*s.lv.W+x]; t != Player && t != Gold && t != Enemy {
		return t
	}
	return Empty
}

// Falling reports whether the player stands in mid-air (its next step is a fall).
func (s *State) Falling() bool { return s.falling(s.Player.X, s.Player.Y) }

func (s *State) falling(x, y int) bool {
	if y >= s.lv.H-1 || s.tile(x, y) != Empty {
		return false
	}
	below := s.tile(x, y+1)
	return below != Brick && below != Ladder
}

// Step plays one move (dx, dy: a unit step, or 0, 0 to wait) and reports whether the player
// moved. Moves after a win or a loss do nothing.
func (s *State) Step(dx, dy int) bool {
	if s.Win() || s.Lose() {
		return false
	}
	p, moved := s.next(s.Player, dx, dy)
	if !moved {
		return false
	}
	s.Player = p
	s.Moves++
	s.arrive()
	return true
}

// Dig traps the guards on the four cells around the player, then lets the player fall one
// cell if it is in mid-air (digging takes a step of time, like a move). It reports whether
// anything happened.
func (s *State) Dig() bool {
	if s.Win() || s.Lose() {
		return false
	}
	did := false
	for _, d := range steps[1:] {
		x, y := s.Player.X+d.X, s.Player.Y+d.Y
		if s.lv.In(x, y) && s.guard[y*s.lv.W+x] {
			s.guard[y*s.lv.W+x] = false
			s.Trapped++
			did = true
		}
	}
	if s.falling(s.Player.X, s.Player.Y) {
		s.Player.Y++
		s.arrive()
		did = true
	}
	if did {
		s.Moves++
	}
	return did
}

// GuardAt reports whether a guard still stands on (x, y).
func (s *State) GuardAt(x, y int) bool { return s.lv.In(x, y) && s.guard[y*s.lv.W+x] }

// next is where one move from p leads (Explore's neighbour rule).
func (s *State) next(p shape.Point, dx, dy int) (shape.Point, bool) {
	x, y := p.X, p.Y
	nx, ny := x, y
	switch {
	case s.falling(x, y):
		ny = y + 1
	case dy != 0 && dx == 0:
		yy := min(max(y+dy, 0), s.lv.H-1)
		if s.tile(x, yy) != Brick && (s.tile(x, y) == Ladder || s.tile(x, y) == Rope && dy > 0) {
			ny = yy
		}
	case dx != 0 && dy == 0:
		xx := min(max(x+dx, 0), s.lv.W-1)
		if s.tile(xx, y) != Brick {
			nx = xx
		}
	}
	return shape.Point{X: nx, Y: ny}, nx != x || ny != y
}

// arrive picks up the gold on the player's cell, or dies on a guard.
func (s *State) arrive() {
	i := s.Player.Y*s.lv.W + s.Player.X
	if s.gold[i] {
		s.gold[i] = false
		s.Collected++
	}
	if s.guard[i] {
		s.dead = true
	}
}

// Win reports that every gold piece was collected; Lose that the player touched a guard.
func (s *State) Win() bool  { return !s.dead && s.Collected == s.Gold }
func (s *State) Lose() bool { return s.dead }

// GoldAt reports whether a gold piece still lies on (x, y).
func (s *State) GoldAt(x, y int) bool { return s.lv.In(x, y) && s.gold[y*s.lv.W+x] }

// steps are the moves tried by the tour: waiting (a fall is then a wait), then the metric's
// neighbour order.
var steps = [5]shape.Point{{}, {X: -1}, {X: 1}, {Y: -1}, {Y: 1}}

// TourMove is one move of a Tour: a unit step (0, 0 waits, which only matters in mid-air), or
// a dig.
type TourMove struct {
	shape.Point
	Dig bool
}

// Tour is a walk that collects the gold greedily: a breadth-first search over the player's
// moves (through the guards, as the metric's reach goes) to the nearest gold still lying, then
// on from there, digging before each step onto a guard (in mid-air the dig is the fall). It
// stops when no more gold can be reached.
func (s *State) Tour() []TourMove {
	cur := s.Clone()
	var out []TourMove
	w := cur.lv.W
	prev := make([]int32, len(cur.lv.Cells))
	move := make([]int8, len(cur.lv.Cells))
	for !cur.Win() && !cur.Lose() {
		for i := range prev {
			prev[i] = -2
		}
		start := cur.Player.Y*w + cur.Player.X
		prev[start] = -1
		queue := []int{start}
		target := -1
		for h := 0; h < len(queue) && target < 0; h++ {
			c := queue[h]
			for k, d := range steps {
				n, moved := cur.next(shape.Point{X: c % w, Y: c / w}, d.X, d.Y)
				ni := n.Y*w + n.X
				if !moved || prev[ni] != -2 {
					continue
				}
				prev[ni], move[ni] = int32(c), int8(k)
				queue = append(queue, ni)
				if cur.gold[ni] {
					target = ni
					break
				}
			}
		}
		if target < 0 {
			return out
		}
		var leg []shape.Point
		for c := target; prev[c] >= 0; c = int(prev[c]) {
			leg = append(leg, steps[move[c]])
		}
		for i := len(leg) - 1; i >= 0; i-- {
			d := leg[i]
			if n, _ := cur.next(cur.Player, d.X, d.Y); cur.GuardAt(n.X, n.Y) {
				falling := cur.Falling()
				cur.Dig()
				out = append(out, TourMove{Dig: true})
				if falling {
					continue
				}
			}
			cur.Step(d.X, d.Y)
			out = append(out, TourMove{Point: d})
		}
	}
	return out
}

// RenderState draws the level as RenderLevel does, with the gold collected so far removed and
// the player where it stands (fallen on a guard after a loss).
func RenderState(s *State) image.Image {
	lv := s.lv.Clone()
	for i, t := range lv.Cells {
		if t == Player || t == Gold && !s.gold[i] || t == Enemy && !s.guard[i] {
			lv.Cells[i] = Empty
		}
	}
	img := RenderLevel(lv).(*image.RGBA)
	px, py := s.Player.X*assets.TileSize, s.Player.Y*assets.TileSize
	if s.dead {
		assets.DrawSprite(img, "play_player_dead", px, py)
	} else {
		assets.DrawSprite(img, "lr-player", px, py)
	}
	return img
}

// Text draws the level as characters (for transcripts): # brick, . empty, $ gold, E guard,
// H ladder, - rope, @ player (x once fallen); trapped guards are gone.
func (s *State) Text() string {
	var b strings.Builder
	for y := 0; y < s.lv.H; y++ {
		for x := 0; x < s.lv.W; x++ {
			c := "#..$EH-"[s.lv.At(x, y)]
			if s.lv.At(x, y) == Gold && !s.gold[y*s.lv.W+x] || s.lv.At(x, y) == Enemy && !s.guard[y*s.lv.W+x] {
				c = '.'
			}
			if x == s.Player.X && y == s.Player.Y {
				c = '@'
				if s.dead {
					c = 'x'
				}
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
