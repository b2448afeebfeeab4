package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/experiment/slurm"
	"pcgwb/problems/search"
)

// wantsSlurm reports whether a sweep command line asks for --slurm or --status, which
// sweepSlurm handles instead of the local sweep.
func wantsSlurm(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "slurm" || name == "status") {
			return true
		}
	}
	return false
}

// sweepSlurm is `workbench sweep ... --slurm` (submit the sweep as a Slurm job array) and
// `workbench sweep --status DIR`. handled is false when the command line asks for neither.
func sweepSlurm(ctx context.Context, args []string, stdout io.Writer) (handled bool, err error) {
	if !wantsSlurm(args) {
		return false, nil
	}
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	probs := fs.String("problems", "", "comma-separated problem names, or \"all\"")
	gens := fs.String("generators", strings.Join(search.PaperGenerators(), ","), "comma-separated generators")
	fits := fs.String("fitness", strings.Join(search.Fitnesses(), ","), "comma-separated fitness functions")
	seeds := fs.Int("seeds", 10, "seeds per configuration (1..N)")
	generations := fs.Int("generations", 200, "generations per run")
	pop := fs.Int("pop", 100, "population size")
	out := fs.String("out", "", "sweep folder")
	axes := fs.String("axes", "", "mapelites axes (see workbench run)")
	fs.Int("jobs", 0, "ignored with --slurm (one array task per run)")
	program := fs.String("program", "", "the workbench binary the tasks run (default: this one)")
	useSlurm := fs.Bool("slurm", false, "submit the sweep as a Slurm job array")
	status := fs.String("status", "", "show the state of the runs of this sweep folder")
	partition := fs.String("partition", "", "Slurm partition")
	timeLimit := fs.String("time", "", "time limit per run (Slurm's --time, e.g. 01:00:00)")
	mem := fs.String("mem", "", "memory per run (Slurm's --mem, e.g. 2G)")
	account := fs.String("account", "", "Slurm account")
	maxParallel := fs.Int("max-parallel", 0, "at most this many runs at once (the array's %N)")
	cpus := fs.Int("cpus", 1, "CPUs per run")
	dryRun := fs.Bool("dry-run", false, "print the script and the jobs instead of writing and submitting them")
	if _, err := parseArgs(fs, args); err != nil {
		return true, err
	}
	if *status != "" {
		if *useSlurm {
			return true, usagef("--status and --slurm do not go together")
		}
		return true, printSweepStatus(ctx, *status, stdout)
	}
	if !*useSlurm {
		return true, usagef("--status needs a sweep folder")
	}
	if *probs == "" || *out == "" {
		return true, usagef("--problems and --out are required")
	}
	if slices.Contains(splitList(*gens), "llm") {
		return true, usagef("a sweep does not run the llm generator")
	}
	names := splitList(*probs)
	if len(names) == 1 && names[0] == "all" {
		names = problems.List()
	}
	ax, err := search.ParseAxes(*axes)
	if err != nil {
		return true, usageError{err.Error()}
	}
	prog := *program
	if prog == "" {
		if prog, err = os.Executable(); err != nil {
			return true, err
		}
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return true, err
	}
	s := experiment.Sweep{Problems: names, Generators: splitList(*gens), Fitnesses: splitList(*fits), Seeds: *seeds,
		Generations: *generations, Options: search.Options{PopSize: *pop, Axes: ax}, Out: *out}
	plan, err := slurm.Prepare(s, slurm.Options{Program: prog, Partition: *partition, Time: *timeLimit, Mem: *mem,
		Account: *account, MaxParallel: *maxParallel, CPUs: *cpus})
	if err != nil {
		return true, usageError{err.Error()}
	}
	if *dryRun {
		fmt.Fprintf(stdout, "# %s (not written: --dry-run)\n%s\n# %s: %d runs\n", filepath.Join(plan.Dir, slurm.ScriptFile), plan.Script, filepath.Join(plan.Dir, slurm.JobsFile), len(plan.Lines))
		for _, l := range plan.Lines {
			fmt.Fprintln(stdout, l)
		}
		return true, nil
	}
	if len(plan.Jobs) == 0 {
		fmt.Fprintf(stdout, "every run of the sweep in %s is finished: nothing to submit\n", *out)
		return true, nil
	}
	if err := plan.Write(); err != nil {
		return true, err
	}
	id, err := plan.Submit(ctx)
	if err != nil {
		return true, fmt.Errorf("%w (the script is %s; submit it by hand with sbatch)", err, filepath.Join(plan.Dir, slurm.ScriptFile))
	}
	fmt.Fprintf(stdout, "submitted job %s: %d runs as array tasks 1-%d (%s)\nfollow it with: workbench sweep --status %s\n",
		id, len(plan.Jobs), len(plan.Jobs), filepath.Join(plan.Dir, slurm.ScriptFile), *out)
	return true, nil
}

// printSweepStatus prints the counts and the runs that are not finished.
func printSweepStatus(ctx context.Context, dir string, stdout io.Writer) error {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("%s is not a sweep folder", dir)
	}
	rep, err := slurm.SweepStatus(ctx, dir, slurm.Command())
	if err != nil {
		return err
	}
	var parts []string
	for _, st := range slurm.States {
		parts = append(parts, fmt.Sprintf("%d %s", rep.Counts[st], st))
	}
	source := "run folders"
	if rep.Slurm {
		source = "run folders, squeue and sacct"
	}
	fmt.Fprintf(stdout, "%s: %d runs: %s (from the %s)\n", dir, len(rep.Runs), strings.Join(parts, ", "), source)
	for _, n := range rep.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	for _, r := range rep.Runs {
		if r.State == slurm.Finished {
			continue
		}
		line := fmt.Sprintf("%-8s %s", r.State, r.Dir)
		if r.Generation >= 0 {
			line += fmt.Sprintf("  generation %d of %d", r.Generation, r.Generations)
		}
		if r.Task != "" {
			line += "  task " + r.Task
			if r.SlurmState != "" {
				line += " " + r.SlurmState
			}
		}
		fmt.Fprintln(stdout, line)
	}
	return nil
}
