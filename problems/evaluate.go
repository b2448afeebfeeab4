package problems

import (
	"context"
	"fmt"
	"sync"
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
	return InfosProgress(ctx, p, contents, nil)
}

// InfosProgress is Infos reporting each finished item to progress (called from the workers,
// one call at a time).
func InfosProgress(ctx context.Context, p Problem, contents []Content, progress ProgressFunc) ([]Info, error) {
	infos := make([]Info, len(contents))
	var mu sync.Mutex
	done := 0
	errs := make([]error, len(contents))
	eachIndex(ctx, len(contents), nil, func(take func() (int, bool)) {
		for i, ok := take(); ok; i, ok = take() {
			infos[i], errs[i] = safeInfo(p, contents[i])
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(contents))
				mu.Unlock()
			}
		}
	})
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

// DiversityMatrix is D[i][j] = Diversity(info_i, info_j) over all ordered pairs (rows in
// parallel, through the problem's DiversityKernel when it has one). It holds n² numbers: the
// set diversity itself does not need it (Diversities).
func DiversityMatrix(p Problem, infos []Info) [][]float64 {
	return diversityMatrix(Kernels(p, infos), len(infos))
}

// PlainDiversityMatrix is DiversityMatrix calling Diversity for every pair, never a kernel:
// the straightforward computation the kernels are checked against.
func PlainDiversityMatrix(p Problem, infos []Info) [][]float64 {
	return diversityMatrix(func() PairKernel {
		return func(i, j int) float64 { return p.Diversity(infos[i], infos[j]) }
	}, len(infos))
}

func diversityMatrix(mk func() PairKernel, n int) [][]float64 {
	m := make([][]float64, n)
	eachIndex(context.Background(), n, nil, func(take func() (int, bool)) {
		d := mk()
		for i, ok := take(); ok; i, ok = take() {
			row := make([]float64, n)
			for j := range row {
				row[j] = d(i, j)
			}
			m[i] = row
		}
	})
	return m
}

// Diversities is the reference's set diversity: the greedy removal over the similarity matrix
// 1 - D, reproducing its tie-breaking and its index-insertion quirk. It never holds the n×n
// matrix (see greedy).
func Diversities(p Problem, infos []Info) (float64, []float64) {
	vals, _ := DiversitiesContext(context.Background(), p, infos, nil)
	return passFraction(vals), vals
}

// DiversitiesContext is Diversities' per-item values, cancellable, with progress over the
// first pass through the rows (the bulk of the work).
func DiversitiesContext(ctx context.Context, p Problem, infos []Info, progress ProgressFunc) ([]float64, error) {
	src, err := diversityRows(ctx, p, infos)
	if err != nil {
		return nil, err
	}
	return greedy(ctx, len(infos), src, true, progress)
}

// GreedyDiversity runs the reference's _recursiveDiversity on a diversity matrix D (it builds
// the similarity 1 - D itself), with the reference's tie-breaking and the positions where its
// recursion inserts results (including the permutation that happens when an earlier removal
// had a smaller original index).
func GreedyDiversity(d [][]float64) []float64 {
	vals, _ := greedy(context.Background(), len(d), matrixRows(d), true, nil)
	return vals
}

// LiteralGreedyDiversity is GreedyDiversity done step by step as the reference does (every
// live row summed densely at every removal, O(n³)): the oracle for the scalable version.
func LiteralGreedyDiversity(d [][]float64) []float64 {
	return greedyLiteral(len(d), matrixRows(d))
}

// PassFraction is the fraction of values that reach 1: the reference's *_pct.
func PassFraction(vals []float64) float64 { return passFraction(vals) }

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
