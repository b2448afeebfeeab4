package zelda

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var sprites = [...]string{
	Wall:   "wall",
	Player: "player",
	Key:    "zelda_key",
	Door:   "zelda_door",
	Enemy:  "zelda_bat",
}

// render draws the room inside a ring of walls (208×144 for zelda-v0); everything that is not
// a wall stands on a floor tile.
func render(g shape.Grid) image.Image {
	p := g.Padded(Wall)
	img := image.NewRGBA(image.Rect(0, 0, p.W*assets.TileSize, p.H*assets.TileSize))
	for y := 0; y < p.H; y++ {
		for x := 0; x < p.W; x++ {
			t := p.At(x, y)
			px, py := x*assets.TileSize, y*assets.TileSize
			if t == Wall || t < 0 || t >= len(sprites) {
				assets.DrawSprite(img, "wall", px, py)
				continue
			}
			assets.DrawSprite(img, "floor", px, py)
			if t != Empty {
				assets.DrawSprite(img, sprites[t], px, py)
			}
		}
	}
	return img
}
