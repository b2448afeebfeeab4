package isaac

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/shape"
)

// passable is what the player walks through in the expanded maze: rooms and door cells.
var passable = shape.TilesOf(mazeRoom, mazeDoor)

// State is a floor plan being explored, room by room, through the doors of the metric's maze:
// a move goes to the neighbouring room only when both rooms have the facing doors (the
// expanded maze then has two door cells between their centres). The player starts in the start
// room and wins once the boss, treasure and shop rooms have all been found. There is nothing
// to lose; a floor whose special rooms are missing or cut off cannot be won.
type State struct {
	c    Content
	w, h int
	maze shape.Grid
	// Room is the index of the room the player is in.
	Room    int
	visited []bool
	Moves   int
}

// Game starts the exploration of a content (a member of the content space).
func (is *Isaac) Game(c problems.Content) (*State, error) {
	ct, err := is.Decode(c)
	if err != nil {
		return nil, err
	}
	return NewGame(ct, is.width, is.height)
}

// NewGame starts the exploration of a decoded floor plan of w×h rooms. A start that is not a
// room is an error.
func NewGame(c Content, w, h int) (*State, error) {
	if len(c.Layout) != w*h {
		return nil, fmt.Errorf("isaac: layout of %d rooms, want %d×%d", len(c.Layout), w, h)
	}
	if c.Layout[c.Start] == 0 {
		return nil, fmt.Errorf("isaac: the start (cell %d) is not a room", c.Start)
	}
	s := &State{c: c, w: w, h: h, maze: maze(c.Layout, w, h), Room: c.Start, visited: make([]bool, w*h)}
	s.visited[c.Start] = true
	return s, nil
}

// Clone copies the state.
func (s *State) Clone() *State {
	c := *s
	c.visited = append([]bool(nil), s.visited...)
	return &c
}

// Step walks to the neighbouring room in direction (dx, dy) (a unit step) through a door on
// both sides, and reports whether the player moved.
func (s *State) Step(dx, dy int) bool {
	if (dx != 0) == (dy != 0) {
		return false
	}
	cx, cy := 3*(s.Room%s.w)+1, 3*(s.Room/s.w)+1
	for i := 1; i <= 2; i++ {
		x, y := cx+i*dx, cy+i*dy
		if !s.maze.In(x, y) || s.maze.At(x, y) != mazeDoor {
			return false
		}
	}
	if !s.maze.In(cx+3*dx, cy+3*dy) || s.maze.At(cx+3*dx, cy+3*dy) != mazeRoom {
		return false
	}
	s.Room += dx + dy*s.w
	s.visited[s.Room] = true
	s.Moves++
	return true
}

// Special is one of the rooms to find.
type Special struct {
	Name  string
	Room  int
	Found bool
	// Exists is false when the content puts it on a cell that is not a room.
	Exists bool
}

// Specials are the treasure, shop and boss rooms in that order.
func (s *State) Specials() [3]Special {
	var out [3]Special
	for i, sp := range [3]struct {
		name string
		room int
	}{{"treasure", s.c.Treasure}, {"shop", s.c.Shop}, {"boss", s.c.Boss}} {
		out[i] = Special{Name: sp.name, Room: sp.room, Found: s.visited[sp.room], Exists: s.c.Layout[sp.room] != 0}
	}
	return out
}

// Visited is the number of rooms entered so far, and Rooms the number of rooms on the floor.
func (s *State) Visited() int { return count(s.visited, true) }
func (s *State) Rooms() int   { return len(s.c.Layout) - countInts(s.c.Layout, 0) }
func (s *State) Win() bool    { return s.found() == 3 }
func (s *State) found() int {
	n := 0
	for _, sp := range s.Specials() {
		if sp.Found && sp.Exists {
			n++
		}
	}
	return n
}

func count(v []bool, want bool) int {
	n := 0
	for _, b := range v {
		if b == want {
			n++
		}
	}
	return n
}

func countInts(v []int, want int) int {
	n := 0
	for _, x := range v {
		if x == want {
			n++
		}
	}
	return n
}

// Solution walks from the current room to the nearest special room not yet found (BFS over the
// maze's rooms and doors; treasure, shop, boss on ties), then on from there, as unit room
// steps. It stops early when the rest cannot be reached.
func (s *State) Solution() []shape.Point {
	var out []shape.Point
	room := s.Room
	found := make([]bool, 3)
	for i, sp := range s.Specials() {
		found[i] = sp.Found || !sp.Exists
	}
	for {
		cx, cy := 3*(room%s.w)+1, 3*(room/s.w)+1
		dist := shape.BFS(s.maze, cx, cy, passable)
		best, bestD := -1, -1
		for i, sp := range s.Specials() {
			if found[i] {
				continue
			}
			d := dist[(3*(sp.Room/s.w)+1)*s.maze.W+3*(sp.Room%s.w)+1]
			if d > 0 && (bestD < 0 || d < bestD) {
				best, bestD = i, d
			}
		}
		if best < 0 {
			return out
		}
		target := s.Specials()[best].Room
		path := shape.Backtrack(s.maze.W, s.maze.H, dist, 3*(target%s.w)+1, 3*(target/s.w)+1)
		for i := 3; i < len(path); i += 3 {
			out = append(out, shape.Point{X: (path[i].X - path[i-3].X) / 3, Y: (path[i].Y - path[i-3].Y) / 3})
		}
		found[best] = true
		for i, sp := range s.Specials() {
			if sp.Room == target {
				found[i] = true
			}
		}
		room = target
	}
}

// RenderState draws the floor plan as Render does, except that rooms not yet entered are
// dimmed and their icons hidden (the player finds them), and the player stands in its room.
func RenderState(s *State) image.Image {
	ts := assets.TileSize
	img := image.NewRGBA(image.Rect(0, 0, s.w*ts, s.h*ts))
	for i, v := range s.c.Layout {
		drawRoom(img, v, i%s.w, i/s.w)
	}
	for _, sp := range [...]struct {
		idx    int
		sprite string
	}{{s.c.Shop, "isaac_shop"}, {s.c.Treasure, "isaac_treasure"}, {s.c.Boss, "isaac_boss"}, {s.c.Start, "isaac_start"}} {
		if s.c.Layout[sp.idx] == 0 || !s.visited[sp.idx] {
			continue
		}
		x, y := sp.idx%s.w, sp.idx/s.w
		drawRoom(img, s.c.Layout[sp.idx], x, y)
		assets.DrawSprite(img, sp.sprite, x*ts, y*ts)
	}
	for i, v := range s.c.Layout {
		if v != 0 && !s.visited[i] {
			dim(img, image.Rect(i%s.w*ts, i/s.w*ts, (i%s.w+1)*ts, (i/s.w+1)*ts))
		}
	}
	assets.DrawSprite(img, "player", s.Room%s.w*ts, s.Room/s.w*ts)
	return img
}

func dim(img *image.RGBA, r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			img.SetRGBA(x, y, color.RGBA{c.R / 3, c.G / 3, c.B / 3, c.A})
		}
	}
}

// Text draws the expanded maze as characters (for transcripts): blank wall, + door, o room not
// yet entered, . room entered, S start, T treasure, $ shop, B boss (once found), @ player.
func (s *State) Text() string {
	var b strings.Builder
	for y := 0; y < s.maze.H; y++ {
		for x := 0; x < s.maze.W; x++ {
			c := byte(' ')
			switch s.maze.At(x, y) {
			case mazeDoor:
				c = '+'
			case mazeRoom:
				room := (y/3)*s.w + x/3
				c = 'o'
				if s.visited[room] {
					c = '.'
					switch room {
					case s.c.Boss:
						c = 'B'
					case s.c.Shop:
						c = '$'
					case s.c.Treasure:
						c = 'T'
					case s.c.Start:
						c = 'S'
					}
				}
				if room == s.Room {
					c = '@'
				}
			}
			b.WriteByte(c)
		}
		b.WriteString("|\n")
	}
	return b.String()
}
