package ddave

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var tileSprites = [...]string{
	Solid:   "wall",
	Empty:   "",
	Player:  "player",
	Exit:    "ddave_door",
	Diamond: "ddave_diamond",
	Key:     "ddave_key",
	Spike:   "ddave_spike",
}

// renderContent draws the (repaired) level inside a ring of solid tiles, one 16 px sprite per
// tile, as the reference does (so ddave-v0 is 208×144).
func renderContent(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	return drawTiles(p.W, p.H, func(x, y int) []string {
		v := p.At(x, y)
		if v < 0 || v >= len(tileSprites) {
			v = Solid
		}
		return []string{tileSprites[v]}
	})
}

// RenderState draws a game position (for replaying a solution or playing by hand): walls,
// spikes, the door, the diamonds and key still lying on the map, the target of a reachability
// run, and the player — lying on the spikes once dead.
func RenderState(s State) image.Image {
	l := s.Level()
	player := s.Player()
	door := l.Door()
	target, hasTarget := l.Target()
	return drawTiles(l.W, l.H, func(x, y int) []string {
		if l.Solid(x, y) {
			return []string{"wall"}
		}
		var layers []string
		switch {
		case door.X == x && door.Y == y:
			layers = append(layers, "ddave_door")
		case l.Spike(x, y) && !(player.X == x && player.Y == y && s.Lose()):
			layers = append(layers, "ddave_spike")
		case s.DiamondAt(x, y):
			layers = append(layers, "ddave_diamond")
		case s.KeyAt(x, y):
			layers = append(layers, "ddave_key")
		}
		if hasTarget && target.X == x && target.Y == y {
			layers = append(layers, "ddave_target")
		}
		if player.X == x && player.Y == y {
			if s.Lose() {
				layers = append(layers, "ddave_player_dead")
			} else {
				layers = append(layers, "player")
			}
		}
		return layers
	})
}

// drawTiles draws a w×h tile map: walls alone, every other cell a floor with its layers on top.
func drawTiles(w, h int, layers func(x, y int) []string) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w*assets.TileSize, h*assets.TileSize))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			names := layers(x, y)
			px, py := x*assets.TileSize, y*assets.TileSize
			if len(names) == 0 || names[0] != "wall" {
				assets.DrawSprite(img, "floor", px, py)
			}
			for _, n := range names {
				if n != "" {
					assets.DrawSprite(img, n, px, py)
				}
			}
		}
	}
	return img
}
