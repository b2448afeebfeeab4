package binary

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

// State is a maze being walked: the player starts at one end of the longest path the metric
// measures (shape.LongestPathEnds: the same sweeps as Info.Path) and wins on reaching the other
// end. Solid tiles block; there is nothing to lose.
type State struct {
	maze         shape.Grid
	Player, Goal shape.Point
	// Length is the metric's path length: the fewest moves that win.
	Length int
	Moves  int
}

// NewGame starts a walk on a maze content grid. A maze without an empty tile is an error.
func NewGame(content shape.Grid) (*State, error) {
	length, from, to, ok := shape.LongestPathEnds(content, emptyTiles)
	if !ok {
		return nil, fmt.Errorf("binary: the maze has no empty tile")
	}
	return &State{maze: content, Player: from, Goal: to, Length: length}, nil
}

// Clone copies the state (the maze is never modified, so it is shared).
func (s *State) Clone() *State { c := *s; return &c }

// Step moves one tile (dx, dy are the signs of a unit step) unless a solid tile or the border
// is in the way, and reports whether the player moved. Nothing moves after the win.
func (s *State) Step(dx, dy int) bool {
	if s.Win() || (dx != 0) == (dy != 0) {
		return false
	}
	x, y := s.Player.X+dx, s.Player.Y+dy
	if !s.maze.In(x, y) || s.maze.At(x, y) != Empty {
		return false
	}
	s.Player = shape.Point{X: x, Y: y}
	s.Moves++
	return true
}

// Win reports that the player reached the goal.
func (s *State) Win() bool { return s.Player == s.Goal }

// Remaining is the BFS distance left to the goal.
func (s *State) Remaining() int {
	return shape.BFS(s.maze, s.Goal.X, s.Goal.Y, emptyTiles)[s.Player.Y*s.maze.W+s.Player.X]
}

// Solution is the shortest walk from the player to the goal, as unit steps.
func (s *State) Solution() []shape.Point {
	dist := shape.BFS(s.maze, s.Player.X, s.Player.Y, emptyTiles)
	path := shape.Backtrack(s.maze.W, s.maze.H, dist, s.Goal.X, s.Goal.Y)
	out := make([]shape.Point, 0, len(path))
	for i := 1; i < len(path); i++ {
		out = append(out, shape.Point{X: path[i].X - path[i-1].X, Y: path[i].Y - path[i-1].Y})
	}
	return out
}

// RenderState draws the maze as Render does, with the goal flag and the player.
func RenderState(s *State) image.Image {
	img := render(s.maze).(*image.RGBA)
	assets.DrawSprite(img, "play_flag", (s.Goal.X+1)*assets.TileSize, (s.Goal.Y+1)*assets.TileSize)
	assets.DrawSprite(img, "player", (s.Player.X+1)*assets.TileSize, (s.Player.Y+1)*assets.TileSize)
	return img
}

// Text draws the maze as characters (for transcripts): # solid, . empty, @ player, G goal.
func (s *State) Text() string {
	var b strings.Builder
	for y := 0; y < s.maze.H; y++ {
		for x := 0; x < s.maze.W; x++ {
			p := shape.Point{X: x, Y: y}
			switch {
			case p == s.Player:
				b.WriteByte('@')
			case p == s.Goal:
				b.WriteByte('G')
			case s.maze.At(x, y) == Empty:
				b.WriteByte('.')
			default:
				b.WriteByte('#')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
