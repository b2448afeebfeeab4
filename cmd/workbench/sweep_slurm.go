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
	if f.runsPerTask < 1 {
		return usagef("--runs-per-task must be at least 1")
	}
	o := slurm.Options{Program: prog, Partition: f.partition, Time: f.time, Mem: f.mem,
		Account: f.account, MaxParallel: f.maxParallel, CPUs: f.cpus, RunsPerTask: f.runsPerTask}
	if s.Checkpoint != experiment.DefaultCheckpoint {
		o.Checkpoint = s.Checkpoint
	}
	// The cluster's array size limit; without scontrol (a dry run elsewhere) Slurm's default.
	if n, err := slurm.MaxArraySize(ctx, slurm.Command()); err == nil {
		o.MaxArraySize = n
	} else if !f.dryRun {
		return fmt.Errorf("reading the cluster's MaxArraySize: %w", err)
	}
	plan, err := slurm.Prepare(s, o)
	if err != nil {
		return usageError{err.Error()}
	}
	if f.dryRun {
		fmt.Fprintf(stdout, "# %s (not written: --dry-run)\n%s\n# %s: %d runs, %s\n", filepath.Join(plan.Dir, slurm.ScriptFile), plan.Script,
			filepath.Join(plan.Dir, slurm.JobsFile), len(plan.Lines), arraysText(plan))
		for _, a := range plan.Arrays() {
			fmt.Fprintf(stdout, "# sbatch %s\n", strings.Join(plan.SbatchArgs(a), " "))
		}
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
	ids, err := plan.Submit(ctx)
	if err != nil {
		return fmt.Errorf("%w (the script is %s; submit it by hand with sbatch --array=1-N SCRIPT OFFSET)", err, filepath.Join(plan.Dir, slurm.ScriptFile))
	}
	fmt.Fprintf(stdout, "submitted job %s: %d runs, %s (%s)\nfollow it with: workbench sweep --status %s\n",
		strings.Join(ids, ","), len(plan.Jobs), arraysText(plan), filepath.Join(plan.Dir, slurm.ScriptFile), f.out)
	return nil
}

// arraysText says how the runs are laid out in tasks and arrays.
func arraysText(p *slurm.Plan) string {
	var parts []string
	for _, a := range p.Arrays() {
		parts = append(parts, fmt.Sprintf("1-%d", a.Tasks))
	}
	return fmt.Sprintf("%d per task in %d task(s), array(s) %s (MaxArraySize %d)", p.Options.RunsPerTask, p.Tasks(),
		strings.Join(parts, " "), p.Options.MaxArraySize)
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
