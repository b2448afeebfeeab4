package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"pcgwb/internal/appdirs"

	"pcgwb/llm"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// evolveRequest is `workbench run --generator llm-ga|llm-mapelites`: the common run flags, the
// endpoint and the operator's settings.
type evolveRequest struct {
	generator, problem, fitness, out, axes string
	generations, pop                       int
	seed                                   uint64
	rate                                   float64
	ep                                     endpointFlags
	pf                                     promptFlags
	quiet                                  bool
}

// startEvolveRun checks the flags, describes the run and runs it (or continues the same run
// found in the folder).
func startEvolveRun(ctx context.Context, r evolveRequest, stdout, stderr io.Writer) error {
	if r.rate < 0 || r.rate > 1 {
		return usagef("--llm-rate must be in [0, 1], got %v", r.rate)
	}
	if r.pop < 1 || r.generations < 0 || r.pf.repairs < 0 {
		return usagef("--pop must be at least 1, --generations and --repairs at least 0")
	}
	if r.pf.control || r.pf.examplesFrom != "" || r.pf.examples != llm.DefaultExamples {
		return usagef("--examples, --examples-from and --control apply to --generator llm; %s shows the model the parents (and their control target when the fitness uses it)", r.generator)
	}
	if r.seed > uint64(int(^uint(0)>>1)) {
		return usagef("--seed of an %s run is too large", r.generator)
	}
	ax, err := search.ParseAxes(r.axes)
	if err != nil {
		return usageError{err.Error()}
	}
	if d, _ := search.Describe(r.generator); d.UsesAxes && len(ax) == 0 {
		return usageError{mapElitesHint(r.problem)}
	}
	if _, err := makeProblem(r.problem); err != nil {
		return err
	}
	fit, _, err := search.ParseFitness(r.fitness)
	if err != nil {
		return usageError{err.Error()}
	}
	r.ep.seed = int(r.seed)
	cfg, err := r.ep.config(stderr)
	if err != nil {
		return err
	}
	client, err := llm.New(cfg)
	if err != nil {
		return usageError{err.Error()}
	}
	opts := search.Options{Problem: r.problem, Fitness: fit, Seed: r.seed, PopSize: r.pop, Axes: ax}
	ecfg, err := llm.EvolveConfig(client, r.generator, opts, llm.EvolveSettings{Rate: r.rate, MaxRepairs: r.pf.repairs,
		Template: r.pf.template, PromptDir: r.pf.prompts}, r.generations)
	if err != nil {
		return usageError{err.Error()}
	}
	dir := r.out
	if dir == "" {
		dir = filepath.Join(appdirs.RunsDir(), fmt.Sprintf("%s-%s-%s-s%d", r.problem, r.generator, fit, r.seed))
	}
	changes, err := llm.ConfigChanges(dir, ecfg)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		return usagef("%s holds another run (%v); choose another folder", dir, changes)
	}
	run, err := experiment.Create(dir, ecfg)
	if err != nil {
		return usageError{err.Error()}
	}
	return executeEvolveRun(ctx, run, client, r.ep.cache, r.quiet, stdout, stderr)
}

// guiCacheDir is the response cache the GUI keeps in its output folder (app's llmCacheDir).
const guiCacheDir = ".llm-cache"

// resumeCache is the response cache `run --resume DIR` of an LLM run asks through when --cache
// is not given (llm.ResumeCache): the one the run recorded, if it is inside DIR or one of this
// workbench's caches (def, the GUI's OUTPUT/.llm-cache); for a run made before the record,
// DIR/.llm-cache or the GUI's cache beside DIR when there is one, else def (the shared default).
func resumeCache(dir, def string) (string, error) {
	gui := []string{filepath.Join(dir, guiCacheDir), filepath.Join(filepath.Dir(dir), guiCacheDir)}
	return llm.ResumeCache(dir, def, gui, gui...)
}

// resumeEvolveRun continues the evolution run in dir with the endpoint and sampling settings it
// recorded; from ep only the key's variable, the cache, --offline and the transport settings
// are used.
func resumeEvolveRun(ctx context.Context, dir string, ep endpointFlags, quiet bool, stdout, stderr io.Writer) error {
	run, err := experiment.Open(dir)
	if err != nil {
		return usageError{err.Error()}
	}
	es, err := llm.ReadEvolveSettings(run.Config)
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", dir, err)}
	}
	ep.baseURL, ep.model, ep.temperature = es.BaseURL, es.Model, ""
	cfg, err := ep.config(stderr)
	if err != nil {
		return err
	}
	cfg.Temperature, cfg.Seed, cfg.MaxTokens, cfg.Price = es.Temperature, es.Seed, es.MaxTokens, es.Price
	client, err := llm.New(cfg)
	if err != nil {
		return usageError{err.Error()}
	}
	return executeEvolveRun(ctx, run, client, ep.cache, quiet, stdout, stderr)
}

// executeEvolveRun runs the folder to its end, or until ctx (the command's: Ctrl-C) is
// cancelled, and prints the model's counts and the cost.
func executeEvolveRun(ctx context.Context, run *experiment.Run, client *llm.Client, cache string, quiet bool, stdout, stderr io.Writer) error {
	st, err := run.Status()
	if err != nil {
		return err
	}
	c := run.Config
	if !quiet {
		switch {
		case st.Finished:
			fmt.Fprintf(stdout, "%s is already finished\n", run.Dir)
		case st.Generation >= 0:
			fmt.Fprintf(stderr, "resuming %s %s %s seed %d at generation %d of %d in %s: answers received before come from the cache %s\n",
				c.Problem, c.Generator, c.Fitness, c.Seed, st.Generation, c.Generations, run.Dir, cache)
		default:
			fmt.Fprintf(stderr, "running %s %s %s seed %d: %d generations, population %d, in %s\n",
				c.Problem, c.Generator, c.Fitness, c.Seed, c.Generations, c.PopSize, run.Dir)
			if es, err := llm.ReadEvolveSettings(c); err == nil {
				fmt.Fprintf(stderr, "the model makes about %.0f children (llm rate %.2f of %d per generation), plus re-asks\n",
					es.Rate*float64(c.PopSize*c.Generations), es.Rate, c.PopSize)
			}
		}
	}
	var onEvent func(search.Event)
	if !quiet {
		onEvent = (&progressPrinter{w: stderr, tty: isTerminal(stderr), total: c.Generations}).event
	}
	var g *llm.Evolver
	final, err := llm.ContinueEvolve(ctx, run, client, func(e *llm.Evolver) { g = e }, onEvent)
	if err != nil {
		again := "continue with: workbench run --resume " + run.Dir
		if cache != defaultLLMCache() {
			again += " --cache " + cache
		}
		var tc *llm.TemplateChangedError
		switch {
		case errors.As(err, &tc):
			return usagef("%s: %v", run.Dir, err)
		case errors.Is(err, context.Canceled):
			return fmt.Errorf("interrupted; %s (what was received is replayed from the cache)", again)
		}
		if re := (*llm.RequestError)(nil); errors.As(err, &re) || errors.Is(err, llm.ErrOfflineMiss) {
			return fmt.Errorf("%w; %s", err, again)
		}
		return err
	}
	if quiet {
		return nil
	}
	fmt.Fprintf(stdout, "done: best fitness %.4f, feasible %d, unique %d, controlled %d of %d, %d evaluations -> %s\n",
		final.BestFitness, final.Feasible, final.Unique, final.Controlled, final.Size, final.Evaluations, filepath.Join(run.Dir, experiment.FinalFile))
	if g != nil {
		s := g.Stats()
		fmt.Fprintf(stdout, "model: %d children asked, %d valid (%d after a re-ask), %d fell back to the random operators (%d failed requests); %d calls, %d from the cache\n",
			s.Asked, s.Valid, s.Repaired, s.Fallbacks, s.Failed, s.Calls, s.Cached)
	}
	tot := client.Totals()
	fmt.Fprintf(stdout, "requests this session: %d (%d from the cache, %d retries, %d failed); tokens %d in, %d out; cost %.4f\n",
		tot.Requests, tot.CacheHits, tot.Retries, tot.Failures, tot.Usage.PromptTokens, tot.Usage.CompletionTokens, tot.Cost)
	return nil
}
