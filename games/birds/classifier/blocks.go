package classifier

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"pcgwb/games/birds"
)

// buildProgram writes drop_block calls that stack blocks into the cell pattern target
// (target[r][c], row 0 at the bottom), placed with its left column at x0 on the 20-column grid.
// It works bottom-up like a person would: a b13 where three cells of a column are wanted, a b31
// across three wanted cells of a row, b11 elsewhere — but only where the block comes to rest
// exactly there (dropped blocks cannot hang in the air or slide under an overhang). A b31 may
// overhang cells nothing supports; wanted cells that no block can reach are left out. The
// converter then decides what really happens.
func buildProgram(target [][]bool, x0 int, rng *rand.Rand) string {
	h := len(target)
	if h == 0 {
		return ""
	}
	w := len(target[0])
	height := make([]int, w) // first free row of each column
	done := make([][]bool, h)
	for r := range done {
		done[r] = make([]bool, w)
	}
	want := func(c, r int) bool { return c >= 0 && c < w && r >= 0 && r < h && target[r][c] && !done[r][c] }
	var b strings.Builder
	emit := func(kind string, col int) { fmt.Fprintf(&b, "drop_block('%s', %d)\n", kind, x0+col) }
	preferTall := rng.Float64() < 0.6
	preferWide := rng.Float64() < 0.8
	for r := 0; r < h; r++ {
		for c := 0; c < w; c++ {
			if !want(c, r) {
				continue
			}
			// b31 centred on c+1 or on c (the latter reaching back over a free cell is not
			// allowed: the cell at c−1 would have to be wanted and not done).
			if preferWide && x0+c+2 < birds.GridWidth && want(c+1, r) && want(c+2, r) {
				top := max(height[c], height[c+1], height[c+2])
				if top == r {
					emit("b31", c+1)
					for k := 0; k < 3; k++ {
						done[r][c+k] = true
						height[c+k] = r + 1
					}
					continue
				}
			}
			if height[c] == r {
				if preferTall && want(c, r+1) && want(c, r+2) {
					emit("b13", c)
					done[r][c], done[r+1][c], done[r+2][c] = true, true, true
					height[c] = r + 3
					continue
				}
				emit("b11", c)
				done[r][c] = true
				height[c] = r + 1
				continue
			}
			// Unsupported: a b31 whose footprint reaches a supported column at this row may
			// carry it, overhanging by up to two cells.
			for _, centre := range []int{c + 1, c - 1} {
				lo, hi := centre-1, centre+1
				if lo < 0 || hi >= w || x0+lo < 0 || x0+hi >= birds.GridWidth {
					continue
				}
				if max(height[lo], height[centre], height[hi]) != r {
					continue
				}
				extra := 0
				for k := lo; k <= hi; k++ {
					if !want(k, r) {
						extra++
					}
				}
				if extra > 0 {
					continue
				}
				emit("b31", centre)
				for k := lo; k <= hi; k++ {
					done[r][k] = true
					height[k] = r + 1
				}
				break
			}
		}
	}
	return b.String()
}

// strokesKept says whether every stroke kept at least the given share of its cells in the
// converted structure (aligned like cellIoU): a letter without its crossbar is another letter.
func strokesKept(s *birds.Structure, target [][]bool, strokes [][]cell, share float64) bool {
	minC := targetMinCol(target)
	for _, st := range strokes {
		if len(st) == 0 {
			continue
		}
		kept := 0
		for _, c := range st {
			if col := c.c - minC; col >= 0 && col < birds.GridWidth && c.r < birds.GridHeight && s.Grid[c.r][col] {
				kept++
			}
		}
		if float64(kept) < share*float64(len(st)) {
			return false
		}
	}
	return true
}

func targetMinCol(target [][]bool) int {
	minC := 1 << 30
	for r := range target {
		for c, on := range target[r] {
			if on && c < minC {
				minC = c
			}
		}
	}
	return minC
}

// cellIoU compares a converted structure's grid with the target pattern (both aligned on their
// leftmost occupied column and on row 0).
func cellIoU(s *birds.Structure, target [][]bool) float64 {
	minC := targetMinCol(target)
	inter, union := 0, 0
	for r := 0; r < birds.GridHeight; r++ {
		for c := 0; c < birds.GridWidth; c++ {
			got := s.Grid[r][c]
			tc := c + minC
			want := r < len(target) && tc < len(target[r]) && target[r][tc]
			if got && want {
				inter++
			}
			if got || want {
				union++
			}
		}
	}
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
