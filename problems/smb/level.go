package smb

import (
	"fmt"
	"strings"
)

// Noise allowances: the largest fraction of neighbouring tiles in each of the 16 rows (top to
// bottom) that may differ before a level counts as noisy. They are the reference's noise.txt,
// a constant of the problem.
var noiseAllowance = [Rows]float64{0, 0, 0, 0, 0.04, 0.08, 0.16, 0.08, 0.08, 0.16, 0.32, 0.16, 0.16, 0.32, 0.16, 0.16}

// Rows is the height of every Mario level, in tiles.
const Rows = 16

// Padding is the number of empty columns added on each side of the content: Mario starts in
// the second column and the flag stands in the second to last.
const Padding = 3

// enemyChar and solidChar are the reference's sets 'ykgr' and 'X#tSQ' of the floating-enemy
// check.
var enemyChar, solidChar = charSet("ykgr"), charSet("X#tSQ")

func charSet(s string) (set [256]bool) {
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return set
}

// Text is the level in the reference's text format: the rows joined with newlines and one
// more newline at the end (the engine therefore sees an empty 17th row).
func Text(rows []string) string { return strings.Join(rows, "\n") + "\n" }

// tubeIssues counts the runs of pipe tiles of odd length that end inside a row (a pipe is two
// tiles wide; a run touching the row's end is not checked, as in the reference).
func tubeIssues(rows []string) int {
	issues := 0
	for _, r := range rows {
		run := 0
		for i := 0; i < len(r); i++ {
			if r[i] == 't' {
				run++
				continue
			}
			if run%2 > 0 {
				issues++
			}
			run = 0
		}
	}
	return issues
}

// noise is, per row, the fraction of neighbouring tiles that differ minus the row's allowance,
// floored at 0.
func noise(rows []string) [Rows]float64 {
	var out [Rows]float64
	for y, r := range rows {
		if y >= Rows {
			break
		}
		changes := 0
		for x := 1; x < len(r); x++ {
			if r[x] != r[x-1] {
				changes++
			}
		}
		v := float64(changes)/float64(len(r)-1) - noiseAllowance[y]
		if v < 0 {
			v = 0
		}
		out[y] = v
	}
	return out
}

// ErrNoEnemies is the reference's ZeroDivisionError: the floating-enemy ratio of a level
// without any enemy divides by zero.
var ErrNoEnemies = fmt.Errorf("the level has no enemy: the reference's floating-enemy ratio divides by zero (ZeroDivisionError)")

// floatingEnemies is the fraction of enemies that do not stand on a solid tile. With
// bottomFloats (the tile version) an enemy on the bottom row floats; the slice version reads
// the row below it, which does not exist for the bottom row (the reference's IndexError).
func floatingEnemies(rows []string, bottomFloats bool) (float64, error) {
	total, floating := 0, 0
	for y, r := range rows {
		for x := 0; x < len(r); x++ {
			if !enemyChar[r[x]] {
				continue
			}
			total++
			switch {
			case y+1 == len(rows):
				if !bottomFloats {
					return 0, fmt.Errorf("an enemy stands on the bottom row at column %d: the reference reads past the level (IndexError)", x)
				}
				floating++
			case x >= len(rows[y+1]) || !solidChar[rows[y+1][x]]:
				floating++
			}
		}
	}
	if total == 0 {
		return 0, ErrNoEnemies
	}
	return float64(floating) / float64(total), nil
}
