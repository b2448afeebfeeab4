package validate

import "pcgwb/games/duel/internal/duetest"

// gameSource writes the tests' small game (duetest's race to 5) with some contract functions
// replaced ("" drops one) after a prelude of top-level code.
func gameSource(prelude string, bodies map[string]string) string {
	return duetest.GameSource(prelude, bodies)
}
