package loderunnertile

import (
	"fmt"
	"math"
	"strconv"

	"pcgwb/problems/data"
	"pcgwb/problems/shape"
)

// Tile codes.
const (
	Brick = iota
	Empty
	Player
	Gold
	Enemy
	Ladder
	Rope
	NumTiles
)

// Exploration values: how the simplified player occupies a cell it reaches.
const (
	Unreached = iota
	Walking
	Climbing
	Hanging
	Falling
)

// Explore is the reference's play_loderunner: the cells a simplified player reaches from the
// first player tile (scan order), each marked with how it is there (Walking, Climbing on a
// ladder, Hanging on a rope, Falling). Gold, enemies and the player are empty space to it; it
// moves one cell per step left, right, up (only on a ladder) or down (on a ladder or a rope),
// never into brick, and falls through empty cells that are not above brick or a ladder.
//
// The reference searches states (x, y, falling), but falling is always the same function of
// (x, y) (it is recomputed from the position after every move, and initially), so a search
// over positions reaches the same cells with the same values; the order of the visits, which
// decides which value a cell keeps in the reference, therefore does not matter either.
func Explore(level shape.Grid) Map {
	w, h := level.W, level.H
	e := Map{W: w, H: h, Cells: make([]uint8, w*h)}
	start, ok := shape.First(level, shape.TilesOf(Player))
	if !ok {
		return e
	}
	tile := func(x, y int) int {
		if t := level.Cells[y*w+x]; t != Player && t != Gold && t != Enemy {
			return t
		}
		return Empty
	}
	falling := func(x, y int) bool {
		if y >= h-1 || tile(x, y) != Empty {
			return false
		}
		below := tile(x, y+1)
		return below != Brick && below != Ladder
	}
	seen := make([]bool, w*h)
	queue := make([]int32, 0, w*h)
	push := func(x, y int) {
		if i := y*w + x; !seen[i] {
			seen[i] = true
			queue = append(queue, int32(i))
		}
	}
	push(start.X, start.Y)
	for head := 0; head < len(queue); head++ {
		x, y := int(queue[head])%w, int(queue[head])/w
		if falling(x, y) {
			e.Cells[y*w+x] = Falling
			push(x, y+1)
			continue
		}
		switch tile(x, y) {
		case Rope:
			e.Cells[y*w+x] = Hanging
		case Ladder:
			e.Cells[y*w+x] = Climbing
		default:
			e.Cells[y*w+x] = Walking
		}
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			nx, ny := x, y
			if d[1] != 0 {
				yy := min(max(y+d[1], 0), h-1)
				if tile(x, yy) != Brick && (tile(x, y) == Ladder || tile(x, y) == Rope && d[1] > 0) {
					ny = yy
				}
			}
			if d[0] != 0 {
				xx := min(max(x+d[0], 0), w-1)
				if tile(xx, ny) != Brick {
					nx = xx
				}
			}
			push(nx, ny)
		}
	}
	return e
}

// Map is an exploration map (values Unreached … Falling), row-major. It marshals as rows of
// ints, the reference's info["exploration"].
type Map struct {
	W, H  int
	Cells []uint8
}

// At is the value at column x, row y.
func (m Map) At(x, y int) int { return int(m.Cells[y*m.W+x]) }

// Grid converts the map to a shape.Grid (for the histograms).
func (m Map) Grid() shape.Grid {
	g := shape.NewGrid(m.W, m.H)
	for i, v := range m.Cells {
		g.Cells[i] = int(v)
	}
	return g
}

// MarshalJSON writes rows of ints.
func (m Map) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2*len(m.Cells)+2*m.H+2)
	b = append(b, '[')
	for y := 0; y < m.H; y++ {
		if y > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for x := 0; x < m.W; x++ {
			if x > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(m.Cells[y*m.W+x]), 10)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// Distributions are the four normalised run-length histograms of an exploration map:
// walking and hanging along rows, climbing and falling down columns (shape.HorzHist /
// VertHist, with the reference's never-reset run start).
type Distributions struct {
	Walking, Hanging, Climbing, Falling []float64
}

func histograms(e shape.Grid) Distributions {
	return Distributions{
		Walking:  shape.HorzHist(e, shape.TilesOf(Walking)),
		Hanging:  shape.HorzHist(e, shape.TilesOf(Hanging)),
		Climbing: shape.VertHist(e, shape.TilesOf(Climbing)),
		Falling:  shape.VertHist(e, shape.TilesOf(Falling)),
	}
}

func (d Distributions) each(f func(*[]float64)) {
	f(&d.Walking)
	f(&d.Hanging)
	f(&d.Climbing)
	f(&d.Falling)
}

// sum is Python's sum() over the array: sequential (the values are counts, so exact anyway).
func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func scale(v []float64, by float64) {
	for i := range v {
		v[i] /= by
	}
}

var reference = data.NewLazy(func() (*Distributions, error) {
	levels, err := data.Levels()
	if err != nil {
		return nil, err
	}
	var ref *Distributions
	for _, rows := range levels {
		d := histograms(Explore(gridOf(rows)).Grid())
		if ref == nil {
			ref = &d
			continue
		}
		add := func(dst, src []float64) {
			for i := range dst {
				dst[i] += src[i]
			}
		}
		add(ref.Walking, d.Walking)
		add(ref.Hanging, d.Hanging)
		add(ref.Climbing, d.Climbing)
		add(ref.Falling, d.Falling)
	}
	var bad error
	ref.each(func(v *[]float64) {
		s := sum(*v)
		if s == 0 {
			bad = fmt.Errorf("lode runner levels: a reference histogram is empty")
		}
		scale(*v, s)
	})
	return ref, bad
})

// ReferenceDistributions are the histograms of the five shipped levels, summed and
// normalised (loaded once per process).
func ReferenceDistributions() (*Distributions, error) { return reference.Get() }

func gridOf(rows [][]int) shape.Grid {
	g := shape.NewGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		copy(g.Cells[y*g.W:], r)
	}
	return g
}

// JSDistance is the reference's js_dist: sqrt(KL(p,m)/2 + KL(q,m)/2) with m = (p+q)/2, KL in
// bits summed left to right over the entries where both sides are positive.
func JSDistance(p, q []float64) float64 {
	m := make([]float64, len(p))
	for i := range p {
		m[i] = 0.5 * (p[i] + q[i])
	}
	return math.Sqrt(0.5*kl(p, m) + 0.5*kl(q, m))
}

func kl(p, q []float64) float64 {
	s := 0.0
	for i := range p {
		if p[i] > 0 && q[i] > 0 {
			s += p[i] * math.Log2(p[i]/q[i])
		}
	}
	return s
}
