package problems_test

import (
	"context"
	"fmt"
	"slices"

	"pcgwb/problems"
	_ "pcgwb/problems/binary" // registers binary-v0 and its variants
)

// Problems register by name (each problem package does it in init); Make builds one.
func ExampleMake() {
	fmt.Println(slices.Contains(problems.List(), "binary-v0"))
	p, err := problems.Make("binary-v0")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.ContentSpace() != nil)
	_, err = problems.Make("binary-v9")
	fmt.Println(err != nil)
	// Output:
	// true
	// true
	// true
}

// Evaluate judges a set of levels as the reference's evaluate() does: the share of levels
// passing quality, diversity and controllability, and each level's values.
func ExampleEvaluate() {
	p, err := problems.Make("binary-v0")
	if err != nil {
		fmt.Println(err)
		return
	}
	items, err := problems.SampleN(context.Background(), p, 20, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	ev, err := problems.Evaluate(context.Background(), p, problems.Contents(items), problems.Controls(items))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d levels: quality %.2f, diversity %.2f, controllability %.2f\n",
		len(ev.Details.Quality), ev.QualityPct, ev.DiversityPct, ev.ControllabilityPct)
	// Random binary levels are far from one long path: none passes quality, and they all
	// differ from each other.
	// Output: 20 levels: quality 0.00, diversity 1.00, controllability 0.00
}

// SampleN draws levels and controls from a seed: the same seed gives the same levels in the
// CLI (workbench sample) and in the GUI's Sample tab.
func ExampleSampleN() {
	p, err := problems.Make("binary-v0")
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := problems.SampleN(context.Background(), p, 3, 42)
	b, _ := problems.SampleN(context.Background(), p, 3, 42)
	fmt.Println(len(a), fmt.Sprint(a) == fmt.Sprint(b))
	// Output: 3 true
}
