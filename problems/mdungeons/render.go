package mdungeons

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var tileSprites = [...]string{
	Solid:    "wall",
	Empty:    "",
	Player:   "player",
	Exit:     "mdungeons_exit",
	Potion:   "mdungeons_potion",
	Treasure: "mdungeons_treasure",
	Goblin:   "mdungeons_goblin",
	Ogre:     "mdungeons_ogre",
}

// renderContent draws the level inside a ring of solid tiles, one 16 px sprite per tile, as
// the reference does (so mdungeons-v0 is 160×224).
func renderContent(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	return drawTiles(p.W, p.H, func(x, y int) (string, string) {
		v := p.At(x, y)
		if v < 0 || v >= len(tileSprites) {
			v = Solid
		}
		return tileSprites[v], ""
	})
}

// RenderState draws a game position (for replaying a solution or playing by hand): the items
// still on the map, the exit, and the hero — fallen once the health is gone.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	return drawTiles(l.W, l.H, func(x, y int) (string, string) {
		under := tileSprites[s.Tile(x, y)]
		if player.X == x && player.Y == y {
			if s.Lose() {
				return under, "mdungeons_player_dead"
			}
			return under, "player"
		}
		return under, ""
	})
}

// drawTiles draws a w×h tile map: walls alone, every other cell a floor with up to two sprites
// on top.
func drawTiles(w, h int, sprites func(x, y int) (string, string)) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w*assets.TileSize, h*assets.TileSize))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			base, top := sprites(x, y)
			px, py := x*assets.TileSize, y*assets.TileSize
			if base == "wall" {
				assets.DrawSprite(img, "wall", px, py)
				continue
			}
			assets.DrawSprite(img, "floor", px, py)
			for _, n := range [2]string{base, top} {
				if n != "" {
					assets.DrawSprite(img, n, px, py)
				}
			}
		}
	}
	return img
}
