package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/search"
	"pcgwb/stats"
)

// The paper's protocol (Khalifa et al., FDG 2025): 12 problems (default variants), three
// generators, three fitness functions, 10 runs each, population 100, 200 generations.
var (
	PaperProblems = []string{"arcade-v0", "binary-v0", "building-v0", "ddave-v0", "elimination-v0", "isaac-v0",
		"loderunner-v0", "mdungeons-v0", "smb-v0", "sokoban-v0", "talakat-v0", "zelda-v0"}
	PaperFitnesses  = []string{"quality", "quality_control", "quality_control_diversity"}
	paperGenerators = []string{"random", "es", "ga"}
)

// Paper protocol sizes.
const (
	PaperSeeds       = 10
	PaperGenerations = 200
	PaperPop         = 100
)

// paperFeasibleRuns are the paper's headline counts: runs (of 360 per generator) whose final
// population holds a feasible individual.
var paperFeasibleRuns = map[string]int{"random": 32, "es": 191, "ga": 224}

// ReferenceInfoMs is the Python reference's median time per info() + quality on the golden
// items (ms), by problem family (problems.FamilyOf), measured on the project's machine kind (issues 2, 7 and 10); `make bench` and the
// paper report's projected reference cost use it.
var ReferenceInfoMs = map[string]float64{
	"sokoban": 0.02, "isaac": 1.1, "binary": 1.5, "zelda": 2.5, "building": 2.7, "elimination": 0.28,
	"loderunner": 3.4, "loderunnertile": 3.3, "ddave": 0.5, "mdungeons": 0.44, "smb": 1.7, "smbtile": 3.7,
	"arcade": 800, "talakat": 23,
}

// SweepTiming is protocol.json, written next to the runs by `make protocol`: how long the
// whole sweep took on which machine.
type SweepTiming struct {
	WallSeconds float64 `json:"wall_s"`
	Jobs        int     `json:"jobs"`
	CPUs        int     `json:"cpus"`
	Machine     string  `json:"machine"`
	Started     string  `json:"started"`
	Note        string  `json:"note,omitempty"`
}

// TimingFile is the name of the sweep timing record inside a sweep folder.
const TimingFile = "protocol.json"

// PaperOptions configure PaperReport.
type PaperOptions struct {
	// Dir is the protocol sweep folder; Out the Markdown file to write; FigDir where the
	// figures go (linked relative to Out's folder).
	Dir, Out, FigDir string
	// Fig4Dir optionally holds constructive runs (generations 0, population 100) on binary,
	// sokoban and zelda for the non-LLM part of Fig. 4.
	Fig4Dir string
	// Command is the command line that regenerates the report (printed in it).
	Command string
	// Recount evaluates every finished run's final population again, as one set, under both
	// set-diversity algorithms for Fig. 3's unique row (a second read of each final.json, with
	// its population; the report reads each file once without it).
	Recount bool
	// Diversity, when set ("current" or "2025-01"), makes the claims count unique individuals
	// with that algorithm on the re-evaluated populations (it implies Recount) instead of the
	// values the runs recorded.
	Diversity string
}

// PaperReport reads the protocol sweep (finished or not), draws Fig. 2 and Fig. 3 with
// Report, and writes the comparison with the paper as Markdown.
func PaperReport(ctx context.Context, o PaperOptions) error {
	// The sweep is read once, without its final populations (readSummaries); summary.csv goes
	// with the figures only, so the sweep folder is only read.
	runs, err := readSummaries(ctx, o.Dir)
	if err != nil {
		return err
	}
	res, err := reportRuns(ctx, runs, filepath.Join(o.FigDir, "summary.csv"), o.FigDir, XGeneration)
	if err != nil {
		return err
	}
	pr := paperRuns(runs)
	if o.Recount || o.Diversity != "" {
		if err := recountUnique(ctx, runs, pr); err != nil {
			return err
		}
	}
	if o.Diversity != "" {
		alg, err := problems.ParseDiversityAlgorithm(o.Diversity)
		if err != nil {
			return err
		}
		for _, r := range pr {
			r.unique, r.uniqueFrom = r.recountOf(alg), string(alg)+", re-evaluated"
		}
	}
	var fig4 []Summary
	if o.Fig4Dir != "" {
		r4, err := readSummaries(ctx, o.Fig4Dir)
		if err != nil {
			return fmt.Errorf("fig. 4 runs: %w", err)
		}
		fig4 = Summarize(Groups(r4))
	}
	var timing *SweepTiming
	if data, err := safeio.ReadFile(filepath.Join(o.Dir, TimingFile), 1<<16); err == nil {
		var t SweepTiming
		if err := json.Unmarshal(data, &t); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(o.Dir, TimingFile), err)
		}
		timing = &t
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(o.Out), o.FigDir)
	if err != nil {
		rel = o.FigDir
	}
	md := paperMarkdown(runs, res.Summaries, fig4, timing, filepath.ToSlash(rel), o.Command, pr)
	return atomicfile.Write(o.Out, []byte(md), 0o644)
}

// paperView indexes the summaries by problem, fitness and generator.
type paperView struct {
	sums map[[3]string]Summary
}

func (v paperView) get(p, f, g string) (Summary, bool) {
	s, ok := v.sums[[3]string{p, f, g}]
	return s, ok && s.Finished > 0
}

// feasibleRuns sums runs-with-feasible and finished runs over the fitness functions.
func (v paperView) feasibleRuns(p, g string) (k, n int) {
	for _, f := range PaperFitnesses {
		if s, ok := v.get(p, f, g); ok {
			k += s.RunsWithFeasible
			n += s.Finished
		}
	}
	return k, n
}

func pct(k, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(k)/float64(n))
}

func short(p string) string { return strings.TrimSuffix(p, "-v0") }

func paperMarkdown(runs []*Record, sums, fig4 []Summary, timing *SweepTiming, fig, command string, pr []*paperRun) string {
	if pr == nil {
		pr = paperRuns(runs)
	}
	design := seedDesign(pr)
	algs := algorithms(pr)
	v := paperView{sums: map[[3]string]Summary{}}
	for _, s := range sums {
		v.sums[[3]string{s.Problem, s.Fitness, s.Generator}] = s
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# The paper's experiment, reproduced with the workbench\n\n")
	w("<!-- Generated by `%s`: edit problems/experiment/paper.go, not this file. -->\n\n", command)
	w("The PCG Benchmark paper (Khalifa et al., FDG 2025) runs Random search, a μ+λ Evolution Strategy and a\n")
	w("Genetic Algorithm with three fitness functions (`quality` Q, `quality_control` QT,\n")
	w("`quality_control_diversity` QTD) on its 12 problems: 10 runs each, population 100, 200 generations,\n")
	w("1,080 runs in all. This page is generated from one sweep folder by `%s`; the numbers come\n", command)
	w("from [results/summary.csv](%s/summary.csv). How the generators work and differ from the reference is in\n", fig)
	w("[generators.md](generators.md). Our random source is not numpy's, so single runs differ from the\n")
	w("reference's even with the same seed: only distributions and trends can be compared.\n\n")

	// What was run.
	finished, started := 0, 0
	perProblem := map[string]int{}
	var elapsed, refMs float64
	for _, r := range runs {
		if !r.Finished() {
			if r.Last() != nil {
				started++
			}
			continue
		}
		finished++
		perProblem[r.Config.Problem]++
		elapsed += r.Last().Elapsed
		refMs += float64(r.Final.Evaluations) * ReferenceInfoMs[string(problems.FamilyOf(r.Config.Problem))]
	}
	total := len(PaperProblems) * len(PaperFitnesses) * len(paperGenerators) * PaperSeeds
	w("## What was run\n\n")
	w("| | the paper | here |\n|---|---|---|\n")
	w("| problems | 12 (default variants) | %s |\n", strings.Join(mapStrings(PaperProblems, func(p string) string { return "`" + p + "`" }), ", "))
	w("| generators × fitness | random, es, ga × Q, QT, QTD | the same |\n")
	w("| population, generations | %d, %d | the same |\n", PaperPop, PaperGenerations)
	w("| operators | tournament 7, crossover 0.5, mutation 0.05, elitism 10%% | the same |\n")
	seeds := "**independent**: every fitness and generator has its own seeds (`sweep --independent-seeds`)"
	if design == "paired" {
		seeds = "**paired**: run k uses seed k under Q, QT and QTD (and every generator), so the fitness variants of a seed are not independent runs; intervals resample whole seeds and fitness comparisons are paired"
	}
	w("| seeds | independent runs | %s |\n", seeds)
	w("| set diversity | the reference at 8ad18b6 (January 2025, `2025-01`) | %s |\n", diversityText(algs))
	w("| runs | %d (10 seeds per configuration) | **%d finished** of %d", total, finished, total)
	if started > 0 {
		w(", %d started and unfinished", started)
	}
	w(" |\n\n")
	if finished < total {
		w("**The sweep is partial.** Finished runs per problem (of %d):", len(PaperFitnesses)*len(paperGenerators)*PaperSeeds)
		for _, p := range PaperProblems {
			w(" %s %d;", short(p), perProblem[p])
		}
		w(" the tables below count only finished runs and say out of how many. Running the same command\n")
		w("again (`make protocol`) skips the finished runs and completes the rest.\n\n")
	}
	w("### Wall-clock\n\n")
	if timing != nil {
		w("The %d finished runs took **%.1f minutes** of wall-clock time on %s (%d runs in parallel)",
			finished, timing.WallSeconds/60, timing.Machine, timing.Jobs)
		if timing.Note != "" {
			w(": %s", timing.Note)
		}
		w(".\n")
	} else {
		w("No timing record (`%s`) in the sweep folder: `make protocol` writes one.\n", TimingFile)
	}
	w("The finished runs' own elapsed times sum to %.1f minutes (each run counts its wall time, so two runs\n", elapsed/60)
	w("sharing the two cores both count). The Python reference, at its median time per evaluation on the\n")
	w("golden items (the table of `make bench`), would need **%.0f CPU-hours** for the same evaluations\n", refMs/3.6e6)
	w("(%.1f days of one core)", refMs/8.64e7)
	if finished < total {
		// Extrapolate to the whole protocol: each problem's mean evaluations per finished run
		// (20,100 = a first population and 200 generations of 100 when none finished yet).
		evals := map[string][]float64{}
		for _, r := range runs {
			if r.Finished() {
				evals[r.Config.Problem] = append(evals[r.Config.Problem], float64(r.Final.Evaluations))
			}
		}
		all := 0.0
		per := float64(len(PaperFitnesses) * len(paperGenerators) * PaperSeeds)
		for _, p := range PaperProblems {
			mean := float64(PaperPop + PaperGenerations*PaperPop)
			if e := evals[p]; len(e) > 0 {
				mean = 0
				for _, x := range e {
					mean += x / float64(len(e))
				}
			}
			all += per * mean * ReferenceInfoMs[string(problems.FamilyOf(p))]
		}
		w(", and about **%.0f CPU-hours** (%.0f days) for the whole protocol", all/3.6e6, all/8.64e7)
	}
	w(", most of it Arcade's agents (0.8 s per evaluation).\n")
	w("How the protocol became this fast, every change checked bit for bit, and what was tried: [speed.md](speed.md).\n\n")

	// Headline.
	w("## Runs with a feasible individual: the paper's headline\n\n")
	w("A run counts when its final population holds at least one feasible individual (quality = 1).\n")
	if design == "paired" {
		w("Summed over problems and fitness functions. The sweep's seeds are paired, so the three fitness runs of\n")
		w("a seed count as one unit: the 95%% interval is a cluster bootstrap over seeds (%s).\n\n", stats.ClusterMethod)
	} else {
		w("Summed over problems and fitness functions, with the 95%% Wilson interval of our fraction (independent runs).\n\n")
	}
	w("| generator | here | 95%% interval | units | the paper |\n|---|---|---|---|---|\n")
	for _, g := range paperGenerators {
		k, n, iv := runShare(selectRuns(pr, "", "", g), design)
		units := stats.NText(iv.N, "run")
		if design == "paired" {
			units = stats.NText(iv.N, "seed")
		}
		w("| %s | %d of %d (%s) | %s | %s | %d of 360 (%s) |\n", g, k, n, pct(k, n), ivRange(iv), units, paperFeasibleRuns[g], pct(paperFeasibleRuns[g], 360))
	}
	w("\nPer problem (runs with a feasible individual of the finished runs, summed over Q, QT and QTD; 95%% Wilson\n")
	w("interval of the share%s):\n\n", map[bool]string{true: ", which treats the paired runs of a seed as independent and so is too narrow", false: ""}[design == "paired"])
	w("| problem | random | es | ga |\n|---|---|---|---|\n")
	for _, p := range PaperProblems {
		w("| %s |", p)
		for _, g := range paperGenerators {
			k, n := v.feasibleRuns(p, g)
			if n == 0 {
				w(" – |")
			} else {
				w(" %d of %d (%s) |", k, n, ivRange(stats.Wilson(k, n)))
			}
		}
		w("\n")
	}
	w("\nPer fitness function (mean over runs of the feasible / unique / controlled individuals of 100 in the final\n")
	w("population, as in Fig. 3; under each, the paper's bars read off its Fig. 3, whose unique counts are the\n")
	w("2025-01 set diversity's; intervals for the unique row are in the Fig. 3 section below):\n\n")
	w("| problem | generator | Q feasible / unique / controlled | QT | QTD |\n|---|---|---|---|---|\n")
	for _, p := range PaperProblems {
		for _, g := range paperGenerators {
			w("| %s | %s |", short(p), g)
			for _, f := range PaperFitnesses {
				if s, ok := v.get(p, f, g); ok {
					w(" %.1f / %.1f / %.1f (n=%d)", s.FeasibleMean, s.UniqueMean, s.ControlledMean, s.Finished)
				} else {
					w(" –")
				}
				if fe, ok := paperFig3[[4]string{"feasible", p, f, g}]; ok {
					w("<br>paper %.1f / %.1f / %.1f", fe[0], paperFig3[[4]string{"unique", p, f, g}][0], paperFig3[[4]string{"controlled", p, f, g}][0])
				}
				w(" |")
			}
			w("\n")
		}
	}

	// Claims.
	w("\n## The paper's claims, checked\n\n")
	w("Each claim of the paper's results section, judged on our finished runs with a 95%% interval or a test\n")
	w("(differences: %s; p: Mann–Whitney U, or for paired seeds the signed-rank test; Holm over a family of\n", stats.DiffMethod)
	w("comparisons). **supported**: the interval lies on the claimed side of 0; **not supported**: on the other\n")
	w("side; **inconclusive (n too small)**: it holds 0. Pairing: %s.\n\n", design)
	w("| claim (the paper) | here | verdict |\n|---|---|---|\n")
	for _, c := range paperClaimsJudged(pr, design) {
		w("| %s | %s | **%s** |\n", c[0], c[1], c[2])
	}
	writeFig3Unique(w, pr, algs, design)

	// Figures.
	w("\n## Fig. 2: maximum fitness per generation\n\n")
	w("Mean over seeds of the best fitness in the population at each generation, with the 95%% Student-t band.\n\n")
	// Report draws a fitness's figures only when the sweep holds runs of it: a link to a
	// figure that was not drawn would show as a broken image.
	drawn := map[string]bool{}
	for _, s := range sums {
		drawn[s.Fitness] = true
	}
	for _, f := range PaperFitnesses {
		if !drawn[f] {
			w("`%s`: no runs in this sweep.\n\n", f)
			continue
		}
		w("`%s`:\n\n![max fitness per generation, %s](%s/fitness-%s.png)\n\n", f, f, fig, f)
	}
	w("## Fig. 3: feasible, unique and controlled individuals in the final populations\n\n")
	w("Mean over seeds (95%% error bars) of the individuals, of 100, whose quality, diversity and controllability reach 1.\n\n")
	for _, f := range PaperFitnesses {
		if drawn[f] {
			w("![final population counts, %s](%s/counts-%s.png)\n\n", f, fig, f)
		}
	}

	// Fig. 4.
	w("## Fig. 4 without the LLM: constructive against search\n\n")
	w("Feasible and unique contents among 100 (mean over runs, 95%% interval): for random, ES and GA the final\n")
	w("population of the protocol's `quality` runs; for the constructive generator one batch of 100 contents per\n")
	w("seed (`--generator constructive --generations 0 --pop 100`).\n\n")
	w("| problem | generator | runs | feasible | unique |\n|---|---|---|---|---|\n")
	for _, p := range []string{"binary-v0", "sokoban-v0", "zelda-v0"} {
		for _, g := range paperGenerators {
			if s, ok := v.get(p, "quality", g); ok {
				w("| %s | %s | %d | %s | %s |\n", short(p), g, s.Finished, pm(s.FeasibleMean, s.FeasibleCI, s.Finished), pm(s.UniqueMean, s.UniqueCI, s.Finished))
			} else {
				w("| %s | %s | 0 | – | – |\n", short(p), g)
			}
		}
		found := false
		for _, s := range fig4 {
			if d, _ := search.Describe(s.Generator); s.Problem == p && d.Constructive && s.Finished > 0 {
				found = true
				w("| %s | %s | %d | %s | %s |\n", short(p), s.Generator, s.Finished, pm(s.FeasibleMean, s.FeasibleCI, s.Finished), pm(s.UniqueMean, s.UniqueCI, s.Finished))
			}
		}
		if !found {
			w("| %s | constructive | 0 | – | – |\n", short(p))
		}
	}
	w("\n")
	return b.String()
}

// pm formats a mean with its 95% half-width (none from a single run).
func pm(mean, ci float64, n int) string {
	if n < 2 || math.IsNaN(ci) {
		return fmt.Sprintf("%.1f", mean)
	}
	return fmt.Sprintf("%.1f ± %.1f", mean, ci)
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}
