package loderunner

import (
	"fmt"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/loderunnertile"
	"pcgwb/problems/shape"
	"pcgwb/problems/space"
)

func init() {
	loderunnertile.RegisterVariants("loderunner", 32, 22, New, data.Need(data.LodeRunnerPatterns, data.LodeRunnerLevels))
}

// New builds a Lode Runner variant: content int(height/2) × int(width/2) pattern ids.
func New(p problems.Params) (problems.Problem, error) {
	patterns, err := data.Patterns()
	if err != nil {
		return nil, err
	}
	rows, cols := p.Int("height", 22)/2, p.Int("width", 32)/2
	return loderunnertile.NewProblem(loderunnertile.Variant{
		Params:  p,
		Content: space.Grid(rows, cols, len(patterns)),
		Level: func(c problems.Content) (shape.Grid, error) {
			ids, err := loderunnertile.ContentGrid("loderunner", c, rows, cols)
			if err != nil {
				return shape.Grid{}, err
			}
			return Expand(ids, patterns)
		},
		Description: "Lode Runner (patterns): an 11×16 grid of 2×2 tile patterns cut from the original " +
			"levels, expanded into a 22×32 level over a floor of brick. Good levels have one player, " +
			"the target gold and enemies, let the player reach a fifth of the map and all the gold, " +
			"use their ladders, ropes and floors, and move like the original levels. Controls: the " +
			"number of ladder and rope tiles.",
	})
}

// Expand turns pattern ids into the level: every id becomes its 2×2 block, then the whole
// bottom row is set to brick.
func Expand(ids shape.Grid, patterns []data.Pattern) (shape.Grid, error) {
	lv := shape.NewGrid(2*ids.W, 2*ids.H)
	for y := 0; y < ids.H; y++ {
		for x := 0; x < ids.W; x++ {
			id := ids.At(x, y)
			if id < 0 || id >= len(patterns) {
				return shape.Grid{}, fmt.Errorf("loderunner: pattern id %d is not in [0, %d)", id, len(patterns))
			}
			pt := patterns[id]
			lv.Set(2*x, 2*y, pt[0])
			lv.Set(2*x+1, 2*y, pt[1])
			lv.Set(2*x, 2*y+1, pt[2])
			lv.Set(2*x+1, 2*y+1, pt[3])
		}
	}
	for x := 0; x < lv.W; x++ {
		lv.Set(x, lv.H-1, loderunnertile.Brick)
	}
	return lv, nil
}
