package problems

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"pcgwb/problems/shape"
)

// Details are the per-item values of an evaluation, with the reference's keys (and its
// spelling of "controlability").
type Details struct {
	Quality         []float64 `json:"quality"`
	Diversity       []float64 `json:"diversity"`
	Controllability []float64 `json:"controlability"`
}

// Evaluation is the reference's evaluate(): the fractions of items that pass (value >= 1) and
// the per-item values.
type Evaluation struct {
	QualityPct         float64 `json:"quality_pct"`
	DiversityPct       float64 `json:"diversity_pct"`
	ControllabilityPct float64 `json:"controlability_pct"`
	Details            Details `json:"details"`
	Infos              []Info  `json:"-"`
}

// Infos computes the info of every content, in parallel, stopping early when ctx is cancelled.
// The first error (in item order) is returned, naming the item.
func Infos(ctx context.Context, p Problem, contents []Content) ([]Info, error) {
	infos := make([]Info, len(contents))
	errs := make([]error, len(contents))
	workers := min(runtime.GOMAXPROCS(0), len(contents))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				infos[i], errs[i] = safeInfo(p, contents[i])
			}
		}()
	}
feed:
	for i := range contents {
		select {
		case <-ctx.Done():
			break feed
		case next <- i:
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
	}
	return infos, nil
}

// safeInfo turns a panic inside a problem's engine into an error, so one hostile content cannot
// take a whole run (or the GUI) down.
func safeInfo(p Problem, c Content) (info Info, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("info failed: %v", r)
		}
	}()
	return p.Info(c)
}

// Qualities returns the pass fraction and per-item quality.
func Qualities(p Problem, infos []Info) (float64, []float64) {
	vals := make([]float64, len(infos))
	for i, info := range infos {
		vals[i] = p.Quality(info)
	}
	return passFraction(vals), vals
}

// Controllabilities pairs infos with controls positionally, repeating the controls when there
// are fewer (control i is controls[i mod len]), as the reference does.
func Controllabilities(p Problem, infos []Info, controls []Control) (float64, []float64) {
	vals := make([]float64, len(infos))
	if len(controls) == 0 {
		return 0, vals
	}
	for i, info := range infos {
		vals[i] = p.Controllability(info, controls[i%len(controls)])
	}
	return passFraction(vals), vals
}

// DiversityMatrix is D[i][j] = Diversity(info_i, info_j) over all ordered pairs.
func DiversityMatrix(p Problem, infos []Info) [][]float64 {
	n := len(infos)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = p.Diversity(infos[i], infos[j])
		}
	}
	return m
}

// Diversities is the reference's set diversity: the greedy removal over the similarity matrix
// 1 - D, reproducing its tie-breaking and its index-insertion quirk.
func Diversities(p Problem, infos []Info) (float64, []float64) {
	vals := GreedyDiversity(DiversityMatrix(p, infos))
	return passFraction(vals), vals
}

// GreedyDiversity runs the reference's _recursiveDiversity on a diversity matrix D (it builds
// the similarity 1 - D itself). Iterative, but it inserts results exactly where the recursive
// original does, including the permutation that happens when an earlier removal had a smaller
// original index.
func GreedyDiversity(d [][]float64) []float64 {
	n := len(d)
	sim := make([][]float64, n)
	for i := range sim {
		sim[i] = make([]float64, n)
		for j := range sim[i] {
			sim[i][j] = 1.0 - d[i][j]
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	alive := make([]int, n) // positions in sim of the rows still present
	for i := range alive {
		alive[i] = i
	}
	type removal struct {
		at    int
		value float64
	}
	var removals []removal
	row := make([]float64, n)
	for {
		if len(alive) == 0 {
			break
		}
		best, bestR := 0.0, -1
		for r, ri := range alive {
			row = row[:0]
			for _, cj := range alive {
				row = append(row, sim[ri][cj])
			}
			s := shape.PairwiseSum(row)
			if bestR < 0 || s > best {
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
		v := min(max(1-(best-1)/float64(amount), 0.0), 1.0)
		removals = append(removals, removal{at: idx[bestR], value: v})
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

func passFraction(vals []float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	n := 0
	for _, v := range vals {
		if v >= 1 {
			n++
		}
	}
	return float64(n) / float64(len(vals))
}

// Evaluate is the reference's evaluate(contents, controls): info once per content, then quality,
// diversity and, when controls are given, controllability (one control for all, or one per
// content). Contents must already be normalized members of the content space.
func Evaluate(ctx context.Context, p Problem, contents []Content, controls []Control) (*Evaluation, error) {
	infos, err := Infos(ctx, p, contents)
	if err != nil {
		return nil, err
	}
	return EvaluateInfos(p, infos, controls), nil
}

// EvaluateInfos is Evaluate on already computed infos.
func EvaluateInfos(p Problem, infos []Info, controls []Control) *Evaluation {
	e := &Evaluation{Infos: infos}
	e.QualityPct, e.Details.Quality = Qualities(p, infos)
	e.DiversityPct, e.Details.Diversity = Diversities(p, infos)
	e.ControllabilityPct, e.Details.Controllability = Controllabilities(p, infos, controls)
	return e
}
