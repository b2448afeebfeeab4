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
	return drawTiles(p.W, p.H, func(x, y int) string {
		v := p.At(x, y)
		if v < 0 || v >= len(tileSprites) {
			v = Solid
		}
		return tileSprites[v]
	})
}

// RenderState draws a game position (for replaying a solution): the content's tiles plus
// crates and the player standing on targets.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	return drawTiles(l.W, l.H, func(x, y int) string {
		onTarget := l.Target(x, y)
		isPlayer := player.X == x && player.Y == y
		switch {
		case l.Solid(x, y):
			return "wall"
		case s.CrateAt(x, y) && onTarget:
			return "sokoban_crate_on_target"
		case s.CrateAt(x, y):
			return "sokoban_crate"
		case isPlayer && onTarget:
			return "sokoban_player_on_target"
		case isPlayer:
			return "player"
		case onTarget:
			return "sokoban_target"
		}
		return ""
	})
}

// drawTiles draws a w×h tile map; every cell that is not a wall gets a floor first, and an
// empty name means bare floor.
func drawTiles(w, h int, sprite func(x, y int) string) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w*assets.TileSize, h*assets.TileSize))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			name := sprite(x, y)
			px, py := x*assets.TileSize, y*assets.TileSize
			if name != "wall" {
				assets.DrawSprite(img, "floor", px, py)
			}
			if name != "" {
				assets.DrawSprite(img, name, px, py)
			}
		}
	}
	return img
}
