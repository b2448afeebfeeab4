package app

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"pcgwb/problems/search"
)

// Stat is a mean over seeds with the half width of its 95% confidence interval (NaN for a
// single seed).
type Stat struct{ Mean, CI float64 }

func statOf(vals []float64) Stat {
	m, ci := MeanCI95(vals)
	return Stat{m, ci}
}

// Curve is a per-generation mean over seeds with its 95% band.
type Curve struct{ X, Mean, Lo, Hi []float64 }

// CompareGroup is the runs of one (problem, fitness, generator) over their seeds, summarised.
type CompareGroup struct {
	Problem, Fitness, Generator string
	Runs                        []*RunRecord
	// Generations is the longest run's configured length.
	Generations int
	// Finished counts the runs that reached their last generation.
	Finished int
	// Final values per run (the last recorded generation for unfinished runs), over seeds.
	Best, Feasible, Unique, Controlled, Evaluations Stat
	// BestCurve is the best fitness per generation, FeasibleCurve the feasible count.
	BestCurve, FeasibleCurve Curve
	// MaxSize is the largest population recorded.
	MaxSize int
}

// Label names the group: "ga · quality", with the problem when the comparison spans several.
func (g *CompareGroup) Label(withProblem bool) string {
	s := g.Generator + " · " + g.Fitness
	if withProblem {
		s = g.Problem + " · " + s
	}
	return s
}

// BestRun is the run whose final best fitness is highest (ties: the first), for showing one
// population per group.
func (g *CompareGroup) BestRun() *RunRecord {
	var best *RunRecord
	bestV := math.Inf(-1)
	for _, r := range g.Runs {
		if l := r.Last(); l != nil && l.BestFitness > bestV {
			best, bestV = r, l.BestFitness
		}
	}
	if best == nil && len(g.Runs) > 0 {
		return g.Runs[0]
	}
	return best
}

// GroupRuns groups runs by problem, fitness and generator (the order of first appearance) and
// computes each group's statistics over seeds.
func GroupRuns(runs []*RunRecord) []*CompareGroup {
	idx := map[[3]string]*CompareGroup{}
	var out []*CompareGroup
	for _, r := range runs {
		k := [3]string{r.Config.Problem, r.Config.Fitness, r.Config.Generator}
		g, ok := idx[k]
		if !ok {
			g = &CompareGroup{Problem: k[0], Fitness: k[1], Generator: k[2]}
			idx[k] = g
			out = append(out, g)
		}
		g.Runs = append(g.Runs, r)
	}
	for _, g := range out {
		g.summarise()
	}
	// the paper's order: problems, then fitnesses as listed, then random, es, ga, …
	rank := func(list []string, s string) int {
		for i, x := range list {
			if x == s {
				return i
			}
		}
		return len(list)
	}
	slices.SortStableFunc(out, func(a, b *CompareGroup) int {
		return cmp.Or(strings.Compare(a.Problem, b.Problem),
			cmp.Compare(rank(search.Fitnesses(), a.Fitness), rank(search.Fitnesses(), b.Fitness)),
			cmp.Compare(rank(search.Generators(), a.Generator), rank(search.Generators(), b.Generator)))
	})
	return out
}

func (g *CompareGroup) summarise() {
	var best, feas, uniq, ctrl, evals []float64
	gens := 0
	for _, r := range g.Runs {
		g.Generations = max(g.Generations, r.Config.Generations)
		if r.Finished() {
			g.Finished++
		}
		for _, ev := range r.Events {
			g.MaxSize = max(g.MaxSize, ev.Size)
		}
		gens = max(gens, len(r.Events))
		var fin *search.Event
		if r.Final != nil {
			fin = &search.Event{BestFitness: r.Final.BestFitness, Feasible: r.Final.Feasible, Unique: r.Final.Unique,
				Controlled: r.Final.Controlled, Evaluations: r.Final.Evaluations}
		} else {
			fin = r.Last()
		}
		if fin == nil {
			continue
		}
		best = append(best, fin.BestFitness)
		feas = append(feas, float64(fin.Feasible))
		uniq = append(uniq, float64(fin.Unique))
		ctrl = append(ctrl, float64(fin.Controlled))
		evals = append(evals, float64(fin.Evaluations))
	}
	g.Best, g.Feasible, g.Unique, g.Controlled, g.Evaluations = statOf(best), statOf(feas), statOf(uniq), statOf(ctrl), statOf(evals)
	g.BestCurve = g.curve(gens, func(ev *search.Event) float64 { return ev.BestFitness })
	g.FeasibleCurve = g.curve(gens, func(ev *search.Event) float64 { return float64(ev.Feasible) })
}

// curve averages value over the runs at each generation they recorded (events are indexed by
// generation from 0).
func (g *CompareGroup) curve(gens int, value func(*search.Event) float64) Curve {
	var c Curve
	for gi := 0; gi < gens; gi++ {
		var vals []float64
		for _, r := range g.Runs {
			if gi < len(r.Events) {
				vals = append(vals, value(&r.Events[gi]))
			}
		}
		m, ci := MeanCI95(vals)
		c.X = append(c.X, float64(gi))
		c.Mean = append(c.Mean, m)
		if math.IsNaN(ci) {
			c.Lo, c.Hi = append(c.Lo, math.NaN()), append(c.Hi, math.NaN())
		} else {
			c.Lo, c.Hi = append(c.Lo, m-ci), append(c.Hi, m+ci)
		}
	}
	return c
}

// CompareFitnessPlot overlays the groups' best-fitness curves on one pair of axes.
func CompareFitnessPlot(groups []*CompareGroup) PlotSpec {
	spec := PlotSpec{Title: "Best fitness (mean of seeds, 95% band)", XLabel: "generation", YMin: 0, YMax: 1.05}
	multi := spansProblems(groups)
	for i, g := range groups {
		spec.XMax = math.Max(spec.XMax, float64(g.Generations))
		c := g.BestCurve
		spec.Series = append(spec.Series, Series{Label: g.Label(multi), Color: SeriesColor(i), X: c.X, Y: c.Mean, Lo: c.Lo, Hi: c.Hi})
	}
	return spec
}

// CompareFeasiblePlot overlays the groups' feasible counts on one pair of axes.
func CompareFeasiblePlot(groups []*CompareGroup) PlotSpec {
	spec := PlotSpec{Title: "Feasible levels (mean of seeds, 95% band)", XLabel: "generation", YMin: 0}
	size := 1
	multi := spansProblems(groups)
	for i, g := range groups {
		spec.XMax = math.Max(spec.XMax, float64(g.Generations))
		size = max(size, g.MaxSize)
		c := g.FeasibleCurve
		spec.Series = append(spec.Series, Series{Label: g.Label(multi), Color: SeriesColor(i), X: c.X, Y: c.Mean, Lo: c.Lo, Hi: c.Hi})
	}
	spec.YMax = float64(size) * 1.05
	return spec
}

func spansProblems(groups []*CompareGroup) bool {
	for _, g := range groups {
		if g.Problem != groups[0].Problem {
			return true
		}
	}
	return false
}

// CompareTable is the metrics table: a header row and one row per group.
func CompareTable(groups []*CompareGroup) [][]string {
	rows := [][]string{{"Run", "Seeds", "Generations", "Best fitness", "Feasible", "Unique", "Controlled", "Evaluations"}}
	multi := spansProblems(groups)
	for _, g := range groups {
		seeds := formatNumber(float64(len(g.Runs)))
		if g.Finished < len(g.Runs) {
			seeds += " (" + formatNumber(float64(g.Finished)) + " done)"
		}
		rows = append(rows, []string{g.Label(multi), seeds, formatNumber(float64(g.Generations)),
			FormatMeanCI(g.Best.Mean, g.Best.CI, 3), FormatMeanCI(g.Feasible.Mean, g.Feasible.CI, 1),
			FormatMeanCI(g.Unique.Mean, g.Unique.CI, 1), FormatMeanCI(g.Controlled.Mean, g.Controlled.CI, 1),
			FormatMeanCI(g.Evaluations.Mean, math.NaN(), 0)})
	}
	return rows
}

// dedupeRuns drops runs whose folder is already listed, keeping the first.
func dedupeRuns(runs []*RunRecord) []*RunRecord {
	seen := map[string]bool{}
	out := runs[:0:0]
	for _, r := range runs {
		if !seen[r.Dir] {
			seen[r.Dir] = true
			out = append(out, r)
		}
	}
	return out
}
