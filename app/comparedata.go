package app

import (
	"math"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// Stat is a mean over seeds with the half width of its 95% confidence interval (NaN for a
// single seed).
type Stat struct{ Mean, CI float64 }

// Curve is a per-generation mean over seeds with its 95% band (experiment's).
type Curve = experiment.Curve

// CompareGroup is one configuration's runs over their distinct seeds, summarised by
// experiment (Groups, Summarize, Group.Curve): the Compare tab formats the numbers the report
// writes to summary.csv.
type CompareGroup struct {
	Problem, Fitness, Generator string
	Runs                        []*RunRecord
	// Generations is the configured length of the group's runs.
	Generations int
	// Finished counts the runs that reached their last generation; only they count in the
	// final values (experiment.Record's rule for unfinished runs).
	Finished int
	// Final values over the finished runs' seeds.
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

// BestRun is the run whose last best fitness is highest (ties: the first), for showing one
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

// GroupRuns groups runs as the report does (experiment.Groups: whole configuration, distinct
// seeds, the report's order) and takes each group's statistics from experiment.Summarize.
func GroupRuns(runs []*RunRecord) []*CompareGroup {
	recs := make([]*experiment.Record, len(runs))
	byRecord := make(map[*experiment.Record]*RunRecord, len(runs))
	for i, r := range runs {
		recs[i] = r.Record
		byRecord[r.Record] = r
	}
	groups := experiment.Groups(recs)
	sums := experiment.Summarize(groups)
	out := make([]*CompareGroup, len(groups))
	for i := range groups {
		g, s := &groups[i], sums[i]
		cg := &CompareGroup{Problem: g.Problem, Fitness: g.Fitness, Generator: g.Generator, Generations: s.Generations,
			Finished: s.Finished, Best: Stat{s.BestMean, s.BestCI}, Feasible: Stat{s.FeasibleMean, s.FeasibleCI},
			Unique: Stat{s.UniqueMean, s.UniqueCI}, Controlled: Stat{s.ControlledMean, s.ControlledCI},
			Evaluations: Stat{s.EvaluationsMean, math.NaN()}, MaxSize: g.MaxSize(),
			BestCurve:     g.Curve(func(ev *search.Event) float64 { return ev.BestFitness }),
			FeasibleCurve: g.Curve(func(ev *search.Event) float64 { return float64(ev.Feasible) })}
		for _, r := range g.Runs {
			cg.Runs = append(cg.Runs, byRecord[r])
		}
		out[i] = cg
	}
	return out
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
