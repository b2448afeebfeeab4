package shape

// neighbours is the reference's expansion order everywhere: left, right, up, down.
var neighbours = [4]Point{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// Neighbours returns the four directions in the reference's order.
func Neighbours() [4]Point { return neighbours }

// BFS is the reference's "dijkstra": distances from (x, y) over passable tiles, -1 where
// unreached (everything, if the start itself is not passable). Row-major like the grid.
func BFS(g Grid, x, y int, pass Tiles) []int {
	dist := make([]int, len(g.Cells))
	for i := range dist {
		dist[i] = -1
	}
	bfsInto(g, x, y, pass, dist, make([]int, 0, len(g.Cells)))
	return dist
}

// bfsInto fills dist (preset to -1) and returns the queue buffer for reuse.
func bfsInto(g Grid, x, y int, pass Tiles, dist []int, queue []int) []int {
	if !g.In(x, y) || !pass.Has(g.At(x, y)) {
		return queue
	}
	start := y*g.W + x
	dist[start] = 0
	queue = append(queue[:0], start)
	for h := 0; h < len(queue); h++ {
		c := queue[h]
		cx, cy := c%g.W, c/g.W
		for _, d := range neighbours {
			nx, ny := cx+d.X, cy+d.Y
			if nx < 0 || ny < 0 || nx >= g.W || ny >= g.H {
				continue
			}
			n := ny*g.W + nx
			if dist[n] >= 0 || !pass.Has(g.Cells[n]) {
				continue
			}
			dist[n] = dist[c] + 1
			queue = append(queue, n)
		}
	}
	return queue
}

// Backtrack is the reference's _get_path: walk from (sx, sy) down the distance map to the BFS
// source, choosing the first strictly smaller neighbour in left/right/up/down order, and return
// the path source→target. Empty when the target's distance is 0 or -1.
func Backtrack(w, h int, dist []int, sx, sy int) []Point {
	var path []Point
	cx, cy := sx, sy
	for dist[cy*w+cx] > 0 {
		path = append(path, Point{cx, cy})
		bx, by := cx, cy
		for _, d := range neighbours {
			nx, ny := cx+d.X, cy+d.Y
			if nx < 0 || ny < 0 || nx >= w || ny >= h || dist[ny*w+nx] < 0 {
				continue
			}
			if dist[ny*w+nx] < dist[by*w+bx] {
				bx, by = nx, ny
			}
		}
		if bx == cx && by == cy {
			break
		}
		cx, cy = bx, by
	}
	if len(path) > 0 {
		path = append(path, Point{cx, cy})
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// Regions is the reference's get_number_regions: the number of 4-connected regions of tiles in t.
func Regions(g Grid, t Tiles) int {
	seen := make([]bool, len(g.Cells))
	queue := make([]int, 0, len(g.Cells))
	n := 0
	for i, c := range g.Cells {
		if !t.Has(c) || seen[i] {
			continue
		}
		var size int
		queue, size = flood(g, i, t, seen, queue)
		if size > 0 {
			n++
		}
	}
	return n
}

// RegionSizes is the reference's get_regions_size: flood fills seeded at locations in order;
// fills that colour nothing (already coloured, or not passable) are skipped, so the result can
// be shorter than locations.
func RegionSizes(g Grid, locations []Point, t Tiles) []int {
	seen := make([]bool, len(g.Cells))
	queue := make([]int, 0, len(g.Cells))
	var out []int
	for _, p := range locations {
		if !g.In(p.X, p.Y) {
			continue
		}
		var size int
		queue, size = flood(g, p.Y*g.W+p.X, t, seen, queue)
		if size > 0 {
			out = append(out, size)
		}
	}
	return out
}

func flood(g Grid, start int, t Tiles, seen []bool, queue []int) ([]int, int) {
	if seen[start] || !t.Has(g.Cells[start]) {
		return queue, 0
	}
	seen[start] = true
	queue = append(queue[:0], start)
	for h := 0; h < len(queue); h++ {
		c := queue[h]
		cx, cy := c%g.W, c/g.W
		for _, d := range neighbours {
			nx, ny := cx+d.X, cy+d.Y
			if nx < 0 || ny < 0 || nx >= g.W || ny >= g.H {
				continue
			}
			n := ny*g.W + nx
			if seen[n] || !t.Has(g.Cells[n]) {
				continue
			}
			seen[n] = true
			queue = append(queue, n)
		}
	}
	return queue, len(queue)
}

// LongestPath is the reference's get_longest_path: for each unvisited tile of t in scan order, a
// BFS, then a second BFS from the first farthest cell (row-major first maximum); the best second
// sweep wins. Not an exact diameter, so the tie rule matters.
func LongestPath(g Grid, t Tiles) int {
	n := len(g.Cells)
	seen := make([]bool, n)
	dist := make([]int, n)
	queue := make([]int, 0, n)
	best := 0
	for i, c := range g.Cells {
		if !t.Has(c) || seen[i] {
			continue
		}
		for k := range dist {
			dist[k] = -1
		}
		queue = bfsInto(g, i%g.W, i/g.W, t, dist, queue)
		far, farD := 0, dist[0]
		for k, d := range dist {
			if d >= 0 {
				seen[k] = true
			}
			if d > farD {
				far, farD = k, d
			}
		}
		for k := range dist {
			dist[k] = -1
		}
		queue = bfsInto(g, far%g.W, far/g.W, t, dist, queue)
		for _, d := range dist {
			if d > best {
				best = d
			}
		}
	}
	return best
}

// Distance is the reference's get_distance_length: BFS distance from the first tile of value
// from to the first tile of value to (scan order); -1 if either is missing or unreachable.
func Distance(g Grid, from, to int, pass Tiles) int {
	s, ok1 := First(g, TilesOf(from))
	e, ok2 := First(g, TilesOf(to))
	if !ok1 || !ok2 {
		return -1
	}
	return BFS(g, s.X, s.Y, pass)[e.Y*g.W+e.X]
}

// Path is the reference's get_path: the back-tracked BFS path between the first tiles of the
// two values (empty if either is missing or unreachable).
func Path(g Grid, from, to int, pass Tiles) []Point {
	s, ok1 := First(g, TilesOf(from))
	e, ok2 := First(g, TilesOf(to))
	if !ok1 || !ok2 {
		return nil
	}
	return Backtrack(g.W, g.H, BFS(g, s.X, s.Y, pass), e.X, e.Y)
}
