package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"pcgwb/problems/experiment"
)

// runPaper is `workbench report --paper DIR --out FILE.md [--figures DIR] [--fig4 DIR]
// [--diversity current|2025-01]`: the paper's comparison (headline with intervals, per-problem
// tables, the claims judged with intervals and tests, Fig. 3's unique row under both set
// diversities beside the paper's values, Fig. 2-4) from a protocol sweep folder, finished or
// not. Every final population is evaluated again for the unique row (experiment.PaperOptions'
// Recount).
func (f *reportFlags) runPaper(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usagef("--paper takes the sweep folder as its value (workbench report --paper DIR --out FILE.md), not %d more argument(s)", len(args))
	}
	if f.set["x"] {
		return usagef("--x does not apply with --paper (the paper's figures are per generation)")
	}
	if f.paper == "" || f.out == "" {
		return usagef("--paper DIR and --out FILE.md are required")
	}
	figs := f.figures
	if figs == "" {
		figs = filepath.Join(filepath.Dir(f.out), "results")
	}
	if f.diversity != "" {
		if _, err := parseDiversity(f.diversity); err != nil {
			return err
		}
	}
	cmd := fmt.Sprintf("workbench report --paper %s --out %s", f.paper, f.out)
	if f.fig4 != "" {
		cmd += " --fig4 " + f.fig4
	}
	if f.diversity != "" {
		cmd += " --diversity " + f.diversity
	}
	if err := experiment.PaperReport(ctx, experiment.PaperOptions{Dir: f.paper, Out: f.out, FigDir: figs, Fig4Dir: f.fig4, Command: cmd,
		Recount: true, Diversity: f.diversity}); err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted; every file written so far is complete: rerun the same command to finish the report")
		}
		return err
	}
	fmt.Fprintf(stdout, "%s written (figures and summary.csv in %s)\n", f.out, figs)
	return nil
}
