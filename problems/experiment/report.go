package experiment

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems/search"
	"pcgwb/stats"
)

// LoadRuns reads every run folder under root (a single run folder works too); see
// ReadRecords.
func LoadRuns(root string) ([]*Record, error) { return ReadRecords(root) }

// Group is the runs of one configuration (problem, fitness, generator, population,
// generations and every other setting but the seeds, the LLM's included: configKey), one run
// per distinct seed.
type Group struct {
	Problem, Fitness, Generator string
	PopSize, Generations        int
	Runs                        []*Record
	// Duplicates counts runs left out because another run of the group had their seed (the
	// one kept is the finished one, else the one that got further, else the first).
	Duplicates int
	key        string
}

// Summary is one row of summary.csv.
type Summary struct {
	Group
	Finished         int
	Generations      int
	BestMean, BestCI float64
	FeasibleMean     float64
	UniqueMean       float64
	ControlledMean   float64
	FeasibleCI       float64
	UniqueCI         float64
	ControlledCI     float64
	// RunsWithFeasible counts finished runs whose final population holds at least one feasible
	// individual: the paper's "GA had feasible solutions in 224 of 360 runs".
	RunsWithFeasible   int
	RunsWithControlled int
	EvaluationsMean    float64
	ElapsedMean        float64
	// Best, FeasibleFrac, UniqueFrac and ControlledFrac are over the finished runs, with
	// intervals bounded to the value's range (BootstrapMean); the fractions are of the levels
	// each run produced (its final population), so a 20-level LLM batch and a population of 100
	// compare. RunsFeasible is the share of finished runs with a feasible level (Wilson).
	Best, FeasibleFrac, UniqueFrac, ControlledFrac Interval
	RunsFeasible                                   Interval
}

// ReportFiles lists what Report wrote.
type ReportFiles struct {
	Summary   string
	Figures   []string
	Summaries []Summary
	// Runs is runs.csv (ReportWith).
	Runs string
	// DifferencesCSV and DifferencesMD are written with ReportOptions.Compare, their rows in
	// Differences.
	DifferencesCSV, DifferencesMD string
	Differences                   []Difference
	// LaTeX lists the .tex tables written with ReportOptions.LaTeX.
	LaTeX []string
}

// Groups splits runs by configuration, in a stable order (problems alphabetically, fitnesses
// and generators as registered, then population and generations).
func Groups(runs []*Record) []Group {
	idx := map[string]int{}
	var out []Group
	for _, r := range runs {
		k := configKey(r.Config)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			c := r.Config
			out = append(out, Group{Problem: c.Problem, Fitness: c.Fitness, Generator: c.Generator, PopSize: c.PopSize,
				Generations: c.Generations, key: k})
		}
		g := &out[i]
		if j := slices.IndexFunc(g.Runs, func(o *Record) bool { return seedKey(o.Config) == seedKey(r.Config) }); j >= 0 {
			g.Duplicates++
			if further(r, g.Runs[j]) {
				g.Runs[j] = r
			}
			continue
		}
		g.Runs = append(g.Runs, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return cmp.Or(strings.Compare(a.Problem, b.Problem), cmp.Compare(FitnessRank(a.Fitness), FitnessRank(b.Fitness)),
			cmp.Compare(GeneratorRank(a.Generator), GeneratorRank(b.Generator)), cmp.Compare(a.PopSize, b.PopSize),
			cmp.Compare(a.Generations, b.Generations)) < 0
	})
	return out
}

// further tells whether run a should stand for its seed rather than b.
func further(a, b *Record) bool {
	if a.Finished() != b.Finished() {
		return a.Finished()
	}
	return len(a.Events) > len(b.Events)
}

// MeanCI is the mean and the half width of its 95% Student-t interval (the reference's
// compute_credible_interval, stats.StudentMean); the half width is NaN with fewer than two
// values.
func MeanCI(vals []float64) (float64, float64) { return stats.StudentHalf(vals) }

// Summarize computes one summary per group.
func Summarize(groups []Group) []Summary {
	out := make([]Summary, len(groups))
	for i, g := range groups {
		s := Summary{Group: g}
		var best, feas, uniq, ctrl, evals, elapsed []float64
		s.Generations = g.Generations
		for _, r := range g.Runs {
			if !r.Finished() {
				continue // the one rule for unfinished runs: see Record
			}
			s.Finished++
			best = append(best, r.Final.BestFitness)
			feas = append(feas, float64(r.Final.Feasible))
			uniq = append(uniq, float64(r.Final.Unique))
			ctrl = append(ctrl, float64(r.Final.Controlled))
			evals = append(evals, float64(r.Final.Evaluations))
			if l := r.Last(); l != nil {
				elapsed = append(elapsed, l.Elapsed)
			}
			if r.Final.Feasible > 0 {
				s.RunsWithFeasible++
			}
			if r.Final.Controlled > 0 {
				s.RunsWithControlled++
			}
		}
		s.Best = BootstrapMean(best)
		var ff, uf, cf []float64
		for _, r := range g.Runs {
			if r.Finished() && r.Final.Size > 0 {
				n := float64(r.Final.Size)
				ff = append(ff, float64(r.Final.Feasible)/n)
				uf = append(uf, float64(r.Final.Unique)/n)
				cf = append(cf, float64(r.Final.Controlled)/n)
			}
		}
		s.FeasibleFrac, s.UniqueFrac, s.ControlledFrac = BootstrapMean(ff), BootstrapMean(uf), BootstrapMean(cf)
		s.RunsFeasible = WilsonInterval(s.RunsWithFeasible, s.Finished)
		s.BestMean, s.BestCI = MeanCI(best)
		s.FeasibleMean, s.FeasibleCI = MeanCI(feas)
		s.UniqueMean, s.UniqueCI = MeanCI(uniq)
		s.ControlledMean, s.ControlledCI = MeanCI(ctrl)
		s.EvaluationsMean, _ = MeanCI(evals)
		s.ElapsedMean, _ = MeanCI(elapsed)
		out[i] = s
	}
	return out
}

// Report reads every run under root and writes summary.csv into root and the figures into
// figDir (root/plots when empty):
//
//   - fitness-<problem>-<fitness>.png: the best fitness per generation of each generator, the
//     mean over seeds with its 95% band (the paper's Fig. 2);
//   - counts-<fitness>.png: feasible, unique and controlled individuals in the final
//     populations, mean over seeds with 95% error bars, per problem and generator (Fig. 3).
func Report(root, figDir string) (*ReportFiles, error) {
	return ReportOver(context.Background(), root, figDir, XGeneration)
}

// ReportOver is Report with the fitness curves drawn against x (budget.go). It stops between
// run folders and between figures once ctx is cancelled; each file is written whole
// (atomically), so what an interrupted report leaves is complete, only not all there.
//
// The runs are read once each and their final populations are not kept (readSummaries), so a
// sweep of a thousand runs is reported in the memory of a few.
func ReportOver(ctx context.Context, root, figDir string, x XAxis) (*ReportFiles, error) {
	return ReportWith(ctx, root, figDir, ReportOptions{X: x})
}

// ReportOptions are what `workbench report` may add to summary.csv and the PNG figures.
type ReportOptions struct {
	// X is the fitness curves' x axis (XGeneration when empty).
	X XAxis
	// Formats are the figures' file formats: "png", "svg", "pdf" (png when empty).
	Formats []string
	// Compare writes differences.csv and differences.md (Differences).
	Compare bool
	// LaTeX writes summary.tex (and differences.tex with Compare).
	LaTeX bool
}

// ReportWith is ReportOver with options. It always writes runs.csv, one row per run (every
// configuration field and final metric), next to summary.csv.
func ReportWith(ctx context.Context, root, figDir string, opt ReportOptions) (*ReportFiles, error) {
	formats, err := ParseFormats(strings.Join(opt.Formats, ","))
	if err != nil {
		return nil, err
	}
	opt.Formats = formats
	if opt.X == "" {
		opt.X = XGeneration
	}
	runs, err := readSummaries(ctx, root)
	if err != nil {
		return nil, err
	}
	if figDir == "" {
		figDir = filepath.Join(root, "plots")
	}
	res, err := reportRunsWith(ctx, runs, filepath.Join(root, "summary.csv"), figDir, opt)
	if err != nil {
		return nil, err
	}
	res.Runs = filepath.Join(root, "runs.csv")
	if err := writeRunsCSV(res.Runs, root, runs); err != nil {
		return nil, err
	}
	var diffs []Difference
	if opt.Compare {
		diffs = Differences(Groups(runs))
		res.Differences = diffs
		if res.DifferencesCSV, res.DifferencesMD, err = writeDifferences(root, diffs); err != nil {
			return nil, err
		}
	}
	if opt.LaTeX {
		if res.LaTeX, err = writeLaTeX(root, res.Summaries, diffs, opt.Compare); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// reportRuns writes summary.csv at summary and the PNG figures into figDir from runs already
// read.
func reportRuns(ctx context.Context, runs []*Record, summary, figDir string, x XAxis) (*ReportFiles, error) {
	return reportRunsWith(ctx, runs, summary, figDir, ReportOptions{X: x, Formats: []string{"png"}})
}

// reportRunsWith is reportRuns with the figures in opt's formats.
func reportRunsWith(ctx context.Context, runs []*Record, summary, figDir string, opt ReportOptions) (*ReportFiles, error) {
	x, fw := opt.X, figureWriter(opt.Formats)
	if err := os.MkdirAll(figDir, 0o755); err != nil {
		return nil, err
	}
	groups := Groups(runs)
	sums := Summarize(groups)
	res := &ReportFiles{Summary: summary, Summaries: sums}
	if err := writeSummaryCSV(res.Summary, sums); err != nil {
		return nil, err
	}
	var curves []curveKey
	byCurve := map[curveKey][]Group{}
	for _, g := range groups {
		k := curveKey{g.Problem, g.Fitness}
		if _, ok := byCurve[k]; !ok {
			curves = append(curves, k)
		}
		byCurve[k] = append(byCurve[k], g)
	}
	for _, k := range curves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := fitnessPlot(k.problem+" — "+k.fitness, byCurve[k], x)
		base := filepath.Join(figDir, fmt.Sprintf("fitness-%s-%s", k.problem, k.fitness))
		paths, err := fw.save(5*vg.Inch, 3.5*vg.Inch, base, func(dc draw.Canvas) { p.Draw(dc) })
		if err != nil {
			return nil, err
		}
		res.Figures = append(res.Figures, paths...)
	}
	if err := overviewFigures(figDir, curves, byCurve, res, x, fw); err != nil {
		return nil, err
	}
	var fits []string
	byFitness := map[string][]Summary{}
	for _, s := range sums {
		if _, ok := byFitness[s.Fitness]; !ok {
			fits = append(fits, s.Fitness)
		}
		byFitness[s.Fitness] = append(byFitness[s.Fitness], s)
	}
	sort.SliceStable(fits, func(i, j int) bool { return FitnessRank(fits[i]) < FitnessRank(fits[j]) })
	for _, f := range fits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		paths, err := countsFigure(f, byFitness[f], filepath.Join(figDir, fmt.Sprintf("counts-%s", f)), fw)
		if err != nil {
			return nil, err
		}
		res.Figures = append(res.Figures, paths...)
	}
	return res, nil
}

func writeSummaryCSV(path string, sums []Summary) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"problem", "fitness", "generator", "runs", "finished", "generations",
		"best_fitness_mean", "best_fitness_ci95", "feasible_mean", "feasible_ci95", "unique_mean", "unique_ci95",
		"controlled_mean", "controlled_ci95", "runs_with_feasible", "runs_with_controlled", "evaluations_mean", "elapsed_s_mean",
		"population", "duplicate_seeds", "best_fitness_lo", "best_fitness_hi",
		"feasible_frac_mean", "feasible_frac_lo", "feasible_frac_hi", "unique_frac_mean", "unique_frac_lo", "unique_frac_hi",
		"controlled_frac_mean", "controlled_frac_lo", "controlled_frac_hi"})
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	for _, s := range sums {
		_ = w.Write([]string{s.Problem, s.Fitness, s.Generator, strconv.Itoa(len(s.Runs)), strconv.Itoa(s.Finished),
			strconv.Itoa(s.Generations), f(s.BestMean), f(s.BestCI), f(s.FeasibleMean), f(s.FeasibleCI),
			f(s.UniqueMean), f(s.UniqueCI), f(s.ControlledMean), f(s.ControlledCI),
			strconv.Itoa(s.RunsWithFeasible), strconv.Itoa(s.RunsWithControlled), f(s.EvaluationsMean), f(s.ElapsedMean),
			strconv.Itoa(s.PopSize), strconv.Itoa(s.Duplicates), f(s.Best.Lo), f(s.Best.Hi),
			f(s.FeasibleFrac.Mean), f(s.FeasibleFrac.Lo), f(s.FeasibleFrac.Hi), f(s.UniqueFrac.Mean), f(s.UniqueFrac.Lo), f(s.UniqueFrac.Hi),
			f(s.ControlledFrac.Mean), f(s.ControlledFrac.Lo), f(s.ControlledFrac.Hi)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes(), 0o644)
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

type curveKey struct{ problem, fitness string }

// overviewFigures draws, per fitness, the fitness curves of every problem side by side
// (fitness-<fitness>.png), the layout of the paper's Fig. 2.
func overviewFigures(figDir string, curves []curveKey, byCurve map[curveKey][]Group, res *ReportFiles, x XAxis, fw figureWriter) error {
	var fits []string
	perFitness := map[string][]curveKey{}
	for _, k := range curves {
		if _, ok := perFitness[k.fitness]; !ok {
			fits = append(fits, k.fitness)
		}
		perFitness[k.fitness] = append(perFitness[k.fitness], k)
	}
	sort.SliceStable(fits, func(i, j int) bool { return FitnessRank(fits[i]) < FitnessRank(fits[j]) })
	for _, f := range fits {
		keys := perFitness[f]
		cols := min(4, len(keys))
		rows := (len(keys) + cols - 1) / cols
		grid := make([][]*plot.Plot, rows)
		for i := range grid {
			grid[i] = make([]*plot.Plot, cols)
		}
		for i, k := range keys {
			p := fitnessPlot(k.problem, byCurve[k], x)
			p.Y.Label.Text = ""
			if i%cols == 0 {
				p.Y.Label.Text = "max fitness"
			}
			if i != 0 {
				p.Legend = plot.NewLegend()
			}
			grid[i/cols][i%cols] = p
		}
		tileW, tileH := 3.4*vg.Inch, 2.6*vg.Inch
		header := 0.4 * vg.Inch
		paint := func(dc draw.Canvas) {
			title := plot.New().Title.TextStyle
			title.Font.Size = vg.Points(13)
			title.XAlign = draw.XLeft
			dc.FillText(title, vg.Point{X: dc.Min.X + 0.2*vg.Inch, Y: dc.Max.Y - header*0.65},
				"max fitness per generation (mean over seeds, 95% band), fitness "+f)
			tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 4 * vg.Millimeter, PadY: 4 * vg.Millimeter,
				PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 3 * vg.Millimeter}
			canvases := plot.Align(grid, tiles, draw.Crop(dc, 0, 0, 0, -header))
			for i := range grid {
				for j, p := range grid[i] {
					if p != nil {
						p.Draw(canvases[i][j])
					}
				}
			}
		}
		paths, err := fw.save(tileW*vg.Length(cols), tileH*vg.Length(rows)+header, filepath.Join(figDir, fmt.Sprintf("fitness-%s", f)), paint)
		if err != nil {
			return err
		}
		res.Figures = append(res.Figures, paths...)
	}
	return nil
}

// fitnessPlot is one panel of Fig. 2: per generator, the mean over seeds of the best fitness
// at each generation, with the 95% band.
func fitnessPlot(title string, groups []Group, x XAxis) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x.Label()
	p.Y.Label.Text = "max fitness (mean over seeds)"
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Legend.Top = false
	p.Legend.Left = false
	p.Add(plotter.NewGrid())
	for _, g := range groups {
		cv := g.CurveOver(x.Value, func(ev *search.Event) float64 { return ev.BestFitness })
		mean := make(plotter.XYs, 0, len(cv.X))
		var lo, hi plotter.XYs
		for i, x := range cv.X {
			mean = append(mean, plotter.XY{X: x, Y: cv.Mean[i]})
			if !math.IsNaN(cv.Lo[i]) {
				lo = append(lo, plotter.XY{X: x, Y: math.Max(0, cv.Lo[i])})
				hi = append(hi, plotter.XY{X: x, Y: math.Min(1.05, cv.Hi[i])})
			}
		}
		c := GeneratorColor(g.Generator)
		if len(lo) > 1 {
			band := make(plotter.XYs, 0, 2*len(lo))
			band = append(band, lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				band = append(band, hi[i])
			}
			if poly, err := plotter.NewPolygon(band); err == nil {
				poly.Color = withAlpha(c, 60)
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
		}
		if len(mean) == 0 {
			continue
		}
		line, err := plotter.NewLine(mean)
		if err != nil {
			continue
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		line.Dashes = plotutil.Dashes(GeneratorRank(g.Generator))
		p.Add(line)
		x.addLegend(p, g, cv, line)
	}
	return p
}

// countsFigure is Fig. 3 for one fitness: three panels (feasible, unique, controlled) of bars
// per problem, one bar per generator, mean over seeds with 95% error bars. It writes base.png
// (and the other formats of fw) and returns their paths.
func countsFigure(fitness string, sums []Summary, base string, fw figureWriter) ([]string, error) {
	var problemsOrder, gens []string
	seenP, seenG := map[string]bool{}, map[string]bool{}
	maxSize := 1.0
	for _, s := range sums {
		if !seenP[s.Problem] {
			seenP[s.Problem] = true
			problemsOrder = append(problemsOrder, s.Problem)
		}
		if !seenG[s.Generator] {
			seenG[s.Generator] = true
			gens = append(gens, s.Generator)
		}
		for _, r := range s.Runs {
			if r.Final != nil {
				maxSize = math.Max(maxSize, float64(r.Final.Size))
			}
		}
	}
	sort.SliceStable(gens, func(i, j int) bool { return GeneratorRank(gens[i]) < GeneratorRank(gens[j]) })
	find := func(problem, gen string) *Summary {
		for i := range sums {
			if sums[i].Problem == problem && sums[i].Generator == gen {
				return &sums[i]
			}
		}
		return nil
	}
	panels := []struct {
		title string
		get   func(s *Summary) (float64, float64)
	}{
		{"feasible (quality = 1)", func(s *Summary) (float64, float64) { return s.FeasibleMean, s.FeasibleCI }},
		{"unique (diversity = 1)", func(s *Summary) (float64, float64) { return s.UniqueMean, s.UniqueCI }},
		{"controlled (controllability = 1)", func(s *Summary) (float64, float64) { return s.ControlledMean, s.ControlledCI }},
	}
	panelW := vg.Length(math.Max(4, 1.0*float64(len(problemsOrder))+1.2)) * vg.Inch
	panelH := 2.6 * vg.Inch
	header := 0.45 * vg.Inch
	groupW := 0.8
	barW := groupW / float64(len(gens))
	dataSpan := float64(len(problemsOrder))
	// bar width in canvas units: its data width times the (approximate) data-to-canvas scale
	barCanvas := vg.Length(barW/dataSpan) * (panelW - 0.9*vg.Inch)
	row := make([]*plot.Plot, 0, len(panels))
	for _, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.title
		p.Y.Label.Text = "individuals"
		p.Add(plotter.NewGrid())
		for gi, gen := range gens {
			vals := make(plotter.Values, len(problemsOrder))
			var pts plotter.XYs
			var errs plotter.YErrors
			off := -groupW/2 + barW*(float64(gi)+0.5)
			for xi, prob := range problemsOrder {
				s := find(prob, gen)
				if s == nil {
					continue
				}
				m, ci := pn.get(s)
				if math.IsNaN(m) {
					continue
				}
				vals[xi] = m
				if !math.IsNaN(ci) && ci > 0 {
					pts = append(pts, plotter.XY{X: float64(xi) + off, Y: m})
					errs = append(errs, struct{ Low, High float64 }{math.Min(ci, m), math.Min(ci, maxSize-m)})
				}
			}
			bars, err := plotter.NewBarChart(vals, barCanvas)
			if err != nil {
				return nil, err
			}
			bars.XMin = off
			bars.Color = GeneratorColor(gen)
			bars.LineStyle.Width = vg.Points(0.5)
			p.Add(bars)
			if len(pts) > 0 {
				if eb, err := plotter.NewYErrorBars(errorPoints{pts, errs}); err == nil {
					eb.LineStyle.Width = vg.Points(0.8)
					p.Add(eb)
				}
			}
		}
		p.NominalX(problemsOrder...)
		p.X.Min, p.X.Max = -0.5, dataSpan-0.5
		p.Y.Min, p.Y.Max = 0, maxSize*1.05
		row = append(row, p)
	}
	paint := func(dc draw.Canvas) {
		title := plot.New().Title.TextStyle
		title.Font.Size = vg.Points(13)
		title.XAlign = draw.XLeft
		dc.FillText(title, vg.Point{X: dc.Min.X + 0.2*vg.Inch, Y: dc.Max.Y - header*0.65}, "final populations (mean over seeds), fitness "+fitness)
		drawKey(dc, gens, dc.Max.X-vg.Length(len(gens))*0.9*vg.Inch, dc.Max.Y-header*0.65)
		body := draw.Crop(dc, 0, 0, 0, -header)
		tiles := draw.Tiles{Rows: len(row), Cols: 1, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter,
			PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 3 * vg.Millimeter}
		column := make([][]*plot.Plot, len(row))
		for i, p := range row {
			column[i] = []*plot.Plot{p}
		}
		canvases := plot.Align(column, tiles, body)
		for i, p := range row {
			p.Draw(canvases[i][0])
		}
	}
	return fw.save(panelW, panelH*vg.Length(len(row))+header, base, paint)
}

// drawKey draws the generators' colours in one row starting at (x, y).
func drawKey(dc draw.Canvas, gens []string, x, y vg.Length) {
	sty := plot.New().Legend.TextStyle
	sty.Font.Size = vg.Points(11)
	box := 0.13 * vg.Inch
	for _, g := range gens {
		dc.SetColor(GeneratorColor(g))
		dc.Fill(vg.Rectangle{Min: vg.Point{X: x, Y: y - 0.02*vg.Inch}, Max: vg.Point{X: x + box, Y: y + box - 0.02*vg.Inch}}.Path())
		dc.FillText(sty, vg.Point{X: x + box + 0.05*vg.Inch, Y: y}, g)
		x += 0.9 * vg.Inch
	}
}

type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}
