package problemtest

import (
	"slices"
	"testing"
	"time"

	"pcgwb/problems"
)

// BenchInfo measures info + quality over the given contents, the cost a generator pays per
// evaluated content. It reports the mean ("ns/item") and the median over items of each item's
// mean time ("median-ns/item"): the reference's speed figures are medians per info(), and
// solver-heavy problems have a few items that dominate the mean. `make bench` reads both.
func BenchInfo(b *testing.B, p problems.Problem, contents []problems.Content) {
	b.Helper()
	benchInfo(b, p, nil, contents)
}

// BenchInfoFresh is BenchInfo for problems that remember what they evaluated (Arcade keeps
// the games it played): every pass over the contents uses a new problem from newProblem, made
// outside the timer, so the figure is the cost of evaluating, not of looking up a memo.
func BenchInfoFresh(b *testing.B, newProblem func() problems.Problem, contents []problems.Content) {
	b.Helper()
	benchInfo(b, nil, newProblem, contents)
}

// benchInfo times p, or with newProblem set a new problem per pass (stopping the timer, which
// reads the memory statistics, only then).
func benchInfo(b *testing.B, p problems.Problem, newProblem func() problems.Problem, contents []problems.Content) {
	b.Helper()
	b.ReportAllocs()
	perItem := make([]time.Duration, len(contents))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if newProblem != nil {
			b.StopTimer()
			p = newProblem()
			b.StartTimer()
		}
		for k, c := range contents {
			t0 := time.Now()
			info, err := p.Info(c)
			if err != nil {
				b.Fatal(err)
			}
			p.Quality(info)
			perItem[k] += time.Since(t0)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(contents)), "ns/item")
	slices.Sort(perItem)
	if n := len(perItem); n > 0 {
		med := float64(perItem[n/2].Nanoseconds())
		if n%2 == 0 {
			med = float64(perItem[n/2-1].Nanoseconds()+perItem[n/2].Nanoseconds()) / 2
		}
		b.ReportMetric(med/float64(b.N), "median-ns/item")
	}
}
