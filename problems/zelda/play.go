package zelda

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

// Action is one move of the play view: a step in a direction, or a swing of the sword.
type Action uint8

const (
	Left Action = iota
	Right
	Up
	Down
	// Sword hits the four cells around the player and slays the enemies there.
	Sword
)

var actionSteps = [...]shape.Point{Left: {X: -1}, Right: {X: 1}, Up: {Y: -1}, Down: {Y: 1}}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

var actionNames = [...]string{"left", "right", "up", "down", "sword"}

// State is a room being played. The rules are those the metric measures: the player is the
// first player tile in scan order (other player tiles are floor), walls block, the door is
// closed until a key is held (the player→key route may not cross it, as toKey says) and
// opening it wins, and enemies lie on the walkable route (the metric's routes pass through
// them).
//
// The reference has no game engine, so nothing moves the enemies: they are static hazards, and
// walking into one loses. Because the metric counts a route through an enemy as walkable, the
// player carries a sword: a swing slays every enemy on the four cells around the player, so a
// room the metric calls playable can always be won (Solution does it).
type State struct {
	w, h int
	// cells is the room as it is now: the key taken and slain enemies become Empty, and the
	// player's own tiles are floor.
	cells  []int
	Player shape.Point
	HasKey bool
	// Moves counts the actions that did something (bumping a wall is free); Slain the enemies
	// the sword killed.
	Moves, Slain int
	won, lost    bool
	// swung marks that the last action was a sword swing (the renderer draws it).
	swung bool
}

// NewGame starts a room from its (unpadded) content grid. A room without a player is an error.
func NewGame(content shape.Grid) (*State, error) {
	p, ok := shape.First(content, shape.TilesOf(Player))
	if !ok {
		return nil, fmt.Errorf("zelda: the room has no player")
	}
	s := &State{w: content.W, h: content.H, cells: append([]int(nil), content.Cells...), Player: p}
	for i, t := range s.cells {
		if t == Player {
			s.cells[i] = Empty
		}
	}
	return s, nil
}

// Clone copies the state.
func (s *State) Clone() *State {
	c := *s
	c.cells = append([]int(nil), s.cells...)
	return &c
}

// W and H are the room's size.
func (s *State) W() int { return s.w }
func (s *State) H() int { return s.h }

// Tile is what lies on (x, y) now (Wall outside the room; the player is not included).
func (s *State) Tile(x, y int) int {
	if x < 0 || y < 0 || x >= s.w || y >= s.h {
		return Wall
	}
	return s.cells[y*s.w+x]
}

// Enemies is the number of enemies still in the room.
func (s *State) Enemies() int {
	n := 0
	for _, t := range s.cells {
		if t == Enemy {
			n++
		}
	}
	return n
}

// Win reports that the player opened a door with the key.
func (s *State) Win() bool { return s.won }

// Lose reports that the player walked into an enemy.
func (s *State) Lose() bool { return s.lost }

// Swung reports whether the last action was a sword swing.
func (s *State) Swung() bool { return s.swung }

// Step plays one action and reports whether it did anything. Actions after a win or a loss do
// nothing.
func (s *State) Step(a Action) bool {
	if s.won || s.lost {
		return false
	}
	s.swung = false
	if a == Sword {
		s.swung = true
		s.Moves++
		for _, d := range actionSteps {
			x, y := s.Player.X+d.X, s.Player.Y+d.Y
			if s.Tile(x, y) == Enemy {
				s.cells[y*s.w+x] = Empty
				s.Slain++
			}
		}
		return true
	}
	if int(a) >= len(actionSteps) {
		return false
	}
	d := actionSteps[a]
	x, y := s.Player.X+d.X, s.Player.Y+d.Y
	switch s.Tile(x, y) {
	case Wall:
		return false
	case Door:
		if !s.HasKey {
			return false
		}
		s.won = true
	case Key:
		s.HasKey = true
		s.cells[y*s.w+x] = Empty
	case Enemy:
		s.lost = true
	}
	s.Player = shape.Point{X: x, Y: y}
	s.Moves++
	return true
}

// Route is the walk the metric measures: the player→key path of Info.PKPath (BFS over
// toKey, back-tracked), then the key→door path over toDoor, which the reference measures but
// never records (its kd_path is searched with the door closed and stays empty). Empty when
// either leg is missing.
func Route(content shape.Grid) []shape.Point {
	player, hasPlayer := shape.First(content, shape.TilesOf(Player))
	key, hasKey := shape.First(content, shape.TilesOf(Key))
	door, hasDoor := shape.First(content, shape.TilesOf(Door))
	if !hasPlayer || !hasKey || !hasDoor {
		return nil
	}
	toKeyPath := shape.Backtrack(content.W, content.H, shape.BFS(content, player.X, player.Y, toKey), key.X, key.Y)
	toDoorPath := shape.Backtrack(content.W, content.H, shape.BFS(content, key.X, key.Y, toDoor), door.X, door.Y)
	if len(toKeyPath) == 0 || len(toDoorPath) == 0 {
		return nil
	}
	return append(toKeyPath, toDoorPath[1:]...)
}

// Solution walks Route, swinging the sword before every step onto an enemy. It is nil when
// the metric finds no player→key→door route.
func Solution(content shape.Grid) []Action {
	route := Route(content)
	if len(route) == 0 {
		return nil
	}
	var out []Action
	for i := 1; i < len(route); i++ {
		a, b := route[i-1], route[i]
		if content.At(b.X, b.Y) == Enemy {
			out = append(out, Sword)
		}
		for act, d := range actionSteps {
			if a.X+d.X == b.X && a.Y+d.Y == b.Y {
				out = append(out, Action(act))
			}
		}
	}
	return out
}

// RenderState draws the room as the problem's Render does, with the player where it stands
// (fallen after a loss, ringed by the sword's swing right after one).
func RenderState(s *State) image.Image {
	return assets.DrawTiles(s.w+2, s.h+2, func(x, y int, layers []string) []string {
		x, y = x-1, y-1 // the room inside its ring of walls
		t := s.Tile(x, y)
		if t == Wall || t < 0 || t >= len(sprites) {
			return append(layers, "wall")
		}
		if t != Player { // a player tile left in the room is bare floor
			layers = append(layers, sprites[t])
		}
		if x == s.Player.X && y == s.Player.Y {
			if s.lost {
				layers = append(layers, "play_player_dead")
			} else {
				layers = append(layers, "player")
			}
			if s.swung {
				layers = append(layers, "play_slash")
			}
		}
		return layers
	})
}

// Text draws the room as characters (for transcripts): # wall, . floor, @ player, k key,
// D door, e enemy, x the fallen player.
func (s *State) Text() string {
	var b strings.Builder
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			c := "#..kDe"[s.Tile(x, y)]
			if x == s.Player.X && y == s.Player.Y {
				c = '@'
				if s.lost {
					c = 'x'
				}
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
