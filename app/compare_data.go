package app

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
	"pcgwb/stats"
)

// Stat is a mean over seeds with the half width of its 95% confidence interval (NaN for a
// single seed).
type Stat struct{ Mean, CI float64 }

// Curve is a per-generation mean over seeds with its 95% band (experiment's).
type curve = experiment.Curve

// CompareGroup is one configuration's runs over their distinct seeds, summarised by
// experiment (Groups, Summarize, Group.Curve): the Compare tab formats the numbers the report
// writes to summary.csv.
type CompareGroup struct {
	problem, fitness, Generator string
	runs                        []*RunRecord
	// generations is the configured length of the group's runs.
	generations int
	// Finished counts the runs that reached their last generation; only they count in the
	// final values (experiment.Record's rule for unfinished runs).
	Finished int
	// Final values over the finished runs' seeds. Levels is the number of levels a run produced
	// (its final population: 20 for an LLM batch of 20, 100 for a GA population of 100).
	Best, Feasible, unique, controlled, Evaluations, levels Stat
	// bestCurve is the best fitness per generation, FeasibleCurve the feasible count.
	bestCurve, feasibleCurve curve
	// maxSize is the largest population recorded.
	maxSize int
	// BestIV and the fractions are experiment.Summary's: intervals inside the value's range
	// (bootstrap), fractions of the levels each run produced, with n.
	BestIV, FeasibleFrac, uniqueFrac, controlledFrac experiment.Interval
	// duplicates counts runs left out because their seed was already in the group.
	duplicates int
	// setting tells the group from others of the same problem, generator and fitness
	// ("pop 100 · 300 gens"), empty when no other group shares them.
	setting string
	// Color is the generator's colour in `report`'s figures (experiment.GeneratorColor, the one
	// colour table); a second group of the same generator is drawn Dashed, a third and later
	// dotted, so groups of one generator are told apart without colour.
	color  color.Color
	dashed bool
	dotted bool

	group *experiment.Group
}

// label names the group: "ga · quality", with the problem when the comparison spans several.
func (g *CompareGroup) label(withProblem bool) string {
	s := g.Generator + " · " + g.fitness
	if withProblem {
		s = g.problem + " · " + s
	}
	if g.setting != "" {
		s += " · " + g.setting
	}
	return s
}

// bestRun is the run whose last best fitness is highest (ties: the first), for showing one
// population per group.
func (g *CompareGroup) bestRun() *RunRecord {
	var best *RunRecord
	bestV := math.Inf(-1)
	for _, r := range g.runs {
		if l := r.Last(); l != nil && l.BestFitness > bestV {
			best, bestV = r, l.BestFitness
		}
	}
	if best == nil && len(g.runs) > 0 {
		return g.runs[0]
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
		cg := &CompareGroup{problem: g.Problem, fitness: g.Fitness, Generator: g.Generator, generations: s.Generations,
			Finished: s.Finished, Best: Stat{s.BestMean, s.BestCI}, Feasible: Stat{s.FeasibleMean, s.FeasibleCI},
			unique: Stat{s.UniqueMean, s.UniqueCI}, controlled: Stat{s.ControlledMean, s.ControlledCI},
			Evaluations: Stat{s.EvaluationsMean, math.NaN()}, maxSize: g.MaxSize(),
			bestCurve:     g.Curve(func(ev *search.Event) float64 { return ev.BestFitness }),
			feasibleCurve: g.Curve(func(ev *search.Event) float64 { return float64(ev.Feasible) }),
			BestIV:        s.Best, FeasibleFrac: s.FeasibleFrac, uniqueFrac: s.UniqueFrac, controlledFrac: s.ControlledFrac,
			duplicates: g.Duplicates, group: g}
		var sizes []float64
		for _, r := range g.Runs {
			cg.runs = append(cg.runs, byRecord[r])
			if r.Finished() {
				sizes = append(sizes, float64(r.Final.Size))
			}
		}
		cg.levels = Stat{stats.Mean(sizes), math.NaN()}
		out[i] = cg
	}
	perGenerator := map[string]int{}
	for _, g := range out {
		g.color = experiment.GeneratorColor(g.Generator)
		switch perGenerator[g.Generator] {
		case 0:
		case 1:
			g.dashed = true
		default:
			g.dotted = true
		}
		perGenerator[g.Generator]++
	}
	shared := map[[3]string]int{}
	for _, g := range out {
		shared[[3]string{g.problem, g.Generator, g.fitness}]++
	}
	for _, g := range out {
		if shared[[3]string{g.problem, g.Generator, g.fitness}] > 1 {
			g.setting = fmt.Sprintf("pop %d · %d gens", g.group.PopSize, g.group.Generations)
			if m := g.group.Model(); m != "" {
				g.setting = m + " · " + g.setting // two models of one LLM generator
			}
		}
	}
	return out
}

// xAxes lists the x axes (experiment's, the report's) in the order the Compare tab offers them,
// named as the tab shows them ("model calls").
func xAxes() []string {
	var names []string
	for _, a := range experiment.XAxes() {
		names = append(names, axisName(a))
	}
	return names
}

// axisName is an x axis as the Compare tab names it (experiment.ParseXAxis reads it back).
func axisName(a experiment.XAxis) string { return strings.ReplaceAll(string(a), "-", " ") }

// curveOn is a group's curve of value over axis (generation curves are precomputed).
func (g *CompareGroup) curveOn(axis experiment.XAxis, value func(*search.Event) float64) experiment.Curve {
	if g.group == nil {
		return experiment.Curve{}
	}
	return g.group.CurveOver(axis.Value, value)
}

func comparePlot(groups []*CompareGroup, axis experiment.XAxis, spec plotSpec, value func(*search.Event) float64) plotSpec {
	return comparePlotOf(groups, axis, spec, value, false)
}

// comparePlotOf adds each group's curve of value over axis to spec; dotted draws them all
// dotted (the second measure of a plot).
func comparePlotOf(groups []*CompareGroup, axis experiment.XAxis, spec plotSpec, value func(*search.Event) float64, dotted bool) plotSpec {
	if axis == "" {
		axis = experiment.XGeneration
	}
	spec.xLabel = axisName(axis)
	multi := spansProblems(groups)
	for i, g := range groups {
		c := g.curveOn(axis, value)
		for _, x := range c.X {
			spec.xMax = math.Max(spec.xMax, x)
		}
		if axis == experiment.XGeneration {
			spec.xMax = math.Max(spec.xMax, float64(g.generations))
		}
		// a single-generation run (an LLM batch, a constructive run) is one marker with its interval
		s := series{label: g.label(multi), color: g.color, x: c.X, y: c.Mean, lo: c.Lo, hi: c.Hi, dashed: g.dashed, dotted: g.dotted}
		if n := len(c.X); n > 0 && g.group != nil && axis.SpentNothing(g.group) {
			// a group that spent nothing of this budget (GA on model calls) is one marker at 0,
			// its last value, never hidden; the title says why
			s.x, s.y, s.lo, s.hi = []float64{0}, c.Mean[n-1:], c.Lo[n-1:], c.Hi[n-1:]
			s.label += ", " + axis.ZeroNote()
			if !dotted && !strings.Contains(spec.title, g.label(multi)+": ") {
				spec.title += " · " + g.label(multi) + ": " + axis.ZeroNote()
			}
		}
		if s.color == nil {
			s.color = seriesColor(i)
		}
		if dotted {
			s.label += " (controlled)"
			s.lo, s.hi = nil, nil // one band per group: the feasible one
			s.dashed, s.dotted = false, true
		}
		spec.series = append(spec.series, s)
	}
	return spec
}

// compareFitnessPlot overlays the groups' best-fitness curves on one pair of axes.
func compareFitnessPlot(groups []*CompareGroup) plotSpec {
	return compareFitnessPlotOn(groups, experiment.XGeneration)
}

// compareFitnessPlotOn is CompareFitnessPlot over another x axis.
func compareFitnessPlotOn(groups []*CompareGroup, axis experiment.XAxis) plotSpec {
	spec := plotSpec{title: "Best fitness (mean of seeds, 95% band)", yMin: 0, yMax: 1.05}
	return comparePlot(groups, axis, spec, func(ev *search.Event) float64 { return ev.BestFitness })
}

// compareFeasiblePlot overlays the groups' feasible shares (percent of each population, so
// batches and populations of any size compare) on one pair of axes.
func compareFeasiblePlot(groups []*CompareGroup) plotSpec {
	return compareFeasiblePlotOn(groups, experiment.XGeneration)
}

// compareFeasiblePlotOn is CompareFeasiblePlot over another x axis. The controlled shares are
// drawn too, dotted: feasible and controlled lines differ by their dash, not only by colour.
func compareFeasiblePlotOn(groups []*CompareGroup, axis experiment.XAxis) plotSpec {
	spec := plotSpec{title: "Feasible (solid) and controlled (dotted), % of levels", yMin: 0, yMax: 105}
	share := func(count func(*search.Event) int) func(*search.Event) float64 {
		return func(ev *search.Event) float64 {
			if ev.Size == 0 {
				return 0
			}
			return 100 * float64(count(ev)) / float64(ev.Size)
		}
	}
	spec = comparePlotOf(groups, axis, spec, share(func(ev *search.Event) int { return ev.Feasible }), false)
	return comparePlotOf(groups, axis, spec, share(func(ev *search.Event) int { return ev.Controlled }), true)
}

// formatInterval writes "0.931 [0.902–0.950]", percentages as "64% [51–78]", "0.931 (1 run)"
// with fewer than two runs (too few for an interval; the column's tip says so), or "–" with
// none. The cells stay short so that every column fits a normal window.
func formatInterval(iv experiment.Interval, decimals int, percent bool) string {
	if math.IsNaN(iv.Mean) {
		return "–"
	}
	f, unit := 1.0, ""
	if percent {
		f, unit = 100, "%"
	}
	m := formatFixed(iv.Mean*f, decimals) + unit
	if iv.TooFew() {
		return m + fmt.Sprintf(" (%d run)", iv.N)
	}
	return m + " [" + formatFixed(iv.Lo*f, decimals) + "–" + formatFixed(iv.Hi*f, decimals) + "]"
}

func spansProblems(groups []*CompareGroup) bool {
	for _, g := range groups {
		if g.problem != groups[0].problem {
			return true
		}
	}
	return false
}

// compareColumns are the metrics table's columns.
func compareColumns() []string {
	return []string{"Run", "Seeds", "Gens", "Best fitness", "Feasible", "Unique", "Controlled", "Levels", "Evaluations"}
}

// CompareTable is the metrics table: a header row and one row per group.
func CompareTable(groups []*CompareGroup) [][]string {
	rows := [][]string{compareColumns()}
	multi := spansProblems(groups)
	for _, g := range groups {
		seeds := formatNumber(float64(len(g.runs)))
		if g.Finished < len(g.runs) {
			seeds += " (" + formatNumber(float64(g.Finished)) + " done)"
		}
		if g.duplicates > 0 {
			seeds += fmt.Sprintf(", %d repeated seed(s) left out", g.duplicates)
		}
		rows = append(rows, []string{g.label(multi), seeds, formatNumber(float64(g.generations)),
			formatInterval(g.BestIV, 3, false), formatInterval(g.FeasibleFrac, 0, true),
			formatInterval(g.uniqueFrac, 0, true), formatInterval(g.controlledFrac, 0, true),
			formatMeanCI(g.levels.Mean, math.NaN(), 0), formatMeanCI(g.Evaluations.Mean, math.NaN(), 0)})
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
