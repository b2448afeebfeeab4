package classifier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"pcgwb/games/birds"
)

// BenchmarkEvaluate260 is `birds evaluate` on one prompt's 260 answers (26 letters × 10
// trials, each a fenced drop_block program of 4–9 blocks): extraction, conversion, the
// evaluator's stability trials (up to 3), images, the proxy classifier, diversity and scores,
// every file written. Issue #17's target: ≤ 5 s on the 2-core machine.
func BenchmarkEvaluate260(b *testing.B) {
	programs := []string{
		testPrograms['I'], testPrograms['L'], testPrograms['T'], testPrograms['U'], testPrograms['H'],
		// An A-like arch and an E-like comb: wider answers that settle for longer.
		"drop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 5)\ndrop_block('b31', 7)\n",
		"drop_block('b13', 4)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b31', 6)\n",
	}
	c := Default()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		for l := 0; l < 26; l++ {
			letter := string(rune('A' + l))
			for n := 1; n <= birds.TrialsPerLetter; n++ {
				p := filepath.Join(dir, "team", birds.StageRaw, letter, fmt.Sprintf("team_%s_%d.txt", letter, n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					b.Fatal(err)
				}
				text := "```python\n" + programs[(l*birds.TrialsPerLetter+n)%len(programs)] + "```\n"
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.StartTimer()
		rep, err := birds.Evaluate(context.Background(), dir, birds.Options{Classifier: c})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Scores == nil || len(rep.Scores.Trials) != 26*birds.TrialsPerLetter {
			b.Fatalf("scores: %+v", rep.Scores)
		}
	}
}
