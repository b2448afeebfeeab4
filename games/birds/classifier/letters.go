package classifier

import (
	"math"
	"math/rand/v2"
	"strings"
)

// Our own skeleton letters: each capital is one or more variants, a variant is a set of
// polylines in the unit square (x to the right, y up). They are rasterised onto a coarse cell
// grid and built from blocks, the way a competition answer draws a letter.

type pt struct{ x, y float64 }

type stroke []pt

type variant []stroke

func arc(cx, cy, rx, ry, a0, a1 float64) stroke {
	const steps = 24
	s := make(stroke, 0, steps+1)
	for i := 0; i <= steps; i++ {
		a := (a0 + (a1-a0)*float64(i)/steps) * math.Pi / 180
		s = append(s, pt{cx + rx*math.Cos(a), cy + ry*math.Sin(a)})
	}
	return s
}

func join(parts ...stroke) stroke {
	var s stroke
	for _, p := range parts {
		s = append(s, p...)
	}
	return s
}

func line(pts ...float64) stroke {
	s := make(stroke, 0, len(pts)/2)
	for i := 0; i+1 < len(pts); i += 2 {
		s = append(s, pt{pts[i], pts[i+1]})
	}
	return s
}

// skeletons[letter] lists the variants of each letter.
var skeletons = [Classes][]variant{
	'A' - 'A': {
		{line(0, 0, 0.5, 1, 1, 0), line(0.25, 0.45, 0.75, 0.45)},
		{line(0, 0, 0, 1, 1, 1, 1, 0), line(0, 0.5, 1, 0.5)},
		{line(0, 0, 0, 0.7, 0.35, 1, 0.65, 1, 1, 0.7, 1, 0), line(0, 0.45, 1, 0.45)},
	},
	'B' - 'A': {
		{line(0, 0, 0, 1, 0.75, 1, 1, 0.85, 1, 0.65, 0.75, 0.5, 0, 0.5), line(0.75, 0.5, 1, 0.35, 1, 0.15, 0.75, 0, 0, 0)},
		{line(0, 0, 0, 1, 0.8, 1, 0.8, 0.5, 0, 0.5), line(0.8, 0.5, 1, 0.5, 1, 0, 0, 0)},
	},
	'C' - 'A': {
		{line(1, 1, 0, 1, 0, 0, 1, 0)},
		{arc(0.5, 0.5, 0.5, 0.5, 45, 315)},
		{line(1, 1, 0.3, 1, 0, 0.7, 0, 0.3, 0.3, 0, 1, 0)},
	},
	'D' - 'A': {
		{line(0, 0, 0, 1, 0.6, 1, 1, 0.7, 1, 0.3, 0.6, 0, 0, 0)},
		{join(line(0, 0, 0, 1, 0.4, 1), arc(0.4, 0.5, 0.6, 0.5, 90, -90), line(0.4, 0, 0, 0))},
	},
	'E' - 'A': {
		{line(1, 1, 0, 1, 0, 0, 1, 0), line(0, 0.5, 0.8, 0.5)},
		{line(1, 1, 0, 1, 0, 0, 1, 0), line(0, 0.5, 1, 0.5)},
	},
	'F' - 'A': {
		{line(1, 1, 0, 1, 0, 0), line(0, 0.5, 0.8, 0.5)},
		{line(1, 1, 0, 1, 0, 0), line(0, 0.55, 1, 0.55)},
	},
	'G' - 'A': {
		{line(1, 1, 0, 1, 0, 0, 1, 0, 1, 0.5, 0.5, 0.5)},
		{join(arc(0.5, 0.5, 0.5, 0.5, 45, 360), line(1, 0.5, 0.5, 0.5))},
	},
	'H' - 'A': {
		{line(0, 0, 0, 1), line(1, 0, 1, 1), line(0, 0.5, 1, 0.5)},
	},
	'I' - 'A': {
		{line(0.5, 0, 0.5, 1)},
		{line(0.5, 0, 0.5, 1), line(0, 1, 1, 1), line(0, 0, 1, 0)},
	},
	'J' - 'A': {
		{line(1, 1, 1, 0, 0, 0, 0, 0.35)},
		{line(0.2, 1, 1, 1), line(0.75, 1, 0.75, 0, 0, 0, 0, 0.3)},
		{join(line(1, 1, 1, 0.35), arc(0.5, 0.35, 0.5, 0.35, 0, -180))},
	},
	'K' - 'A': {
		{line(0, 0, 0, 1), line(1, 1, 0, 0.5, 1, 0)},
		{line(0, 0, 0, 1), line(1, 1, 0.35, 0.5, 1, 0), line(0, 0.5, 0.35, 0.5)},
	},
	'L' - 'A': {
		{line(0, 1, 0, 0, 1, 0)},
	},
	'M' - 'A': {
		{line(0, 0, 0, 1, 0.5, 0.5, 1, 1, 1, 0)},
		{line(0, 0, 0, 1, 1, 1, 1, 0), line(0.5, 1, 0.5, 0.3)},
		{line(0, 0, 0.15, 1, 0.5, 0.3, 0.85, 1, 1, 0)},
	},
	'N' - 'A': {
		{line(0, 0, 0, 1, 1, 0, 1, 1)},
	},
	'O' - 'A': {
		{line(0, 0, 0, 1, 1, 1, 1, 0, 0, 0)},
		{arc(0.5, 0.5, 0.5, 0.5, 0, 360)},
		{line(0.3, 0, 0, 0.3, 0, 0.7, 0.3, 1, 0.7, 1, 1, 0.7, 1, 0.3, 0.7, 0, 0.3, 0)},
	},
	'P' - 'A': {
		{line(0, 0, 0, 1, 1, 1, 1, 0.5, 0, 0.5)},
		{join(line(0, 0, 0, 1, 0.5, 1), arc(0.5, 0.75, 0.5, 0.25, 90, -90), line(0.5, 0.5, 0, 0.5))},
	},
	'Q' - 'A': {
		{line(0, 0.15, 0, 1, 1, 1, 1, 0.15, 0, 0.15), line(0.6, 0.35, 1, 0)},
		{arc(0.5, 0.55, 0.5, 0.45, 0, 360), line(0.6, 0.3, 1, 0)},
		// Shapes blocks can hold: the tail inside the box, or a foot sticking out.
		{line(0, 0, 0, 1, 1, 1, 1, 0, 0, 0), line(0.5, 0.45, 1, 0)},
		{line(0, 0, 0, 1, 0.75, 1, 0.75, 0, 0, 0), line(0.75, 0, 1, 0)},
	},
	'R' - 'A': {
		{line(0, 0, 0, 1, 1, 1, 1, 0.5, 0, 0.5), line(0.4, 0.5, 1, 0)},
		{line(0, 0, 0, 1, 1, 1, 1, 0.55, 0, 0.55), line(0.7, 0.55, 0.7, 0.3, 1, 0.3, 1, 0)},
	},
	'S' - 'A': {
		{line(1, 1, 0, 1, 0, 0.5, 1, 0.5, 1, 0, 0, 0)},
		{join(arc(0.5, 0.75, 0.5, 0.25, 20, 270), arc(0.5, 0.25, 0.5, 0.25, 90, -160))},
	},
	'T' - 'A': {
		{line(0, 1, 1, 1), line(0.5, 1, 0.5, 0)},
	},
	'U' - 'A': {
		{line(0, 1, 0, 0, 1, 0, 1, 1)},
		{join(line(0, 1, 0, 0.4), arc(0.5, 0.4, 0.5, 0.4, 180, 360), line(1, 0.4, 1, 1))},
	},
	'V' - 'A': {
		{line(0, 1, 0.5, 0, 1, 1)},
		{line(0, 1, 0, 0.5, 0.5, 0, 1, 0.5, 1, 1)},
	},
	'W' - 'A': {
		{line(0, 1, 0.25, 0, 0.5, 0.6, 0.75, 0, 1, 1)},
		{line(0, 1, 0, 0, 1, 0, 1, 1), line(0.5, 0, 0.5, 0.6)},
	},
	'X' - 'A': {
		{line(0, 0, 1, 1), line(0, 1, 1, 0)},
	},
	'Y' - 'A': {
		{line(0, 1, 0.5, 0.5, 1, 1), line(0.5, 0.5, 0.5, 0)},
		{line(0, 1, 0, 0.5, 1, 0.5, 1, 1), line(0.5, 0.5, 0.5, 0)},
	},
	'Z' - 'A': {
		{line(0, 1, 1, 1, 0, 0, 1, 0)},
	},
}

// gridDims picks a random cell grid for a letter: narrow letters narrow, wide letters wide,
// and often squat, as letters stacked from blocks on a 20×16 grid tend to be.
func gridDims(letter int, rng *rand.Rand) (w, h int) {
	h = 4 + rng.IntN(9) // 4..12 rows
	aspect := 0.5 + rng.Float64()
	switch byte('A' + letter) {
	case 'I':
		aspect = 0.1 + 0.5*rng.Float64()
	case 'M', 'W':
		aspect = 0.8 + rng.Float64()
	case 'J', 'L', 'F', 'E', 'P', 'B':
		aspect = 0.4 + 0.8*rng.Float64()
	}
	w = max(int(math.Round(float64(h)*aspect)), 1)
	if byte('A'+letter) != 'I' {
		w = max(w, 3)
	}
	// Bars that start from one column can overhang it by two cells at most (a b31 resting on
	// its end), so these letters only stand when they are three cells wide.
	if strings.IndexByte("BEFPRS", byte('A'+letter)) >= 0 && rng.Float64() < 0.5 {
		w = 3
	}
	return min(w, 18), h
}

// cell is a grid cell, column then row.
type cell struct{ c, r int }

// rasterSkeleton draws a skeleton variant on a w×h cell grid (row 0 at the bottom) with
// 4-connected lines (a block structure cannot hold diagonal contacts), stroke i thick[i] cells
// thick (1 where thick is short). Vertices are jittered a little. It also returns the cells of
// each stroke.
func rasterSkeleton(v variant, w, h int, thick []int, jitter float64, rng *rand.Rand) ([][]bool, [][]cell) {
	g := make([][]bool, h)
	for r := range g {
		g[r] = make([]bool, w)
	}
	strokes := make([][]cell, len(v))
	thickness, current := 1, 0
	set := func(c, r int) {
		for dr := 0; dr < thickness; dr++ {
			for dc := 0; dc < thickness; dc++ {
				cc, rr := min(max(c+dc-(thickness-1)/2, 0), w-1), min(max(r+dr-(thickness-1)/2, 0), h-1)
				g[rr][cc] = true
				strokes[current] = append(strokes[current], cell{cc, rr})
			}
		}
	}
	cell := func(p pt) (int, int) {
		x := p.x + jitter*(rng.Float64()-0.5)
		y := p.y + jitter*(rng.Float64()-0.5)
		c := int(math.Round(x * float64(w-1)))
		r := int(math.Round(y * float64(h-1)))
		return min(max(c, 0), w-1), min(max(r, 0), h-1)
	}
	for si, s := range v {
		if len(s) == 0 {
			continue
		}
		thickness, current = 1, si
		if si < len(thick) {
			thickness = max(thick[si], 1)
		}
		c0, r0 := cell(s[0])
		set(c0, r0)
		for _, p := range s[1:] {
			c1, r1 := cell(p)
			// 4-connected walk from (c0, r0) to (c1, r1), stepping along whichever axis is
			// further behind the straight line.
			dc, dr := c1-c0, r1-r0
			n := abs(dc) + abs(dr)
			c, r := c0, r0
			for i := 0; i < n; i++ {
				// Progress along the line if we step horizontally or vertically.
				if dc != 0 && (dr == 0 || abs(c-c0)*abs(dr) <= abs(r-r0)*abs(dc)) {
					c += sign(dc)
				} else {
					r += sign(dr)
				}
				set(c, r)
			}
			c0, r0 = c1, r1
		}
	}
	return g, strokes
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
