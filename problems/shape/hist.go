package shape

// HorzHist is the reference's get_horz_histogram, bug included: per row, the start of a run is
// set at the first cell in t and never reset, so every later cell not in t adds one at index
// "column - first match", cells in t add nothing, and a run reaching the row's end is not
// counted. The result has g.W entries (float, as numpy's).
func HorzHist(g Grid, t Tiles) []float64 {
	h := make([]float64, g.W)
	for y := 0; y < g.H; y++ {
		row := g.Cells[y*g.W : (y+1)*g.W]
		start := -1
		for x, c := range row {
			if t.Has(c) {
				if start < 0 {
					start = x
				}
			} else if start >= 0 {
				h[x-start]++
			}
		}
	}
	return h
}

// VertHist is HorzHist down the columns (the reference's get_vert_histogram), g.H entries.
func VertHist(g Grid, t Tiles) []float64 {
	h := make([]float64, g.H)
	for x := 0; x < g.W; x++ {
		start := -1
		for y := 0; y < g.H; y++ {
			if t.Has(g.Cells[y*g.W+x]) {
				if start < 0 {
					start = y
				}
			} else if start >= 0 {
				h[y-start]++
			}
		}
	}
	return h
}
