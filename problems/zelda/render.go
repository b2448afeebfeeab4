package zelda

import (
	"image"

	"pcgwb/assets"
	"pcgwb/problems/shape"
)

var sprites = [...]string{
	Wall:   "wall",
	Empty:  "", // bare floor
	Player: "player",
	Key:    "zelda_key",
	Door:   "zelda_door",
	Enemy:  "zelda_bat",
}

// render draws the room inside a ring of walls (208×144 for zelda-v0); everything that is not
// a wall stands on a floor tile, and a value outside the tile set is drawn as a wall.
func render(g shape.Grid) image.Image {
	p := g.Padded(Wall)
	return assets.DrawCells(p.W, p.H, p.Cells, sprites[:], Wall)
}
