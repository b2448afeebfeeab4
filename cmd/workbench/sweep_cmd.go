package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// sweepFlags are the flags of `workbench sweep`: the grid of runs, then how it is run (here in
// parallel, printed as --emit-jobs lines, or submitted as a Slurm job array with --slurm), or
// --status of a sweep folder. They are declared on one FlagSet so that -h lists them all and a
// flag of another mode is refused by name rather than as an unknown flag.
type sweepFlags struct {
	problems, generators, fitness, out, axes, program string
	seeds, generations, pop, jobs                     int
	emit, independent                                 bool
	diversity                                         *string

	slurm                          bool
	status                         string
	partition, time, mem, account  string
	maxParallel, cpus, runsPerTask int
	dryRun                         bool
	checkpoint                     checkpointFlags
	sharedMiB                      int

	set                  map[string]bool // the flags given on the command line
	slurmOnly, localOnly []string        // flags that only one mode reads
}

func (f *sweepFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.problems, "problems", "", "comma-separated problem names, or \"all\"")
	fs.StringVar(&f.generators, "generators", strings.Join(search.PaperGenerators(), ","), "comma-separated generators")
	fs.StringVar(&f.fitness, "fitness", strings.Join(search.Fitnesses(), ","), "comma-separated fitness functions")
	fs.IntVar(&f.seeds, "seeds", 10, "runs per configuration (1..N); their seeds are 1..N unless --independent-seeds")
	fs.BoolVar(&f.independent, "independent-seeds", false, "give every fitness and generator its own seeds (the paper's independent runs) instead of the paired design where run k uses seed k under all of them")
	f.diversity = registerDiversity(fs)
	fs.IntVar(&f.generations, "generations", 200, "generations per run")
	fs.IntVar(&f.pop, "pop", 100, "population size")
	fs.StringVar(&f.out, "out", "", "sweep folder (runs go to OUT/problem/fitness/generator/seed)")
	fs.IntVar(&f.jobs, "jobs", 0, "runs in parallel (default: the number of cores; ignored with --slurm: one array task per run)")
	fs.BoolVar(&f.emit, "emit-jobs", false, "instead of running: create each unfinished run's folder with its config.json and print one `workbench run --resume DIR` line per run, for a scheduler")
	fs.StringVar(&f.program, "program", "", "with --emit-jobs, the command written at the start of each line (default workbench); with --slurm, the workbench binary the tasks run (default: this one)")
	fs.StringVar(&f.axes, "axes", "", "mapelites axes (see workbench run)")
	fs.BoolVar(&f.slurm, "slurm", false, "submit the sweep as a Slurm job array")
	fs.StringVar(&f.status, "status", "", "show the state of the runs of this sweep folder")
	fs.StringVar(&f.partition, "partition", "", "--slurm: Slurm partition")
	fs.StringVar(&f.time, "time", "", "--slurm: time limit per run (Slurm's --time, e.g. 01:00:00)")
	fs.StringVar(&f.mem, "mem", "", "--slurm: memory per run (Slurm's --mem, e.g. 2G)")
	fs.StringVar(&f.account, "account", "", "--slurm: Slurm account")
	fs.IntVar(&f.maxParallel, "max-parallel", 0, "--slurm: at most this many runs at once (the array's %N)")
	fs.IntVar(&f.cpus, "cpus", 1, "--slurm: CPUs per run")
	fs.IntVar(&f.runsPerTask, "runs-per-task", 1, "--slurm: bundle this many runs, one after the other, into each array task (cheap runs)")
	f.checkpoint.register(fs)
	fs.IntVar(&f.sharedMiB, "shared-cache-mib", 0, fmt.Sprintf("memory for the infos and diversities the sweep's runs share, in MiB (default %d; -1: no sharing; results are the same either way)", search.DefaultSharedBytes>>20))
	fs.BoolVar(&f.dryRun, "dry-run", false, "--slurm: print the script and the jobs instead of writing and submitting them")
	f.slurmOnly = []string{"partition", "time", "mem", "account", "max-parallel", "cpus", "runs-per-task", "dry-run"}
	f.localOnly = []string{"emit-jobs", "shared-cache-mib"}
}

// sweepCommand is `workbench sweep`: a grid of runs in parallel across cores, finished runs
// skipped on restart; the experiment package runs it, this prints its progress.
func sweepCommand() *Command {
	return &Command{
		Name:  "sweep",
		Short: "--problems ... --generators ... --fitness ... --seeds N --out DIR [--emit-jobs]: a grid of runs in parallel",
		Long: `Runs every problem × fitness × generator × seed (1..N) into OUT/problem/fitness/generator/seed,
in parallel across cores; finished runs are skipped, so the same command continues an
interrupted sweep. --emit-jobs instead creates each unfinished run's folder with its
config.json (the run's whole configuration) and prints one 'workbench run --resume DIR' line
per run, for a batch scheduler.
--slurm [--partition P --time T --mem M --account A --max-parallel N --cpus C --runs-per-task N --dry-run]
submits the sweep as a Slurm job array; sweep --status DIR shows its runs' states.`,
		Setup: func(fs *flag.FlagSet) Runner {
			var f sweepFlags
			f.register(fs)
			return func(ctx context.Context, _ []string, cio IO) error {
				f.set = map[string]bool{}
				fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
				return f.run(ctx, cio.Stdout, cio.Stderr)
			}
		},
	}
}

// given lists the flags among names that were given, as "--name".
func (f *sweepFlags) given(names []string) []string {
	var out []string
	for _, n := range names {
		if f.set[n] {
			out = append(out, "--"+n)
		}
	}
	return out
}

// run picks the mode: --status, --slurm, --emit-jobs or the local sweep.
func (f *sweepFlags) run(ctx context.Context, stdout, stderr io.Writer) error {
	if f.set["status"] {
		if f.slurm {
			return usagef("--status and --slurm do not go together")
		}
		if f.status == "" {
			return usagef("--status needs a sweep folder")
		}
		return printSweepStatus(ctx, f.status, stdout)
	}
	if f.slurm {
		if stray := f.given(f.localOnly); len(stray) > 0 {
			return usagef("%s does not go with --slurm", strings.Join(stray, ", "))
		}
	} else if stray := f.given(f.slurmOnly); len(stray) > 0 {
		return usagef("%s only apply with --slurm", strings.Join(stray, ", "))
	}
	s, err := f.sweep()
	if err != nil {
		return err
	}
	switch {
	case f.slurm:
		return f.submitSlurm(ctx, s, stdout) // sweep_slurm.go
	case f.emit:
		program := f.program
		if program == "" {
			program = "workbench"
		}
		lines, err := s.EmitJobs(program)
		if err != nil {
			return usageError{err.Error()}
		}
		for _, l := range lines {
			fmt.Fprintln(stdout, l)
		}
		return nil
	}
	return runSweep(ctx, s, f.out, stdout, stderr)
}

// sweep checks the grid flags and builds the sweep (Out made absolute: the runs' folders and
// the emitted commands do not depend on where they are run from).
func (f *sweepFlags) sweep() (experiment.Sweep, error) {
	if f.problems == "" || f.out == "" {
		return experiment.Sweep{}, usagef("--problems and --out are required")
	}
	if slices.Contains(splitList(f.generators), llm.GeneratorName) {
		return experiment.Sweep{}, usagef("a sweep does not run the llm generator: LLM runs are started one at a time with `workbench run --generator llm --problem P ...` (their endpoint, prompt and cache settings are per run)")
	}
	names := splitList(f.problems)
	if len(names) == 1 && names[0] == "all" {
		names = problems.List()
	}
	ax, err := search.ParseAxes(f.axes)
	if err != nil {
		return experiment.Sweep{}, usageError{err.Error()}
	}
	outDir, err := filepath.Abs(f.out)
	if err != nil {
		return experiment.Sweep{}, err
	}
	cadence, err := f.checkpoint.cadence()
	if err != nil {
		return experiment.Sweep{}, err
	}
	alg, err := parseDiversity(*f.diversity)
	if err != nil {
		return experiment.Sweep{}, err
	}
	if f.sharedMiB < -1 {
		return experiment.Sweep{}, usagef("--shared-cache-mib must be -1 (no sharing), 0 (the default) or a size")
	}
	return experiment.Sweep{Problems: names, Generators: splitList(f.generators), Fitnesses: splitList(f.fitness), Seeds: f.seeds,
		Generations: f.generations, Options: search.Options{PopSize: f.pop, Axes: ax, Diversity: string(alg)}, Out: outDir, Workers: f.jobs,
		Checkpoint: cadence, SharedBytes: int64(f.sharedMiB) << 20, IndependentSeeds: f.independent}, nil
}

// runSweep runs the sweep here until it is done or ctx is cancelled (Ctrl-C), printing one
// line per finished run, or one redrawn status line on a terminal, on stderr; the result line
// goes to stdout.
func runSweep(ctx context.Context, s experiment.Sweep, out string, stdout, stderr io.Writer) error {
	all, err := s.Jobs()
	if err != nil {
		return usageError{err.Error()}
	}
	tty := isTerminal(stderr)
	design := "paired seeds: run k uses seed k under every fitness and generator"
	if s.IndependentSeeds {
		design = "independent seeds for every fitness and generator"
	}
	fmt.Fprintf(stderr, "sweep: %d runs (%d problems × %d fitness × %d generators × %d seeds) in %s; %s\n",
		len(all), len(s.Problems), len(s.Fitnesses), len(s.Generators), s.Seeds, s.Out, design)
	start := time.Now()
	var mu sync.Mutex
	running := map[string]int{}
	progress := func(p experiment.Progress) {
		mu.Lock()
		defer mu.Unlock()
		name := jobName(p.Job)
		switch {
		case p.Event != nil:
			running[name] = p.Event.Generation
		case p.Done:
			delete(running, name)
		default:
			running[name] = -1
			return
		}
		if p.Event != nil && !tty {
			return
		}
		if p.Done && !tty {
			status := "done"
			switch {
			case p.Skipped:
				status = "already done"
			case p.Err != nil:
				status = "FAILED: " + p.Err.Error()
			}
			fmt.Fprintf(stderr, "[%d/%d] %s %s (%.0fs)\n", p.Finished, p.Total, name, status, time.Since(start).Seconds())
			return
		}
		if p.Done && p.Err != nil {
			fmt.Fprintf(stderr, "\r\x1b[K%s FAILED: %v\n", name, p.Err)
		}
		var parts []string
		for n, g := range running {
			parts = append(parts, fmt.Sprintf("%s@%d", n, g))
		}
		fmt.Fprintf(stderr, "\r[%d/%d runs, %.0fs] %s\x1b[K", p.Finished, p.Total, time.Since(start).Seconds(), strings.Join(parts, " "))
	}
	err = s.Run(ctx, progress)
	if tty {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted; rerun the same command to continue")
		}
		return err
	}
	fmt.Fprintf(stdout, "sweep finished in %.0fs; `workbench report %s` draws the figures\n", time.Since(start).Seconds(), out)
	return nil
}

// jobName is the run's folder below the sweep: problem/fitness/generator/replicate (the
// replicate is the seed of a paired sweep).
func jobName(j experiment.Job) string {
	c := j.Config
	return fmt.Sprintf("%s/%s/%s/%d", c.Problem, c.Fitness, c.Generator, j.Replicate)
}
