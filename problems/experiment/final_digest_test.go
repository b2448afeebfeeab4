package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"testing"

	_ "pcgwb/problems/all"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/search"
)

// The final.json of short real runs is byte for byte what it was when the digests were
// recorded (with the binary before the #19 speed work, `workbench run … --generations 5 --pop
// 100 --seed 3`): speed-ups of the simulations, the info cache, the diversity kernels or the
// run loop must leave every evaluated number, every selection and every byte of the file as it
// was. A deliberate change of results updates a digest and says why in its commit.
func TestFinalJSONDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("real problems, a few seconds of CPU")
	}
	problemtest.RefData(t, "elimination/dictionary.txt", "elimination/count.txt")
	tests := []struct {
		problem, generator, fitness, sha256 string
	}{
		{"arcade-v0", "ga", "quality_control_diversity", "9b8212a162b35ea73eeb1588717748cb4255dd83f70453558655f996cde7bd3a"},
		{"arcade-v0", "es", "quality", "21b23fe197420c8638cd23e9f4669dc904929733e72045d14e758c83be1fd0e8"},
		{"talakat-v0", "ga", "quality_control_diversity", "f17404328fedcbf8177de91325146ca4d91c2e82261525fef883df8e79d39af9"},
		{"talakat-v0", "random", "quality_control", "b6ba3b34ef679643dff898c27be6db4a743aadbf04d5c3163e0bb0e3aaab6fa1"},
		{"elimination-v0", "ga", "quality_control_diversity", "d6fccd00fd13d2326310490045f6db061bdae84e872e2342947b3f8d867a1f94"},
		{"zelda-v0", "ga", "quality_control_diversity", "e25cf72a1b0dc59b8a7f2170a6b4186fab8ddb07ebb2224829478dce633e1606"},
		{"zelda-v0", "es", "quality_control", "85d3e27d303f1bd805f31c177fdca72bd31a7ed7d4c7f546c449bc4f71b4c4d4"},
	}
	for _, tc := range tests {
		t.Run(tc.problem+"/"+tc.generator+"/"+tc.fitness, func(t *testing.T) {
			cfg := Config{Generator: tc.generator, Generations: 5,
				Options: search.Options{Problem: tc.problem, Fitness: tc.fitness, Seed: 3, PopSize: 100}}
			data := mustRun(t, filepath.Join(t.TempDir(), "run"), cfg)
			sum := sha256.Sum256(data)
			if got := hex.EncodeToString(sum[:]); got != tc.sha256 {
				t.Errorf("final.json changed: sha256 %s, want %s (%d bytes)", got, tc.sha256, len(data))
			}
		})
	}
}
