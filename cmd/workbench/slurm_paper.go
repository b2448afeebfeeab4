package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"pcgwb/problems/experiment"
)

// reportPaper is `workbench report --paper DIR --out FILE.md [--figures DIR] [--fig4 DIR]`:
// the paper's comparison (headline with intervals, per-problem tables, the claims checked,
// Fig. 2-4) from a protocol sweep folder, finished or not. handled is false without --paper.
func reportPaper(args []string, stdout io.Writer) (handled bool, err error) {
	paper := false
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		paper = paper || (strings.HasPrefix(a, "-") && name == "paper")
	}
	if !paper {
		return false, nil
	}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	dir := fs.String("paper", "", "the protocol sweep folder (make protocol: out/protocol)")
	out := fs.String("out", "", "the Markdown file to write (e.g. docs/results.md)")
	figs := fs.String("figures", "", "folder for the figures and summary.csv (default: results/ next to --out)")
	fig4 := fs.String("fig4", "", "sweep folder with constructive runs (generations 0) on binary, sokoban and zelda")
	if _, err := parseArgs(fs, args); err != nil {
		return true, err
	}
	if *dir == "" || *out == "" {
		return true, usagef("--paper DIR and --out FILE.md are required")
	}
	if *figs == "" {
		*figs = filepath.Join(filepath.Dir(*out), "results")
	}
	cmd := fmt.Sprintf("workbench report --paper %s --out %s", *dir, *out)
	if *fig4 != "" {
		cmd += " --fig4 " + *fig4
	}
	if err := experiment.PaperReport(experiment.PaperOptions{Dir: *dir, Out: *out, FigDir: *figs, Fig4Dir: *fig4, Command: cmd}); err != nil {
		return true, err
	}
	fmt.Fprintf(stdout, "%s written (figures and summary.csv in %s)\n", *out, *figs)
	return true, nil
}
