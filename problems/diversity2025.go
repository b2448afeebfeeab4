package problems

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// The reference's set diversity changed after the paper's runs. The paper (Khalifa et al.,
// FDG 2025) ran pcg_benchmark at commit 8ad18b6 (January 2025); commits 5bc939c, d34117c and
// fa215c4 (February 2025) replaced its greedy with the one Diversities reproduces (pinned
// 00b96f57). Both are available: DiversityCurrent is today's, Diversity202501 the paper's.
//
// The January 2025 greedy, read from 8ad18b6's pcg_env.py (_recursiveDiversity and
// PCGEnv.diversity):
//   - each item starts with similar = the number of other items whose diversity to it is below
//     1 (each unordered pair is computed once, as diversity(infos[i], infos[j]) with i < j) and
//     minimum = 1;
//   - repeatedly, the items still in the list are sorted by similar, largest first (Python's
//     stable sort); if the first one's similar is at most 0 the recursion stops; otherwise its
//     minimum becomes the smallest of its diversities to the items still in the list (strict <,
//     in index order, starting from 1), every item still in the list has similar decremented by
//     one — whatever its diversity to the removed item — and the first one leaves the list;
//   - an item's set diversity is its minimum; it is unique when that is >= 1.
//
// Because every removal decrements every remaining item by exactly one, the order never changes
// after the first sort: the k-th item of the stable descending order of the initial counts is
// removed at step k as long as its count minus k is positive. That is what greedy202501 does, in
// O(n²) pair diversities and no matrix beyond the upper triangle it may keep.

// DiversityAlgorithm names a set-diversity algorithm of the reference.
type DiversityAlgorithm string

// The set-diversity algorithms.
const (
	// DiversityCurrent is the reference's greedy since February 2025 (Diversities).
	DiversityCurrent DiversityAlgorithm = "current"
	// Diversity202501 is the reference's greedy of January 2025 (commit 8ad18b6), the one
	// behind the paper's results.
	Diversity202501 DiversityAlgorithm = "2025-01"
)

// DiversityAlgorithms lists the accepted names, the default first.
func DiversityAlgorithms() []string {
	return []string{string(DiversityCurrent), string(Diversity202501)}
}

// ParseDiversityAlgorithm accepts "current", "2025-01" and "" (current).
func ParseDiversityAlgorithm(s string) (DiversityAlgorithm, error) {
	switch DiversityAlgorithm(s) {
	case "", DiversityCurrent:
		return DiversityCurrent, nil
	case Diversity202501:
		return Diversity202501, nil
	}
	return "", fmt.Errorf("unknown diversity algorithm %q (want current or 2025-01)", s)
}

// DiversitiesWith is Diversities under the named algorithm.
func DiversitiesWith(alg DiversityAlgorithm, p Problem, infos []Info) (float64, []float64) {
	vals, _ := DiversitiesWithContext(context.Background(), alg, p, infos, nil)
	return passFraction(vals), vals
}

// DiversitiesWithContext is DiversitiesContext under the named algorithm.
func DiversitiesWithContext(ctx context.Context, alg DiversityAlgorithm, p Problem, infos []Info, progress ProgressFunc) ([]float64, error) {
	if alg == Diversity202501 {
		return greedy202501(ctx, len(infos), Kernels(p, infos), progress)
	}
	return DiversitiesContext(ctx, p, infos, progress)
}

// GreedyDiversityWith is GreedyDiversity under the named algorithm, on a diversity matrix D
// (the 2025-01 greedy reads D[i][j] with i < j only, as the reference computes each pair once).
func GreedyDiversityWith(alg DiversityAlgorithm, d [][]float64) []float64 {
	if alg == Diversity202501 {
		mk := func() PairKernel { return func(i, j int) float64 { return d[i][j] } }
		vals, _ := greedy202501(context.Background(), len(d), mk, nil)
		return vals
	}
	return GreedyDiversity(d)
}

// EvaluateInfosWith is EvaluateInfos with the set diversity of the named algorithm.
func EvaluateInfosWith(alg DiversityAlgorithm, p Problem, infos []Info, controls []Control) *Evaluation {
	e := &Evaluation{Infos: infos}
	e.QualityPct, e.Details.Quality = Qualities(p, infos)
	e.DiversityPct, e.Details.Diversity = DiversitiesWith(alg, p, infos)
	e.ControllabilityPct, e.Details.Controllability = Controllabilities(p, infos, controls)
	return e
}

// maxStoredPairs202501 bounds the upper-triangle diversities greedy202501 keeps between its
// two passes (8 bytes each); past it the second pass recomputes them.
var maxStoredPairs202501 int64 = 24 << 20

// greedy202501 is 8ad18b6's _recursiveDiversity over n items whose pair diversities mk's
// kernels give (read as d(i, j) with i < j only).
func greedy202501(ctx context.Context, n int, mk func() PairKernel, progress ProgressFunc) ([]float64, error) {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1.0
	}
	if n < 2 {
		return out, nil
	}
	// Pass 1: similar counts, each unordered pair once (row i holds j > i).
	store := int64(n)*int64(n-1)/2 <= maxStoredPairs202501
	var upper [][]float64
	if store {
		upper = make([][]float64, n)
	}
	var mu sync.Mutex
	similar := make([]int, n)
	done := 0
	eachIndex(ctx, n, nil, func(take func() (int, bool)) {
		d := mk()
		local := make([]int, n)
		for i, ok := take(); ok; i, ok = take() {
			var row []float64
			if store {
				row = make([]float64, n-1-i)
			}
			for j := i + 1; j < n; j++ {
				v := d(i, j)
				if row != nil {
					row[j-1-i] = v
				}
				if v < 1 {
					local[i]++
					local[j]++
				}
			}
			if store {
				upper[i] = row
			}
			if progress != nil {
				mu.Lock()
				done++
				progress(done, n)
				mu.Unlock()
			}
		}
		mu.Lock()
		for i, c := range local {
			similar[i] += c
		}
		mu.Unlock()
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The stable descending order of the counts is the order of removal.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return similar[b] - similar[a] })
	removed := 0
	for removed < n && similar[order[removed]]-removed > 0 {
		removed++
	}
	// position[i] is i's place in the order: the items after the k-th are those still in the
	// list when it is removed.
	position := make([]int, n)
	for k, i := range order {
		position[i] = k
	}
	// Pass 2: each removed item's minimum over the items still in the list, in index order.
	eachIndex(ctx, removed, nil, func(take func() (int, bool)) {
		var d PairKernel
		if !store {
			d = mk()
		}
		for k, ok := take(); ok; k, ok = take() {
			i := order[k]
			m := 1.0
			for j := 0; j < n; j++ {
				if j == i || position[j] <= k {
					continue
				}
				var v float64
				switch {
				case store && i < j:
					v = upper[i][j-1-i]
				case store:
					v = upper[j][i-1-j]
				case i < j:
					v = d(i, j)
				default:
					v = d(j, i)
				}
				if v < m {
					m = v
				}
			}
			out[i] = m
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// LiteralGreedyDiversity202501 is the 2025-01 greedy done step by step as 8ad18b6 does it
// (sort, check, update the first item's minimum, decrement the rest, drop it; O(n² log n)) on a
// diversity matrix: the oracle for greedy202501.
func LiteralGreedyDiversity202501(d [][]float64) []float64 {
	n := len(d)
	type item struct {
		index, similar int
		minimum        float64
	}
	items := make([]*item, n)
	for i := range items {
		items[i] = &item{index: i, minimum: 1.0}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d[i][j] < 1 {
				items[i].similar++
				items[j].similar++
			}
		}
	}
	list := slices.Clone(items)
	for len(list) > 0 {
		slices.SortStableFunc(list, func(a, b *item) int { return b.similar - a.similar })
		top := list[0]
		if top.similar <= 0 {
			break
		}
		in := map[int]bool{}
		for _, it := range list {
			in[it.index] = true
		}
		for j := 0; j < n; j++ {
			if j == top.index || !in[j] {
				continue
			}
			v := d[min(top.index, j)][max(top.index, j)]
			if v < top.minimum {
				top.minimum = v
			}
			items[j].similar--
		}
		list = list[1:]
	}
	out := make([]float64, n)
	for i, it := range items {
		out[i] = it.minimum
	}
	return out
}
