package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/problems/experiment"
)

// reportFlags are the flags of `workbench report`: the figures of the runs under DIR, or with
// --paper the comparison with the paper (report_paper.go). --out names the figures folder in
// the first form and the Markdown file in the second, as the README has always said.
type reportFlags struct {
	out, x               string
	paper, figures, fig4 string
	diversity            string // --paper: the unique counts' algorithm (report_paper.go)
	format               string
	compare, latex       bool
	set                  map[string]bool // the flags given on the command line
}

func (f *reportFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "out", "", "folder for the figures (default DIR/plots); with --paper, the Markdown file to write (e.g. docs/results.md)")
	fs.StringVar(&f.x, "x", string(experiment.XGeneration), "x axis of the fitness curves: generation, evaluations, model-calls, tokens or seconds (equal-budget comparisons; a generator that spent none of it is drawn at 0 with a note)")
	fs.StringVar(&f.format, "format", "png", "figure formats, comma-separated: png, svg, pdf (gonum/plot's backends)")
	fs.BoolVar(&f.compare, "compare", false, "also write DIR/differences.csv and DIR/differences.md: every pair of groups of a problem and fitness, with the difference's interval, A12 and p")
	fs.BoolVar(&f.latex, "latex", false, "also write DIR/summary.tex (and DIR/differences.tex with --compare), booktabs tables")
	fs.StringVar(&f.paper, "paper", "", "the protocol sweep folder (make protocol: out/protocol-2025-01): write the comparison with the paper to --out")
	fs.StringVar(&f.figures, "figures", "", "--paper: folder for the figures and summary.csv (default: results/ next to --out)")
	fs.StringVar(&f.fig4, "fig4", "", "--paper: sweep folder with constructive runs (generations 0) on binary, sokoban and zelda")
	fs.StringVar(&f.diversity, "diversity", "", "--paper: count unique individuals with this set diversity (current or 2025-01) on the final populations evaluated again, instead of the values the runs recorded")
}

// reportCommand is `workbench report DIR` and `workbench report --paper DIR --out FILE.md`.
// The numbers and figures are experiment's; this prints where they went.
func reportCommand() *Command {
	return &Command{
		Name:  "report",
		Args:  []string{"[DIR]"},
		Short: "DIR: summary.csv, runs.csv and the paper's figures from the runs under DIR",
		Long: `report DIR [--out FIGDIR --x generation|evaluations|model-calls|tokens|seconds --format png,svg,pdf --compare --latex]
writes DIR/summary.csv (one row per configuration), DIR/runs.csv (one row per run) and the
figures of every run under DIR; --compare adds DIR/differences.csv and DIR/differences.md (every
pair of groups sharing a problem and fitness: difference with its 95% interval, Vargha–Delaney
A12, Mann–Whitney p and Holm's p; docs/statistics.md), --latex the tables as .tex. report --paper DIR --out FILE.md [--figures DIR --fig4 DIR]
writes the comparison with the paper (make protocol regenerates docs/results.md this way).`,
		Setup: func(fs *flag.FlagSet) Runner {
			var f reportFlags
			f.register(fs)
			return func(ctx context.Context, args []string, cio IO) error {
				f.set = map[string]bool{}
				fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
				if f.set["paper"] {
					return f.runPaper(ctx, args, cio.Stdout)
				}
				return f.run(ctx, args, cio.Stdout)
			}
		},
	}
}

// run is `workbench report DIR`.
func (f *reportFlags) run(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usagef("expected DIR, got %d argument(s)", len(args))
	}
	var stray []string
	for _, n := range []string{"figures", "fig4", "diversity"} {
		if f.set[n] {
			stray = append(stray, "--"+n)
		}
	}
	if len(stray) > 0 {
		return usagef("%s only apply with --paper", strings.Join(stray, ", "))
	}
	x, err := experiment.ParseXAxis(f.x)
	if err != nil {
		return usageError{err.Error()}
	}
	formats, err := experiment.ParseFormats(f.format)
	if err != nil {
		return usageError{err.Error()}
	}
	res, err := experiment.ReportWith(ctx, args[0], f.out, experiment.ReportOptions{X: x, Formats: formats, Compare: f.compare, LaTeX: f.latex})
	if err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted; every file written so far is complete: rerun the same command to finish the report")
		}
		return err
	}
	fmt.Fprintln(stdout, res.Summary)
	fmt.Fprintln(stdout, res.Runs)
	if f.compare {
		fmt.Fprintln(stdout, res.DifferencesCSV)
		fmt.Fprintln(stdout, res.DifferencesMD)
	}
	for _, p := range res.LaTeX {
		fmt.Fprintln(stdout, p)
	}
	for _, f := range res.Figures {
		fmt.Fprintln(stdout, f)
	}
	// The paper's headline count: runs whose final population holds a feasible individual.
	type tally struct{ feasible, finished int }
	byGen := map[string]*tally{}
	var order []string
	for _, s := range res.Summaries {
		t, ok := byGen[s.Generator]
		if !ok {
			t = &tally{}
			byGen[s.Generator] = t
			order = append(order, s.Generator)
		}
		t.feasible += s.RunsWithFeasible
		t.finished += s.Finished
	}
	for _, g := range order {
		fmt.Fprintf(stdout, "%s: feasible individuals in the final population in %d of %d finished runs\n", g, byGen[g].feasible, byGen[g].finished)
	}
	return nil
}
