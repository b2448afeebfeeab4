package experiment

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"pcgwb/internal/folderlock"
	"pcgwb/problems/search"
)

// Sweep is a grid of runs: every problem × fitness × generator × replicate (1..Seeds, the
// run folder's last name), all with the same generations and generator settings.
//
// By default the design is paired: replicate k runs with seed k under every fitness and
// generator, so the variants of one replicate share their random numbers (Q, QT and QTD runs
// stay identical until a feasible individual appears, random search's for ever) and their
// differences are paired comparisons. With IndependentSeeds every fitness and generator gets
// its own seeds (IndependentSeed), as the paper's independent runs.
type Sweep struct {
	Problems    []string
	Generators  []string
	Fitnesses   []string
	Seeds       int
	Generations int
	// IndependentSeeds gives each (fitness, generator) its own seed per replicate instead of
	// the replicate number.
	IndependentSeeds bool
	// Options are the generator settings shared by all runs (problem, fitness and seed are
	// set per run).
	Options search.Options
	Out     string
	// Workers is the number of runs in flight (default: the number of cores). Each run also
	// evaluates its populations in parallel, so memory is bounded by Workers populations.
	Workers int
	// Checkpoint is every run's checkpoint cadence (the zero value is DefaultCheckpoint).
	Checkpoint Cadence
	// SharedBytes bounds the cache of infos and diversities that the sweep's runs share
	// (search.SharedCache): 0 is search.DefaultSharedBytes, a negative value turns sharing
	// off. Every run's files are the same either way; only the time differs.
	SharedBytes int64
	// Shared, when set, is the cache the runs share instead of one made for this Run (so a
	// caller can read its statistics, or share it between sweeps of one process).
	Shared *search.SharedCache
}

// Job is one run of a sweep.
type Job struct {
	Dir    string
	Config Config
	// Replicate is the run's number among its configuration's runs (1..Seeds): its seed in
	// a paired sweep.
	Replicate int
	// Checkpoint is the run's checkpoint cadence (execution only: not part of the result).
	Checkpoint Cadence
}

// Jobs lists the sweep's runs in a fixed order and checks every configuration up front, so a
// typo fails before hours of work rather than in the middle.
func (s Sweep) Jobs() ([]Job, error) {
	if s.Seeds < 1 {
		return nil, fmt.Errorf("seeds must be at least 1, got %d", s.Seeds)
	}
	if len(s.Problems) == 0 || len(s.Generators) == 0 || len(s.Fitnesses) == 0 {
		return nil, errors.New("a sweep needs at least one problem, generator and fitness")
	}
	var jobs []Job
	for _, p := range s.Problems {
		for _, f := range s.Fitnesses {
			for _, g := range s.Generators {
				for k := 1; k <= s.Seeds; k++ {
					opts := s.Options
					opts.Problem, opts.Fitness, opts.Seed = p, f, uint64(k)
					cfg, err := Config{Generator: g, Generations: s.Generations, Options: opts}.Normalize()
					if err != nil {
						return nil, fmt.Errorf("%s %s %s: %w", p, g, f, err)
					}
					if s.IndependentSeeds {
						cfg.Seed = IndependentSeed(cfg.Fitness, g, k)
					}
					dir := filepath.Join(s.Out, p, cfg.Fitness, g, strconv.Itoa(k))
					jobs = append(jobs, Job{Dir: dir, Config: cfg, Replicate: k, Checkpoint: s.Checkpoint})
				}
			}
		}
	}
	return jobs, nil
}

// IndependentSeed is replicate k's seed for fitness and generator in a sweep with independent
// seeds: the first 53 bits of the FNV-1a hash of "fitness/generator/k" (exact in any JSON
// reader), so no two fitness functions or generators share a seed and a sweep over a subset
// of them gives the same runs.
func IndependentSeed(fitness, generator string, k int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%s/%d", fitness, generator, k)
	return h.Sum64() >> 11
}

// Progress is reported as runs start, advance and finish.
type Progress struct {
	Job   Job
	Event *search.Event // nil when the job starts or ends
	Done  bool
	// Skipped is set for a job that was already finished.
	Skipped bool
	Err     error
	// Finished counts the jobs done so far (including skipped and failed), out of Total.
	Finished, Total int
}

// Run executes the sweep with a pool of workers, skipping finished runs and resuming
// interrupted ones. After all started runs stop it returns every run's failure, joined in the
// order the runs finished (one failed run stops no other); cancelling ctx
// stops every run within its current generation. The sweep folder is locked for the duration
// (a second sweep on it gets a *folderlock.HeldError), and every run locks its own folder.
func (s Sweep) Run(ctx context.Context, progress func(Progress)) error {
	jobs, err := s.Jobs()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Out, 0o755); err != nil {
		return err
	}
	lock, err := folderlock.Acquire(s.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(jobs))
	var mu sync.Mutex
	finished := 0
	var errs []error
	report := func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Done {
			finished++
			if p.Err != nil && !errors.Is(p.Err, context.Canceled) {
				errs = append(errs, fmt.Errorf("%s: %w", p.Job.Dir, p.Err))
			}
		}
		p.Finished, p.Total = finished, len(jobs)
		if progress != nil {
			progress(p)
		}
	}
	shared := s.Shared
	if shared == nil && s.SharedBytes >= 0 {
		shared = search.NewSharedCache(cmp.Or(s.SharedBytes, search.DefaultSharedBytes))
	}
	// The runs' errors go to errs through report, not through the group: one run's failure
	// stops no other, and every failure is returned.
	var g errgroup.Group
	g.SetLimit(workers)
	for _, job := range sideBySide(jobs) {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil // cancelled while Go waited for a free worker: not started
			}
			report(Progress{Job: job})
			skipped, err := runJob(ctx, job, Exec{Checkpoint: job.Checkpoint, Shared: shared,
				OnEvent: func(ev search.Event) { report(Progress{Job: job, Event: &ev}) }})
			report(Progress{Job: job, Done: true, Skipped: skipped, Err: err})
			return nil
		})
	}
	g.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return ctx.Err()
}

// sideBySide is the order the workers take the jobs in: the runs that differ only in their
// fitness are consecutive, so the workers run them at the same time and the shared cache
// computes their common work once (in a paired sweep a random search's three fitnesses sample
// the same contents; ES and GA runs agree until an individual is feasible). Otherwise Jobs'
// order is kept: problem, generator, replicate. Jobs' own order (that of --emit-jobs) is left
// as it is.
func sideBySide(jobs []Job) []Job {
	problem, generator := map[string]int{}, map[string]int{}
	for _, j := range jobs {
		if _, ok := problem[j.Config.Problem]; !ok {
			problem[j.Config.Problem] = len(problem)
		}
		if _, ok := generator[j.Config.Generator]; !ok {
			generator[j.Config.Generator] = len(generator)
		}
	}
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b Job) int {
		return cmp.Or(
			cmp.Compare(problem[a.Config.Problem], problem[b.Config.Problem]),
			cmp.Compare(generator[a.Config.Generator], generator[b.Config.Generator]),
			cmp.Compare(a.Replicate, b.Replicate))
	})
	return out
}

func runJob(ctx context.Context, job Job, x Exec) (skipped bool, err error) {
	r, err := Create(job.Dir, job.Config)
	if err != nil {
		return false, err
	}
	st, err := r.Status()
	if err != nil {
		return false, err
	}
	if st.Finished {
		return true, nil
	}
	_, err = r.ExecuteWith(ctx, x)
	return false, err
}

// EmitJobs hands the sweep's unfinished runs to a batch scheduler (`sweep --emit-jobs`). A job
// is data, not a re-spelled command line: each run's folder is created with its config.json
// (the run's whole configuration, as the local sweep writes it), and its line is the command
// that runs that folder, `PROGRAM run --resume DIR` (ResumeLine), so nothing the sweep sets can
// be lost on the way. Each line is idempotent: rerunning it resumes the run. Finished runs are
// left out; a folder holding another run is an error.
func (s Sweep) EmitJobs(program string) ([]string, error) {
	jobs, err := s.Jobs()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, j := range jobs {
		r, err := Create(j.Dir, j.Config)
		if err != nil {
			return nil, err
		}
		if st, err := r.Status(); err == nil && st.Finished {
			continue
		}
		out = append(out, ResumeLine(program, j.Dir, j.Checkpoint))
	}
	return out, nil
}

// ResumeLine is the shell command that runs (or resumes) the run folder dir with program (the
// workbench binary): the folder's config.json is the run's configuration. The checkpoint
// cadence, not part of it, is passed when it is not the default. Words are single-quoted for a
// POSIX shell where they need it.
func ResumeLine(program, dir string, cp Cadence) string {
	args := []string{program, "run", "--resume", dir}
	if cp != (Cadence{}) && cp != DefaultCheckpoint {
		args = append(args, "--checkpoint-interval", cp.Interval.String(), "--checkpoint-every", strconv.Itoa(cp.Every))
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,=+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
