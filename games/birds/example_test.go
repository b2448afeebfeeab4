package birds_test

import (
	"context"
	"fmt"

	"pcgwb/games/birds"
)

// EvaluateLevel is the single-level flow both the Birds tab and `workbench birds level` call:
// parse (program, answer or level XML), simulate as the evaluator's trials, render, classify.
func ExampleEvaluateLevel() {
	program := "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n"
	ev, err := birds.EvaluateLevel(context.Background(), []byte(program), birds.LevelOptions{Trials: 3, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d blocks, stability %.4f, %d trial(s) run, similarity missing: %v\n",
		ev.Source, ev.Result.Total, ev.Result.Score, len(ev.Trials.Results), ev.SimilarityErr != nil)
	// Output: drop_block program: 3 blocks, stability 1.0000, 1 trial(s) run, similarity missing: true
}

// StabilityScore is the fraction of blocks that did not move, in Unity's single precision.
func ExampleStabilityScore() {
	fmt.Println(birds.StabilityScore(3, 1))
	// Output: 0.6666666865348816
}
