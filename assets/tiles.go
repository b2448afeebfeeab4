package assets

import "image"

// DrawTiles draws a w×h tile map at TileSize pixels per tile, the way the tile-map problems
// show a level: a cell whose first sprite is "wall" is drawn as its sprites alone, every other
// cell gets a "floor" first and its sprites on top. layers appends the sprite names of cell
// (x, y), bottom first, to buf and returns it; an empty name is skipped, so an empty list or
// "" is bare floor. buf is reused from cell to cell, so a renderer allocates nothing per cell.
func DrawTiles(w, h int, layers func(x, y int, buf []string) []string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w*TileSize, h*TileSize))
	buf := make([]string, 0, 4)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			buf = layers(x, y, buf[:0])
			px, py := x*TileSize, y*TileSize
			if len(buf) == 0 || buf[0] != "wall" {
				DrawSprite(img, "floor", px, py)
			}
			for _, n := range buf {
				if n != "" {
					DrawSprite(img, n, px, py)
				}
			}
		}
	}
	return img
}

// DrawCells is DrawTiles for a row-major w×h map of tile values: value v is the sprite
// names[v], and a value outside names is drawn as names[fallback].
func DrawCells(w, h int, cells []int, names []string, fallback int) *image.RGBA {
	return DrawTiles(w, h, func(x, y int, layers []string) []string {
		v := cells[y*w+x]
		if v < 0 || v >= len(names) {
			v = fallback
		}
		return append(layers, names[v])
	})
}
