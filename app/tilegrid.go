package app

import (
	"image"
	"image/draw"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// tileGrid is a tile problem's shape: Rows × Cols cells, each an integer tile in [Min, Max)
// (the level import/export package's Grid: one definition).
type tileGrid = levelio.Grid

// gridTiles lists a grid's tile values in order.
func gridTiles(g tileGrid) []int {
	out := make([]int, 0, g.Max-g.Min)
	for v := g.Min; v < g.Max; v++ {
		out = append(out, v)
	}
	return out
}

// tileGridOf reports whether p's content is a 2-D grid of integer tiles (the problems the
// editor can paint), and its shape.
func tileGridOf(p problems.Problem) (tileGrid, bool) { return levelio.GridOf(p) }

// gridOfContent copies a normalized grid content into rows of ints; the contents here come
// from the problem's own space, so a malformed one (never expected) reads as an empty grid.
func gridOfContent(c problems.Content) [][]int {
	g, err := levelio.Cells(c)
	if err != nil {
		return nil
	}
	return g
}

// contentOfGrid is the inverse of gridOfContent: the grid as a content (rows of []any of int).
func contentOfGrid(g [][]int) problems.Content { return levelio.ContentOf(g) }

// filledGrid is a rows × cols grid of one tile.
func filledGrid(rows, cols, tile int) [][]int {
	g := make([][]int, rows)
	for y := range g {
		g[y] = make([]int, cols)
		for x := range g[y] {
			g[y][x] = tile
		}
	}
	return g
}

// gridGeometry finds where the cells of a rows × cols grid are in its w × h picture: the tile
// edge in pixels and the offset of cell (0, 0). Problems draw one atlas sprite per tile,
// usually inside a ring of border tiles, so the atlas size with a symmetric border is tried
// first, then the largest tile that fits with a centred border.
func gridGeometry(w, h, rows, cols int) (tile, offX, offY int, ok bool) {
	if rows < 1 || cols < 1 || w < cols || h < rows {
		return 0, 0, 0, false
	}
	try := func(t int) bool {
		px, py := w-cols*t, h-rows*t
		if t < 1 || px < 0 || py < 0 || px%2 != 0 || py%2 != 0 {
			return false
		}
		tile, offX, offY = t, px/2, py/2
		return true
	}
	if try(assets.TileSize) && offX%assets.TileSize == 0 && offY%assets.TileSize == 0 {
		return tile, offX, offY, true
	}
	for t := min(w/cols, h/rows); t >= 1; t-- {
		if try(t) {
			return tile, offX, offY, true
		}
	}
	return 0, 0, 0, false
}

// cellAt maps a pixel of the picture to a grid cell; ok is false outside the grid.
func cellAt(px, py, tile, offX, offY, rows, cols int) (row, col int, ok bool) {
	if tile < 1 || px < offX || py < offY {
		return 0, 0, false
	}
	col, row = (px-offX)/tile, (py-offY)/tile
	return row, col, row < rows && col < cols
}

// tileSwatches draws each tile value the way the problem's Render does: a grid filled with
// that tile, cut to one cell. A value whose picture fails (or whose geometry cannot be found)
// gets a nil swatch.
func tileSwatches(p problems.Problem, g tileGrid) []image.Image {
	out := make([]image.Image, 0, g.Max-g.Min)
	for _, v := range gridTiles(g) {
		img, err := safeRender(p, contentOfGrid(filledGrid(g.Rows, g.Cols, v)))
		if err != nil {
			out = append(out, nil)
			continue
		}
		b := img.Bounds()
		tile, ox, oy, ok := gridGeometry(b.Dx(), b.Dy(), g.Rows, g.Cols)
		if !ok {
			out = append(out, nil)
			continue
		}
		// the middle cell: the corners of some renders join the border
		cx, cy := ox+(g.Cols/2)*tile, oy+(g.Rows/2)*tile
		sw := image.NewRGBA(image.Rect(0, 0, tile, tile))
		draw.Draw(sw, sw.Bounds(), img, b.Min.Add(image.Pt(cx, cy)), draw.Src)
		out = append(out, sw)
	}
	return out
}
