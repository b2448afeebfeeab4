package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"

	"pcgwb/llm"
	"pcgwb/problems/experiment"
)

// startLLMRun starts (or, in a folder holding the same run, continues) the LLM run that the
// flags describe: `workbench llm generate` and `workbench run --generator llm`. again tells
// the user how to continue after an interrupt.
func startLLMRun(ep endpointFlags, pf promptFlags, generations int, out string, quiet bool, again string, stdout, stderr io.Writer) error {
	if generations < 0 {
		return usagef("--generations must be >= 0")
	}
	cfg, err := ep.config(stderr)
	if err != nil {
		return err
	}
	opts, err := pf.options(ep.seed)
	if err != nil {
		return err
	}
	dir := out
	if dir == "" {
		dir = filepath.Join("runs", fmt.Sprintf("%s-llm-%s-s%d", pf.problem, opts.Fitness, ep.seed))
	}
	return executeLLMRun(llmRun{cfg: cfg, opts: opts, generations: generations, dir: dir, quiet: quiet, again: again}, stdout, stderr)
}

// resumeLLMRun continues the LLM run in dir with the endpoint, sampling and prompt settings
// it recorded; from ep only the key's variable, the cache, --offline and the transport
// settings (timeout, retries, concurrency) are used. Execute starts an unfinished run over,
// and the response cache replays what was received before.
func resumeLLMRun(dir string, ep endpointFlags, quiet bool, stdout, stderr io.Writer) error {
	rc, err := llm.ReadRunConfig(dir)
	if err != nil {
		return usageError{err.Error()}
	}
	ep.baseURL, ep.model, ep.temperature = rc.LLM.BaseURL, rc.LLM.Model, ""
	cfg, err := ep.config(stderr)
	if err != nil {
		return err
	}
	cfg.Temperature, cfg.Seed, cfg.MaxTokens, cfg.Price = rc.LLM.Temperature, rc.LLM.Seed, rc.LLM.MaxTokens, rc.LLM.Price
	opts := llm.GeneratorOptions{Options: rc.Options, PromptSettings: rc.LLM.PromptSettings}
	again := "continue with: workbench run --resume " + dir
	if ep.cache != defaultLLMCache() {
		again += " --cache " + ep.cache
	}
	return executeLLMRun(llmRun{cfg: cfg, opts: opts, generations: rc.Generations, dir: dir, quiet: quiet,
		again: again, resume: true, templateHash: rc.LLM.TemplateHash}, stdout, stderr)
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

func executeLLMRun(r llmRun, stdout, stderr io.Writer) error {
	if _, err := makeProblem(r.opts.Problem); err != nil {
		return err
	}
	client, err := llm.New(r.cfg)
	if err != nil {
		return usageError{err.Error()}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var run *experiment.Run
	if r.resume {
		if run, err = experiment.Open(r.dir); err != nil {
			return usageError{err.Error()}
		}
	} else {
		cfg, err := llm.NewRunConfig(client, r.opts, r.generations)
		if err != nil {
			return err
		}
		changes, err := llm.ConfigChanges(r.dir, cfg)
		if err != nil {
			return err
		}
		if len(changes) > 0 {
			return usagef("%s holds another run (%s); choose another folder", r.dir, strings.Join(changes, "; "))
		}
		if run, err = experiment.Create(r.dir, cfg); err != nil {
			return usageError{err.Error()}
		}
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
		fmt.Fprintf(stdout, "resuming %s llm %s seed %d in %s at generation %d of %d: replies received before come from the cache\n",
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
	return nil
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
