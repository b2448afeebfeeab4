package sokoban

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var tileSprites = [...]string{
	Solid:  "wall",
	Empty:  "",
	Player: "player",
	Crate:  "sokoban_crate",
	Target: "sokoban_target",
}

// renderContent draws the level inside a ring of solid tiles, one 16 px sprite per tile, as
// the reference does (so sokoban-v0 is 112×112).
func renderContent(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	return assets.DrawCells(p.W, p.H, p.Cells, tileSprites[:], Solid)
}

// RenderState draws a game position (for replaying a solution): the content's tiles plus
// crates and the player standing on targets.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	return assets.DrawTiles(l.W, l.H, func(x, y int, layers []string) []string {
		onTarget := l.Target(x, y)
		isPlayer := player.X == x && player.Y == y
		switch {
		case l.Solid(x, y):
			return append(layers, "wall")
		case s.CrateAt(x, y) && onTarget:
			return append(layers, "sokoban_crate_on_target")
		case s.CrateAt(x, y):
			return append(layers, "sokoban_crate")
		case isPlayer && onTarget:
			return append(layers, "sokoban_player_on_target")
		case isPlayer:
			return append(layers, "player")
		case onTarget:
			return append(layers, "sokoban_target")
		}
		return layers
	})
}
