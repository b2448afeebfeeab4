package stats_test

import (
	"fmt"

	"pcgwb/stats"
)

func ExampleWilson() {
	iv := stats.Wilson(5, 10) // 5 of 10 runs found a feasible level
	fmt.Printf("%.2f [%.4f, %.4f], %s\n", iv.Mean, iv.Lo, iv.Hi, stats.NText(iv.N, "run"))
	// Output: 0.50 [0.2366, 0.7634], n = 10 runs
}

func ExampleBootstrapMean() {
	best := []float64{0.61, 0.70, 0.55, 0.82, 0.64} // final best fitness of five seeds
	iv := stats.BootstrapMean(best)
	fmt.Printf("%.3f [%.3f, %.3f] %s\n", iv.Mean, iv.Lo, iv.Hi, stats.NText(iv.N, "seed"))
	fmt.Println(iv.Method)
	// Output:
	// 0.664 [0.592, 0.748] n = 5 seeds
	// percentile bootstrap of the mean, 2000 resamples, 95%, seeded by the data
}

func ExampleCompare() {
	ga := []float64{0.91, 0.88, 0.95, 0.90, 0.93}
	random := []float64{0.71, 0.80, 0.69, 0.75, 0.78}
	c := stats.Compare(ga, random)
	fmt.Printf("diff %.3f [%.3f, %.3f], A12 %.2f, p %.4f\n", c.Diff.Mean, c.Diff.Lo, c.Diff.Hi, c.A12, c.P)
	fmt.Println(c.Test)
	// Output:
	// diff 0.168 [0.126, 0.212], A12 1.00, p 0.0079
	// Mann–Whitney U, exact two-sided p
}

func ExampleHolm() {
	// three comparisons made in one table
	fmt.Printf("%.2f\n", stats.Holm([]float64{0.01, 0.04, 0.03}))
	// Output: [0.03 0.06 0.06]
}

func ExampleClusterMean() {
	// completion (1/0) of plays nested in participants (Unit) and levels (Cross)
	plays := []stats.Obs{
		{Value: 1, Unit: "ann", Cross: "L1"}, {Value: 0, Unit: "ann", Cross: "L2"},
		{Value: 1, Unit: "bob", Cross: "L1"}, {Value: 1, Unit: "bob", Cross: "L2"},
		{Value: 1, Unit: "cat", Cross: "L1"}, {Value: 0, Unit: "cat", Cross: "L2"},
	}
	iv := stats.ClusterMean(plays)
	fmt.Printf("%.3f [%.3f, %.3f] %s\n", iv.Mean, iv.Lo, iv.Hi, stats.NText(iv.N, "participant"))
	// Output: 0.667 [0.000, 1.000] n = 3 participants
}

func ExampleComparePaired() {
	// the same five seeds under two fitnesses: paired by seed
	q := []float64{0.61, 0.70, 0.55, 0.82, 0.64}
	qt := []float64{0.60, 0.68, 0.52, 0.78, 0.59}
	c := stats.ComparePaired(q, qt)
	fmt.Printf("diff %.3f [%.3f, %.3f], p %.4f\n", c.Diff.Mean, c.Diff.Lo, c.Diff.Hi, c.P)
	fmt.Println(c.Test)
	// Output:
	// diff 0.030 [0.018, 0.042], p 0.0625
	// Wilcoxon signed-rank, exact two-sided p
}
