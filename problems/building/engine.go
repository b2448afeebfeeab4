package building

import (
	"fmt"
	"math/bits"
)

// Block types, in the reference's numbering. The footprint is width along x by depth along y.
const (
	Type1x1 = iota
	Type1x3
	Type3x1
	Type3x3
	numTypes
)

var footprints = [numTypes]struct{ w, d int }{{1, 1}, {3, 1}, {1, 3}, {3, 3}}

// Block is one entry of a content: the column it is dropped onto and its shape.
type Block struct{ X, Y, Type int }

// landing is where a dropped block came to rest: its footprint's corner, size and level.
type landing struct{ x0, y0, w, d, z, t int }

// Tower is the drop simulation. A block falls until some cell of its footprint sits on an
// occupied cell, so it lands at the highest column top under its footprint; the columns'
// tops and occupied levels are all the state the rules need, no 3-D volume.
type Tower struct {
	W, L, H int
	// top is, per column y*W+x, one above its highest occupied level (0 when empty).
	top []int
	// occupied is, per column, a bit per level.
	occupied []uint64
	landed   []landing
	// Failed counts blocks that found no room below the ceiling.
	Failed int
}

// maxHeight bounds H so a column's levels fit one word.
const maxHeight = 64

// NewTower makes an empty W×L×H tower. Footprints are up to 3 wide, so W and L must be at
// least 3 (the reference would index out of its grid otherwise).
func NewTower(w, l, h int) (*Tower, error) {
	if w < 3 || l < 3 || h < 1 || h > maxHeight {
		return nil, fmt.Errorf("building: a %d×%d×%d tower is not supported (width and length ≥ 3, 1 ≤ height ≤ %d)", w, l, h, maxHeight)
	}
	return &Tower{W: w, L: l, H: h, top: make([]int, w*l), occupied: make([]uint64, w*l)}, nil
}

// Reset empties the tower for reuse.
func (t *Tower) Reset() {
	clear(t.top)
	clear(t.occupied)
	t.landed = t.landed[:0]
	t.Failed = 0
}

// Drop lets a block fall and reports whether it landed. A footprint that would stick out of
// the grid is pushed back inside, as the reference does.
func (t *Tower) Drop(b Block) bool {
	f := footprints[b.Type]
	x0, y0 := min(b.X, t.W-f.w), min(b.Y, t.L-f.d)
	z := 0
	for y := y0; y < y0+f.d; y++ {
		for _, top := range t.top[y*t.W+x0 : y*t.W+x0+f.w] {
			z = max(z, top)
		}
	}
	if z >= t.H {
		t.Failed++
		return false
	}
	for y := y0; y < y0+f.d; y++ {
		row := y * t.W
		for x := x0; x < x0+f.w; x++ {
			t.top[row+x] = z + 1
			t.occupied[row+x] |= 1 << uint(z)
		}
	}
	t.landed = append(t.landed, landing{x0, y0, f.w, f.d, z, b.Type})
	return true
}

// Heights appends, column by column (y, then x), the top level (1-based) of every contiguous
// vertical run of blocks, highest run first: the reference's heights list.
func (t *Tower) Heights(dst []int) []int {
	for _, occ := range t.occupied {
		runTops := occ &^ (occ >> 1)
		for runTops != 0 {
			z := bits.Len64(runTops) - 1
			dst = append(dst, z+1)
			runTops &^= 1 << uint(z)
		}
	}
	return dst
}

// numRuns is len(Heights(nil)) without building it.
func (t *Tower) numRuns() int {
	n := 0
	for _, occ := range t.occupied {
		n += bits.OnesCount64(occ &^ (occ >> 1))
	}
	return n
}

// Volume is the filled tower as the reference's H×L×W array, index (z*L+y)*W+x, holding
// type+1 in occupied cells and 0 elsewhere.
func (t *Tower) Volume() []uint8 {
	v := make([]uint8, t.H*t.L*t.W)
	for _, b := range t.landed {
		for y := b.y0; y < b.y0+b.d; y++ {
			for x := b.x0; x < b.x0+b.w; x++ {
				v[(b.z*t.L+y)*t.W+x] = uint8(b.t + 1)
			}
		}
	}
	return v
}

// orientation is the reference's normalisation of one block type's mask: an optional swap of
// the x and y axes, then a cyclic roll by (-shiftY, -shiftX).
type orientation struct {
	shiftX, shiftY int
	transpose      bool
}

// orient computes the orientation of the mask of block type bt. The reference scans layers
// bottom-up keeping the smallest x (y) seen so far and the largest extent measured from that
// running minimum, so a later layer's extent is measured from a possibly smaller origin; the
// axes are swapped when the y extent is larger. bounds is scratch space of 4*H ints.
func (t *Tower) orient(bt int, bounds []int) orientation {
	minX, maxX, minY, maxY := bounds[:t.H], bounds[t.H:2*t.H], bounds[2*t.H:3*t.H], bounds[3*t.H:4*t.H]
	for z := range t.H {
		minX[z], maxX[z], minY[z], maxY[z] = t.W, -1, t.L, -1
	}
	for _, b := range t.landed {
		if b.t != bt {
			continue
		}
		minX[b.z] = min(minX[b.z], b.x0)
		maxX[b.z] = max(maxX[b.z], b.x0+b.w-1)
		minY[b.z] = min(minY[b.z], b.y0)
		maxY[b.z] = max(maxY[b.z], b.y0+b.d-1)
	}
	o := orientation{shiftX: t.W, shiftY: t.L}
	spanX, spanY := 0, 0
	for z := range t.H {
		if maxX[z] < 0 {
			continue
		}
		o.shiftX = min(o.shiftX, minX[z])
		spanX = max(spanX, maxX[z]-o.shiftX)
		o.shiftY = min(o.shiftY, minY[z])
		spanY = max(spanY, maxY[z]-o.shiftY)
	}
	o.transpose = spanY > spanX
	return o
}

// orientedMask writes the oriented 0/1 mask of block type bt into dst (a zeroed bitset of
// H*L*W bits, index (z*L+y)*W+x). After a transpose the reference still rolls axis 1 by the
// y shift and axis 2 by the x shift, although those axes now hold x and y: kept, as the
// golden masks depend on it. Transposing requires a square grid (the constructor checks).
func (t *Tower) orientedMask(bt int, o orientation, dst []uint64) {
	for _, b := range t.landed {
		if b.t != bt {
			continue
		}
		layer := b.z * t.L
		for y := b.y0; y < b.y0+b.d; y++ {
			for x := b.x0; x < b.x0+b.w; x++ {
				row, col := y, x
				if o.transpose {
					row, col = x, y
				}
				row = mod(row-o.shiftY, t.L)
				col = mod(col-o.shiftX, t.W)
				i := (layer+row)*t.W + col
				dst[i>>6] |= 1 << uint(i&63)
			}
		}
	}
}

func mod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}
