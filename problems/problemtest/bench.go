package problemtest

import (
	"testing"

	"pcgwb/problems"
)

// BenchInfo measures info + quality over the given contents, the cost a generator pays per
// evaluated content, and reports it per item ("ns/item", read by `make bench`).
func BenchInfo(b *testing.B, p problems.Problem, contents []problems.Content) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range contents {
			info, err := p.Info(c)
			if err != nil {
				b.Fatal(err)
			}
			p.Quality(info)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(contents)), "ns/item")
}
