package main

import (
	"fmt"
	"strings"

	"pcgwb/problems/shape"
)

// suggestion is "; did you mean "X"?" for the command among cmds closest to name by difflib's
// ratio (the measure `problems.Make` suggests problem names with), or "" when none is close
// (ratio below 0.6, difflib's get_close_matches cutoff).
func suggestion(name string, cmds []*Command) string {
	best, bestR := "", 0.6
	for _, c := range cmds {
		if r := shape.Ratio(strings.ToLower(name), c.Name); r >= bestR {
			best, bestR = c.Name, r
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
