package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"pcgwb/internal/appdirs"
	"strings"
	"sync"

	"pcgwb/llm"
	"pcgwb/problems/experiment"
)

// startLLMRunContext starts (or, in a folder holding the same run, continues) the LLM run that
// the flags describe, for `workbench run --generator llm`, until it ends or ctx (the command's:
// Ctrl-C) is cancelled; again tells the user how to continue after an interrupt. (`llm
// generate` calls newLLMRun and executeLLMRun with its runner's context.)
func startLLMRunContext(ctx context.Context, ep endpointFlags, pf promptFlags, generations int, out string, quiet bool, again string, cio IO) error {
	r, err := newLLMRun(ep, pf, generations, out, quiet, again, cio.Stderr)
	if err != nil {
		return err
	}
	return executeLLMRun(ctx, r, cio)
}

// newLLMRun checks the flags of a new LLM run (bad ones are usage errors) and describes the
// run; it sends nothing. A note about a missing key goes to stderr.
func newLLMRun(ep endpointFlags, pf promptFlags, generations int, out string, quiet bool, again string, stderr io.Writer) (llmRun, error) {
	if generations < 0 {
		return llmRun{}, usagef("--generations must be >= 0")
	}
	cfg, err := ep.config(stderr)
	if err != nil {
		return llmRun{}, err
	}
	opts, err := pf.options(ep.seed)
	if err != nil {
		return llmRun{}, err
	}
	dir := out
	if dir == "" {
		dir = filepath.Join(appdirs.RunsDir(), fmt.Sprintf("%s-llm-%s-s%d", pf.problem, opts.Fitness, ep.seed))
	}
	return llmRun{cfg: cfg, opts: opts, generations: generations, dir: dir, quiet: quiet, again: again}, nil
}

// resumeLLMRunContext continues the LLM run in dir with the endpoint, sampling and prompt
// settings it recorded (`workbench run --resume`) until it ends or ctx is cancelled. From ep
// only the key's variable, the
// cache, --offline and the transport settings (timeout, retries, concurrency) are used.
// Execute starts an unfinished run over, and the response cache replays what was received
// before.
func resumeLLMRunContext(ctx context.Context, dir string, ep endpointFlags, quiet bool, cio IO) error {
	r, err := resumedLLMRun(dir, ep, quiet, cio.Stderr)
	if err != nil {
		return err
	}
	return executeLLMRun(ctx, r, cio)
}

// resumedLLMRun describes the continuation of the LLM run recorded in dir.
func resumedLLMRun(dir string, ep endpointFlags, quiet bool, stderr io.Writer) (llmRun, error) {
	rc, err := llm.ReadRunConfig(dir)
	if err != nil {
		return llmRun{}, usageError{err.Error()}
	}
	ep.baseURL, ep.model, ep.temperature = rc.LLM.BaseURL, rc.LLM.Model, ""
	cfg, err := ep.config(stderr)
	if err != nil {
		return llmRun{}, err
	}
	cfg.Temperature, cfg.Seed, cfg.MaxTokens, cfg.Price = rc.LLM.Temperature, rc.LLM.Seed, rc.LLM.MaxTokens, rc.LLM.Price
	opts := llm.GeneratorOptions{Options: rc.Options, PromptSettings: rc.LLM.PromptSettings}
	again := "continue with: workbench run --resume " + dir
	if ep.cache != defaultLLMCache() {
		again += " --cache " + ep.cache
	}
	return llmRun{cfg: cfg, opts: opts, generations: rc.Generations, dir: dir, quiet: quiet,
		again: again, resume: true, templateHash: rc.LLM.TemplateHash}, nil
}

// llmRun is one LLM generator run, however it was asked for.
type llmRun struct {
	cfg         llm.Config
	opts        llm.GeneratorOptions
	generations int
	dir         string
	quiet       bool
	// again tells how to continue after an interrupt.
	again string
	// resume is set for `run --resume`; templateHash is then the recorded template's hash.
	resume       bool
	templateHash string
}

// executeLLMRun runs r with the workbench's one run loop (llm.ContinueRun over an
// experiment run folder) until it ends or ctx is cancelled; a cancelled run keeps its
// folder and the replies received (in the cache), and says how to continue.
func executeLLMRun(ctx context.Context, r llmRun, cio IO) error {
	stdout, stderr := cio.Stdout, cio.Stderr
	if _, err := makeProblem(r.opts.Problem); err != nil {
		return err
	}
	client, err := llm.New(r.cfg)
	if err != nil {
		return usageError{err.Error()}
	}
	run, err := openLLMRun(r, client)
	if err != nil {
		return err
	}
	st, err := run.Status()
	if err != nil {
		return err
	}
	c := run.Config
	if st.Finished {
		final, err := experiment.ReadFinal(r.dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is already finished\n", r.dir)
		printLLMPopulation(stdout, final)
		return nil
	}
	if r.resume && !r.quiet {
		fmt.Fprintf(stderr, "resuming %s llm %s seed %d in %s at generation %d of %d: replies received before come from the cache\n",
			c.Problem, c.Fitness, c.Seed, r.dir, max(st.Generation, 0), c.Generations)
	}
	var g *llm.Generator
	final, err := llm.ContinueRun(ctx, run, client, func(lg *llm.Generator) {
		g = lg
		if !r.quiet {
			lg.OnReply = replyPrinter(stderr, c.PopSize*(c.Generations+1))
		}
	}, nil)
	if err != nil {
		var tc *llm.TemplateChangedError
		switch {
		case errors.As(err, &tc):
			return usagef("%s: %v", r.dir, err)
		case errors.Is(err, llm.ErrOtherRun):
			return usageError{err.Error()}
		case errors.Is(err, context.Canceled):
			return fmt.Errorf("interrupted; %s", r.again)
		}
		if re := (*llm.RequestError)(nil); errors.As(err, &re) {
			return fmt.Errorf("%w; %s", err, r.again)
		}
		return err
	}
	tot := client.Totals()
	fmt.Fprintf(stdout, "run folder: %s\n", r.dir)
	if g != nil {
		st := g.Stats()
		fmt.Fprintf(stdout, "levels: %d asked, %d valid, %d invalid; %d re-asks (%d fixed a level)\n", st.Items, st.Valid, st.Invalid, st.Repairs, st.Repaired)
	}
	printLLMPopulation(stdout, final)
	fmt.Fprintf(stdout, "requests: %d (%d from the cache, %d retries, %d failed); tokens %d in, %d out; cost %.4f\n",
		tot.Requests, tot.CacheHits, tot.Retries, tot.Failures, tot.Usage.PromptTokens, tot.Usage.CompletionTokens, tot.Cost)
	if g != nil {
		// A run that produced nothing usable is a failure for scripts and batch jobs, even
		// though its folder records what was asked and answered.
		if st := g.Stats(); st.Items > 0 && st.Valid == 0 {
			return fmt.Errorf("no valid level: all %d level(s) asked were refused or failed (the replies are in %s)", st.Items, r.dir)
		}
	}
	return nil
}

func printLLMPopulation(w io.Writer, final *experiment.Final) {
	fmt.Fprintf(w, "population: %d, best fitness %.4f, feasible %d, unique %d, controlled %d\n", len(final.Population),
		final.BestFitness, final.Feasible, final.Unique, final.Controlled)
}

// openLLMRun opens r's run folder (a resumed run) or makes it (a new run, or the same run
// again); a folder holding another run is refused.
func openLLMRun(r llmRun, client *llm.Client) (*experiment.Run, error) {
	if r.resume {
		run, err := experiment.Open(r.dir)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		return run, nil
	}
	cfg, err := llm.NewRunConfig(client, r.opts, r.generations)
	if err != nil {
		return nil, err
	}
	changes, err := llm.ConfigChanges(r.dir, cfg)
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		return nil, usagef("%s holds another run (%s); choose another folder", r.dir, strings.Join(changes, "; "))
	}
	run, err := experiment.Create(r.dir, cfg)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return run, nil
}

// replyPrinter prints one progress line per reply, counting the levels done out of total.
func replyPrinter(w io.Writer, total int) func(llm.ReplyEvent) {
	var mu sync.Mutex
	done := 0
	return func(ev llm.ReplyEvent) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Final {
			done++
		}
		verdict := fmt.Sprintf("valid, quality %.3f", ev.Quality)
		if ev.Error != "" {
			verdict = "invalid: " + firstLine(ev.Error)
		}
		src := ""
		if ev.Cached {
			src = " (cached)"
		}
		fmt.Fprintf(w, "[%d/%d] gen %d level %d reply %d%s: %s\n", done, total, ev.Generation, ev.Item, ev.Turn+1, src, verdict)
	}
}
