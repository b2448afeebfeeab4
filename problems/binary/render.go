package binary

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

// render draws the level inside a ring of solid tiles, one 16 px sprite per tile, as the
// reference does (so binary-v0 is 256×256).
func render(g shape.Grid) image.Image {
	p := g.Padded(Solid)
	names := make([][]string, p.H)
	for y := range names {
		names[y] = make([]string, p.W)
		for x := range names[y] {
			if p.At(x, y) == Empty {
				names[y][x] = "binary_empty"
			} else {
				names[y][x] = "binary_solid"
			}
		}
	}
	return assets.TileMap(names)
}
