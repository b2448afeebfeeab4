package shape

// LongestPathEnds is LongestPath with the two cells it measured between: the first farthest
// cell of the best region's first sweep (from) and the first cell of its second sweep at the
// winning distance (to). The same sweeps and tie rules as LongestPath, so length always equals
// LongestPath(g, t); play views start a walk at one end and put the goal at the other. With no
// cell of t, ok is false.
func LongestPathEnds(g Grid, t Tiles) (length int, from, to Point, ok bool) {
	seen := make([]bool, len(g.Cells))
	for i, c := range g.Cells {
		if !t.Has(c) || seen[i] {
			continue
		}
		dist := BFS(g, i%g.W, i/g.W, t)
		far, farD := 0, dist[0]
		for k, d := range dist {
			if d >= 0 {
				seen[k] = true
			}
			if d > farD {
				far, farD = k, d
			}
		}
		farPoint := Point{far % g.W, far / g.W}
		if !ok {
			// A region of one cell: both ends are that cell until a longer path turns up.
			from, to, ok = farPoint, farPoint, true
		}
		for k, d := range BFS(g, farPoint.X, farPoint.Y, t) {
			if d > length {
				length, from, to = d, farPoint, Point{k % g.W, k / g.W}
			}
		}
	}
	return length, from, to, ok
}
