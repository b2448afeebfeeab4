package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/problems/experiment"
	"pcgwb/problems/experiment/slurm"
)

// submitSlurm is `workbench sweep ... --slurm`: the sweep s submitted as a Slurm job array
// (or, with --dry-run, the script and the jobs printed). Finished runs are left out, so
// submitting again after a partial run only queues what is left.
func (f *sweepFlags) submitSlurm(ctx context.Context, s experiment.Sweep, stdout io.Writer) error {
	prog := f.program
	var err error
	if prog == "" {
		if prog, err = os.Executable(); err != nil {
			return err
		}
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return err
	}
	plan, err := slurm.Prepare(s, slurm.Options{Program: prog, Partition: f.partition, Time: f.time, Mem: f.mem,
		Account: f.account, MaxParallel: f.maxParallel, CPUs: f.cpus})
	if err != nil {
		return usageError{err.Error()}
	}
	if f.dryRun {
		fmt.Fprintf(stdout, "# %s (not written: --dry-run)\n%s\n# %s: %d runs\n", filepath.Join(plan.Dir, slurm.ScriptFile), plan.Script, filepath.Join(plan.Dir, slurm.JobsFile), len(plan.Lines))
		for _, l := range plan.Lines {
			fmt.Fprintln(stdout, l)
		}
		return nil
	}
	if len(plan.Jobs) == 0 {
		fmt.Fprintf(stdout, "every run of the sweep in %s is finished: nothing to submit\n", f.out)
		return nil
	}
	if err := plan.Write(); err != nil {
		return err
	}
	id, err := plan.Submit(ctx)
	if err != nil {
		return fmt.Errorf("%w (the script is %s; submit it by hand with sbatch)", err, filepath.Join(plan.Dir, slurm.ScriptFile))
	}
	fmt.Fprintf(stdout, "submitted job %s: %d runs as array tasks 1-%d (%s)\nfollow it with: workbench sweep --status %s\n",
		id, len(plan.Jobs), len(plan.Jobs), filepath.Join(plan.Dir, slurm.ScriptFile), f.out)
	return nil
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
