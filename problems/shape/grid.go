package shape

import "fmt"

// Point is a grid location: X column, Y row.
type Point struct{ X, Y int }

// Grid is a row-major 2-D tile map: Cells[y*W+x].
type Grid struct {
	W, H  int
	Cells []int
}

// NewGrid makes an all-zero grid.
func NewGrid(w, h int) Grid { return Grid{W: w, H: h, Cells: make([]int, w*h)} }

// At is the tile at column x, row y.
func (g Grid) At(x, y int) int { return g.Cells[y*g.W+x] }

// Set writes the tile at column x, row y.
func (g Grid) Set(x, y, v int) { g.Cells[y*g.W+x] = v }

// In reports whether (x, y) lies inside the grid.
func (g Grid) In(x, y int) bool { return x >= 0 && y >= 0 && x < g.W && y < g.H }

// Clone copies the grid.
func (g Grid) Clone() Grid { return Grid{W: g.W, H: g.H, Cells: append([]int(nil), g.Cells...)} }

// Rows converts back to the reference's list-of-lists representation: a copy of the cells in
// one backing array, each row capped at its own end so that appending to a row never writes
// into the next.
func (g Grid) Rows() [][]int {
	cells := append([]int(nil), g.Cells...)
	out := make([][]int, g.H)
	for y := range out {
		out[y] = cells[y*g.W : (y+1)*g.W : (y+1)*g.W]
	}
	return out
}

// Padded returns the grid with a ring of border tiles around it (padded coordinates are the
// unpadded ones plus 1).
func (g Grid) Padded(border int) Grid {
	p := NewGrid(g.W+2, g.H+2)
	for i := range p.Cells {
		p.Cells[i] = border
	}
	for y := 0; y < g.H; y++ {
		copy(p.Cells[(y+1)*p.W+1:], g.Cells[y*g.W:(y+1)*g.W])
	}
	return p
}

// GridFromContent reads a normalized content (rows of ints, as the spaces produce) into a Grid.
func GridFromContent(v any) (Grid, error) {
	rows, ok := v.([]any)
	if !ok || len(rows) == 0 {
		return Grid{}, fmt.Errorf("content is not a non-empty list of rows")
	}
	first, ok := rows[0].([]any)
	if !ok {
		return Grid{}, fmt.Errorf("content[0] is not a list")
	}
	g := NewGrid(len(first), len(rows))
	for y, r := range rows {
		row, ok := r.([]any)
		if !ok || len(row) != g.W {
			return Grid{}, fmt.Errorf("content[%d] is not a row of %d tiles", y, g.W)
		}
		for x, c := range row {
			n, ok := c.(int)
			if !ok {
				f, isF := c.(float64)
				if !isF {
					return Grid{}, fmt.Errorf("content[%d][%d] is not an integer", y, x)
				}
				n = int(f)
			}
			g.Cells[y*g.W+x] = n
		}
	}
	return g, nil
}

// GridContent converts rows of ints to the JSON-shaped content representation.
func GridContent(g Grid) any {
	rows := make([]any, g.H)
	for y := range rows {
		row := make([]any, g.W)
		for x := range row {
			row[x] = g.Cells[y*g.W+x]
		}
		rows[y] = row
	}
	return rows
}

// Tiles is a set of tile values (0..63), the reference's "passable values" lists.
type Tiles uint64

// TilesOf builds a set from values.
func TilesOf(values ...int) Tiles {
	var t Tiles
	for _, v := range values {
		t |= 1 << uint(v)
	}
	return t
}

// TileRange is the set {lo, ..., hi}.
func TileRange(lo, hi int) Tiles {
	var t Tiles
	for v := lo; v <= hi; v++ {
		t |= 1 << uint(v)
	}
	return t
}

// Has reports membership; values outside 0..63 are never members.
func (t Tiles) Has(v int) bool { return v >= 0 && v < 64 && t&(1<<uint(v)) != 0 }

// Find lists the cells whose tile is in t, in scan order (the reference's _get_certain_tiles).
func Find(g Grid, t Tiles) []Point {
	var out []Point
	for i, c := range g.Cells {
		if t.Has(c) {
			out = append(out, Point{i % g.W, i / g.W})
		}
	}
	return out
}

// First is the first cell (scan order) whose tile is in t.
func First(g Grid, t Tiles) (Point, bool) {
	for i, c := range g.Cells {
		if t.Has(c) {
			return Point{i % g.W, i / g.W}, true
		}
	}
	return Point{}, false
}

// Count is the number of cells whose tile is in t (the reference's get_num_tiles).
func Count(g Grid, t Tiles) int {
	n := 0
	for _, c := range g.Cells {
		if t.Has(c) {
			n++
		}
	}
	return n
}
