package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLIContext runs a command line with ctx as the Runner's context (main's is cancelled by
// Ctrl-C and SIGTERM).
func runCLIContext(ctx context.Context, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := runContext(ctx, args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// A flag of another mode of sweep or report is refused by name with exit 2 (before the
// command tree, the other mode's flags were unknown flags, also exit 2), and -h lists every
// mode's flags.
func TestSweepAndReportModeFlags(t *testing.T) {
	tmp := t.TempDir()
	grid := []string{"--problems", "binary-v0", "--generators", "ga", "--fitness", "quality", "--seeds", "1",
		"--generations", "1", "--pop", "4", "--out", filepath.Join(tmp, "sweep")}
	usage := []struct {
		name string
		args []string
		want string
	}{
		{"status with slurm", []string{"sweep", "--status", tmp, "--slurm"}, "do not go together"},
		{"empty status", []string{"sweep", "--status", ""}, "--status needs a sweep folder"},
		{"slurm flag without slurm", append([]string{"sweep", "--partition", "debug", "--dry-run"}, grid...), "--partition, --dry-run only apply with --slurm"},
		{"emit-jobs with slurm", append([]string{"sweep", "--slurm", "--emit-jobs"}, grid...), "--emit-jobs does not go with --slurm"},
		{"slurm without a grid", []string{"sweep", "--slurm", "--out", tmp}, "--problems and --out are required"},
		{"slurm with llm", []string{"sweep", "--slurm", "--problems", "binary-v0", "--generators", "llm", "--out", tmp}, "does not run the llm generator"},
		{"sweep takes no argument", append([]string{"sweep", "extra"}, grid...), "got 1 argument"},
		{"report without DIR", []string{"report", "--x", "evaluations"}, "expected DIR"},
		{"report with two DIRs", []string{"report", tmp, tmp}, "got 2 argument"},
		{"paper flag without paper", []string{"report", tmp, "--fig4", tmp}, "--fig4 only apply with --paper"},
		{"paper without out", []string{"report", "--paper", tmp}, "--paper DIR and --out FILE.md are required"},
		{"paper with a DIR argument", []string{"report", "--paper", tmp, "--out", filepath.Join(tmp, "r.md"), tmp}, "takes the sweep folder as its value"},
		{"paper with x", []string{"report", "--paper", tmp, "--out", filepath.Join(tmp, "r.md"), "--x", "evaluations"}, "--x does not apply with --paper"},
		{"unknown flag", []string{"report", tmp, "--bogus"}, "flag provided but not defined"},
	}
	for _, c := range usage {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d, stderr %q, stdout %q (want 2 and %q)", c.args, code, errs, out, c.want)
			}
		})
	}
	help := []struct {
		args []string
		want []string
	}{
		{[]string{"sweep", "-h"}, []string{"usage: workbench sweep [flags]", "-emit-jobs", "-slurm", "-status string", "-max-parallel int", "--status DIR"}},
		{[]string{"report", "--help"}, []string{"usage: workbench report [flags] [DIR]", "-paper string", "-x string", "-fig4 string", "report --paper DIR --out FILE.md"}},
	}
	for _, c := range help {
		code, out, errs := runCLI(t, c.args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: help lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

// sweep --slurm --dry-run prints the array script and one task line per run without writing
// anything or needing a cluster.
func TestSweepSlurmDryRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, errs := runCLI(t, "sweep", "--problems", "binary-v0", "--generators", "random,ga", "--fitness", "quality",
		"--seeds", "2", "--generations", "1", "--pop", "4", "--out", out, "--slurm", "--dry-run", "--program", "/opt/wb/workbench",
		"--partition", "debug", "--max-parallel", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	tasks := 0
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "/opt/wb/workbench run ") {
			tasks++
		}
	}
	for _, w := range []string{"(not written: --dry-run)", "#SBATCH", "debug", "%3", ": 4 runs"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("dry run lacks %q:\n%s", w, stdout)
		}
	}
	if tasks != 4 {
		t.Errorf("%d task lines, want 4:\n%s", tasks, stdout)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--dry-run created %s", out)
	}
}

// sweep and report run under the Runner's context: cancelled (Ctrl-C in main), they stop with
// exit 1 and say how to continue, and an interrupted report writes no summary.
func TestSweepAndReportStopWhenCancelled(t *testing.T) {
	tmp := t.TempDir()
	runDir := filepath.Join(tmp, "runs", "one")
	if code, _, errs := runCLI(t, "run", "--problem", "binary-v0", "--generator", "ga", "--fitness", "quality",
		"--generations", "1", "--pop", "4", "--out", runDir, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		args []string
		want string
		none string // a file the interrupted command must not have written
	}{
		{"sweep", []string{"sweep", "--problems", "binary-v0", "--generators", "ga", "--fitness", "quality", "--seeds", "2",
			"--generations", "50", "--pop", "4", "--out", filepath.Join(tmp, "sweep")}, "interrupted; rerun the same command to continue",
			filepath.Join(tmp, "sweep", "binary-v0", "quality", "ga", "1", "final.json")},
		{"report", []string{"report", filepath.Join(tmp, "runs")}, "interrupted; every file written so far is complete",
			filepath.Join(tmp, "runs", "summary.csv")},
		{"report --paper", []string{"report", "--paper", filepath.Join(tmp, "runs"), "--out", filepath.Join(tmp, "results.md")},
			"interrupted; every file written so far is complete", filepath.Join(tmp, "results.md")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLIContext(ctx, tt.args...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Fatalf("exit %d, stderr %q, stdout %q (want 1 and %q)", code, errs, out, tt.want)
			}
			if _, err := os.Stat(tt.none); err == nil {
				t.Errorf("the interrupted %s wrote %s", tt.name, tt.none)
			}
		})
	}
	// The same report, not cancelled, writes its summary: the run folder was fine.
	if code, _, errs := runCLIContext(context.Background(), "report", filepath.Join(tmp, "runs")); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(tmp, "runs", "summary.csv")); err != nil {
		t.Fatal(err)
	}
}
