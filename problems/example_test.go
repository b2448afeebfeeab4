package problems_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"pcgwb/problems"
	_ "pcgwb/problems/binary" // registers binary-v0 and its variants
)

// Problems register by name (each problem package does it in init); Make builds one.
func ExampleMake() {
	p, err := problems.Make("binary-v0")
	if err != nil {
		fmt.Println(err)
		return
	}
	// A problem's content is a point of its content space; Info analyses it once, and
	// quality, controllability and diversity are read from infos.
	level := p.ContentSpace().Sample(rand.New(rand.NewPCG(1, 2)))
	info, err := p.Info(level)
	if err != nil {
		fmt.Println(err)
		return
	}
	q := p.Quality(info)
	fmt.Println("quality in [0, 1]:", q >= 0 && q <= 1)
	fmt.Println("a level is not diverse from itself:", p.Diversity(info, info))
	// A misspelt name is an error naming the closest registered problem.
	_, err = problems.Make("binary-v9")
	fmt.Println(err)
	// Output:
	// quality in [0, 1]: true
	// a level is not diverse from itself: 0
	// unknown problem "binary-v9"; did you mean "binary-v0"? (`workbench problems` lists them all)
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
