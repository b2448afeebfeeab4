package problems

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pcgwb/problems/shape"
)

// literalGreedy is the reference's algorithm as first written here (dense similarity, every
// row summed at every step): the oracle the scalable version must match bit for bit.
func literalGreedy(d [][]float64) []float64 {
	n := len(d)
	sim := make([][]float64, n)
	for i := range sim {
		sim[i] = make([]float64, n)
		for j := range sim[i] {
			sim[i][j] = 1.0 - d[i][j]
		}
	}
	idx := make([]int, n)
	alive := make([]int, n)
	for i := range idx {
		idx[i], alive[i] = i, i
	}
	type removal struct {
		at    int
		value float64
	}
	var removals []removal
	row := make([]float64, n)
	for len(alive) > 0 {
		best, bestR := 0.0, -1
		for r, ri := range alive {
			row = row[:0]
			for _, cj := range alive {
				row = append(row, sim[ri][cj])
			}
			if s := shape.PairwiseSum(row); bestR < 0 || s > best {
				best, bestR = s, r
			}
		}
		if best <= 1 {
			break
		}
		ri := alive[bestR]
		amount := 0
		for _, cj := range alive {
			if sim[ri][cj] > 0 {
				amount++
			}
		}
		removals = append(removals, removal{at: idx[bestR], value: min(max(1-(best-1)/float64(amount), 0.0), 1.0)})
		idx = append(idx[:bestR], idx[bestR+1:]...)
		alive = append(alive[:bestR], alive[bestR+1:]...)
	}
	out := make([]float64, len(alive), n)
	for i := range out {
		out[i] = 1.0
	}
	for k := len(removals) - 1; k >= 0; k-- {
		at := removals[k].at
		if at >= len(out) {
			out = append(out, removals[k].value)
			continue
		}
		out = append(out, 0)
		copy(out[at+1:], out[at:])
		out[at] = removals[k].value
	}
	return out
}

// randomMatrix makes a diversity matrix of n items drawn from k prototypes (duplicates tie
// exactly), asymmetric, with thresholded entries (exact zeros of similarity) and fine-grained
// values that make rounding matter.
func randomMatrix(r *rand.Rand, n, k int, far float64) [][]float64 {
	proto := make([]int, n)
	for i := range proto {
		proto[i] = r.IntN(k)
	}
	base := make([][]float64, k)
	for a := range base {
		base[a] = make([]float64, k)
		for b := range base[a] {
			switch {
			case a == b:
			case r.Float64() < far:
				base[a][b] = 1
			default:
				base[a][b] = r.Float64() * r.Float64()
				if r.IntN(4) == 0 {
					base[a][b] = float64(r.IntN(10)) / 10
				}
			}
		}
	}
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = base[proto[i]][proto[j]]
		}
	}
	return d
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func TestGreedyDiversityMatchesTheLiteralAlgorithmBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	cases := []struct{ n, k int }{{0, 1}, {1, 1}, {2, 1}, {7, 3}, {9, 9}, {40, 5}, {130, 130}, {150, 12}, {260, 40}, {420, 420}}
	for _, tc := range cases {
		for _, far := range []float64{0, 0.5, 0.9, 1} {
			for rep := 0; rep < 2; rep++ {
				d := randomMatrix(r, tc.n, tc.k, far)
				want := literalGreedy(d)
				got := GreedyDiversity(d)
				if !sameBits(got, want) {
					t.Fatalf("n=%d k=%d far=%v: got %v want %v", tc.n, tc.k, far, got, want)
				}
			}
		}
	}
}

func TestGreedyDiversityWithoutStoredRowsAndWithNegatives(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	old := maxStoredSimilarities
	maxStoredSimilarities = 10
	defer func() { maxStoredSimilarities = old }()
	for rep := 0; rep < 5; rep++ {
		d := randomMatrix(r, 120, 15, 0.4)
		if rep == 4 {
			d[3][5] = 1.5 // a similarity below 0: the literal path
		}
		if got, want := GreedyDiversity(d), literalGreedy(d); !sameBits(got, want) {
			t.Fatalf("rep %d: got %v want %v", rep, got, want)
		}
	}
}

func TestDiversitiesCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := greedy(ctx, 50, matrixRows(randomMatrix(rand.New(rand.NewPCG(1, 1)), 50, 5, 0.5)), true, nil); err == nil {
		t.Fatal("a cancelled context was ignored")
	}
}

// benchGreedy times the set diversity of n items drawn from n/10 prototypes (so most items
// are removed one by one, as in a converged population), 2% of the other pairs similar.
func benchGreedy(b *testing.B, n int) {
	r := rand.New(rand.NewPCG(9, 9))
	k := max(n/10, 1)
	proto := make([]int, n)
	for i := range proto {
		proto[i] = r.IntN(k)
	}
	src := protoRows{proto: proto, seed: 77}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := greedy(context.Background(), n, src, true, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// protoRows computes similarities from prototypes on demand (no n×n matrix).
type protoRows struct {
	proto []int
	seed  uint64
}

func (p protoRows) sim(r, j int) float64 {
	a, b := p.proto[r], p.proto[j]
	h := uint64(a)*0x9E3779B97F4A7C15 ^ uint64(b)*0xC2B2AE3D27D4EB4F ^ p.seed
	h ^= h >> 29
	switch {
	case a == b:
		return 1
	case h%100 < 98:
		return 0
	default:
		return float64(h%1000) / 4000
	}
}

func (p protoRows) row(r int, cols []int32, vals []float64) ([]int32, []float64) {
	for j := range p.proto {
		if s := p.sim(r, j); s != 0 {
			cols, vals = append(cols, int32(j)), append(vals, s)
		}
	}
	return cols, vals
}

func (p protoRows) column(c int, rows []int32, dst []float64) {
	for k, r := range rows {
		dst[k] = p.sim(int(r), c)
	}
}

func BenchmarkSetDiversity(b *testing.B) {
	for _, n := range []int{200, 2000, 20000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchGreedy(b, n) })
	}
}

// keyProblem's diversity reads only a string key of each info (DiversityKeyer).
type keyProblem struct{ Problem }

func (keyProblem) Diversity(a, b Info) float64 {
	x, y := a.(string), b.(string)
	if x == y {
		return 0
	}
	d := float64(len(x)*7+len(y)*3) / 100
	if x[0] == y[0] {
		return min(d, 1)
	}
	return 1
}
func (keyProblem) DiversityKey(info Info) string { return info.(string) }

// plainProblem is keyProblem without the key, so its rows are computed pair by pair.
type plainProblem struct{ k keyProblem }

func (p plainProblem) Diversity(a, b Info) float64 { return p.k.Diversity(a, b) }

func TestKeyedDiversityEqualsPairByPair(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	words := []string{"a", "ab", "abc", "b", "bb", "bcd", "c", "ca", "cab", "abcd"}
	infos := make([]Info, 250)
	for i := range infos {
		infos[i] = words[r.IntN(len(words))]
	}
	keyed, err := DiversitiesContext(context.Background(), keyProblem{}, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := mustRows(t, keyProblem{}, infos).(*keyedRows); !ok {
		t.Fatal("the keyed table was not used")
	}
	d := make([][]float64, len(infos))
	for i := range d {
		d[i] = make([]float64, len(infos))
		for j := range d[i] {
			d[i][j] = plainProblem{}.Diversity(infos[i], infos[j])
		}
	}
	if want := literalGreedy(d); !sameBits(keyed, want) {
		t.Fatalf("keyed %v\nwant %v", keyed, want)
	}
}

func mustRows(t *testing.T, p Problem, infos []Info) simRows {
	t.Helper()
	src, err := diversityRows(context.Background(), p, infos)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestDiversitiesRecomputedInParallelColumns forces the path of a large set: no stored rows
// (columns recomputed from the infos) and columns split across goroutines.
func TestDiversitiesRecomputedInParallelColumns(t *testing.T) {
	oldStored, oldChunk := maxStoredSimilarities, columnChunk
	maxStoredSimilarities, columnChunk = 10, 8
	defer func() { maxStoredSimilarities, columnChunk = oldStored, oldChunk }()
	r := rand.New(rand.NewPCG(8, 8))
	words := []string{"a", "ab", "abc", "b", "bb", "bcd", "c", "ca", "cab", "abcd", "abd", "bcda", "cc"}
	infos := make([]Info, 300)
	for i := range infos {
		infos[i] = words[r.IntN(len(words))] + words[r.IntN(len(words))]
	}
	p := unkeyedProblem{}
	if _, ok := mustRows(t, p, infos).(infoRows); !ok {
		t.Fatal("the rows are not computed from the infos")
	}
	got, err := DiversitiesContext(context.Background(), p, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := literalGreedy(PlainDiversityMatrix(p, infos)); !sameBits(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// unkeyedProblem is keyProblem's diversity without DiversityKey: rows come from the infos.
type unkeyedProblem struct{ Problem }

func (unkeyedProblem) Diversity(a, b Info) float64 { return keyProblem{}.Diversity(a, b) }

// symProblem is a symmetric diversity with a kernel that declares it: the first pass computes
// the upper triangle only and mirrors it.
type symProblem struct{ Problem }

func (symProblem) Diversity(a, b Info) float64 {
	x, y := a.(float64), b.(float64)
	d := math.Abs(x - y)
	if d > 0.3 {
		return 1 // far apart: similarity exactly 0, a sparse row
	}
	return d * 3
}

func (p symProblem) DiversityKernel(infos []Info) func() func(i, j int) float64 {
	return func() func(i, j int) float64 {
		return func(i, j int) float64 { return p.Diversity(infos[i], infos[j]) }
	}
}

func (symProblem) SymmetricDiversityKernel() bool { return true }

// TestSymmetricScanEqualsTheFullScan checks the mirrored first pass against the row-by-row
// one (sums, counts, hashes and stored rows, bit for bit) and the set diversity against the
// literal algorithm, for odd and even n, duplicates, and a budget too small for the rows
// (the row-by-row fallback).
func TestSymmetricScanEqualsTheFullScan(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name   string
		n      int
		budget int64
	}{
		{"empty", 0, 24 << 20},
		{"one", 1, 24 << 20},
		{"two", 2, 24 << 20},
		{"odd", 101, 24 << 20},
		{"even", 250, 24 << 20},
		{"over the budget", 120, 50},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old := maxStoredSimilarities
			maxStoredSimilarities = tc.budget
			defer func() { maxStoredSimilarities = old }()
			infos := make([]Info, tc.n)
			for i := range infos {
				infos[i] = float64(r.IntN(40)) / 37 // few values: duplicates and ties
				if i%9 == 8 {
					infos[i] = r.Float64() * 1.1
				}
			}
			src := newInfoRows(symProblem{}, infos)
			if !src.symmetric {
				t.Fatal("the symmetric kernel was not recognised")
			}
			plain := src
			plain.symmetric = false
			gotScans, gotSt, err := scanSymmetric(context.Background(), tc.n, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantScans, wantSt, err := scanRows(context.Background(), tc.n, plain, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			if (gotSt == nil) != (wantSt == nil) {
				t.Fatalf("stored rows: symmetric %v, full %v", gotSt != nil, wantSt != nil)
			}
			if gotSt != nil {
				for i := range wantScans {
					if g, w := gotScans[i], wantScans[i]; math.Float64bits(g.sum) != math.Float64bits(w.sum) ||
						g.positive != w.positive || g.hash != w.hash || g.negative != w.negative {
						t.Fatalf("row %d: symmetric scan %+v, full scan %+v", i, g, w)
					}
					if !slices.Equal(gotSt.cols[i], wantSt.cols[i]) || !sameBits(gotSt.vals[i], wantSt.vals[i]) {
						t.Fatalf("row %d: symmetric %v %v, full %v %v", i, gotSt.cols[i], gotSt.vals[i], wantSt.cols[i], wantSt.vals[i])
					}
				}
			}
			var done int
			got, err := DiversitiesContext(context.Background(), symProblem{}, infos, func(d, total int) {
				if d <= done {
					t.Errorf("progress went from %d to %d: a progress bar would move backwards", done, d)
				}
				done = d
			})
			if err != nil {
				t.Fatal(err)
			}
			if done != tc.n {
				t.Fatalf("progress ended at %d of %d rows", done, tc.n)
			}
			if want := literalGreedy(PlainDiversityMatrix(symProblem{}, infos)); !sameBits(got, want) {
				t.Fatalf("got %v\nwant %v", got, want)
			}
		})
	}
}
