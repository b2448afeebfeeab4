package main

// `workbench llm`: a language model behind an OpenAI-compatible endpoint as a level
// generator. Each leaf's Setup declares its flags (llm_flags.go); its Runner turns them into
// the core's settings and calls one function: the run loop (llm_run.go), llm.FirstPrompt or
// Client.Test.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"pcgwb/llm"
)

const llmSummary = "generate --problem P --n N [...] | prompt | test: levels from an OpenAI-compatible model"

// llmCommand is the `workbench llm` group.
func llmCommand() *Command {
	return &Command{Name: "llm", Short: llmSummary,
		Commands: []*Command{
			{Name: "generate", Short: "--problem P --n N [--base-url U --model M --api-key-env VAR --temperature T --seed S --offline --cache DIR --out DIR]: levels from the model, written as a run folder (as `run` writes)",
				Setup: llmGenerateSetup},
			{Name: "prompt", Short: "--problem P [--template T --examples N --control --seed S]: print the first prompt generate would send, without sending it",
				Setup: llmPromptSetup},
			{Name: "test", Short: "--model M [--base-url U --api-key-env VAR]: check the endpoint with one tiny request (the cache is bypassed)",
				Setup: llmTestSetup},
		}}
}

// llmGenerateAgain is how to continue an interrupted `llm generate`.
const llmGenerateAgain = "run the same command again to replay what was received from the cache"

// llmGenerateSetup is `workbench llm generate`: one LLM run, or the continuation of the one in
// --out. Ctrl-C (the runner's context) stops it; the replies received are in the cache and
// the same command replays them.
func llmGenerateSetup(fs *flag.FlagSet) Runner {
	var ep endpointFlags
	var pf promptFlags
	ep.register(fs)
	pf.register(fs)
	generations := fs.Int("generations", 0, "more batches after the first; the best --n of all are kept")
	out := fs.String("out", "", "run folder (default ~/pcg-workbench/runs/PROBLEM-llm-FITNESS-sSEED)")
	quiet := fs.Bool("quiet", false, "no progress output")
	return func(ctx context.Context, _ []string, cio IO) error {
		r, err := newLLMRun(ep, pf, *generations, *out, *quiet, llmGenerateAgain, cio.Stderr)
		if err != nil {
			return err
		}
		return executeLLMRun(ctx, r, cio)
	}
}

// llmPromptSetup is `workbench llm prompt`: the first prompt a generate command would send,
// printed without sending it.
func llmPromptSetup(fs *flag.FlagSet) Runner {
	var pf promptFlags
	pf.register(fs)
	seed := fs.Int("seed", 1, "seed of the example and control draws")
	return func(ctx context.Context, _ []string, cio IO) error {
		opts, err := pf.options(*seed)
		if err != nil {
			return err
		}
		p, err := makeProblem(pf.problem)
		if err != nil {
			return err
		}
		msgs, prompt, err := llm.FirstPrompt(ctx, p, opts)
		if err != nil {
			// The template, the prompts folder and the examples are all the user's input.
			return usageError{err.Error()}
		}
		printPrompt(cio.Stdout, prompt, msgs)
		return nil
	}
}

func printPrompt(w io.Writer, prompt *llm.Prompt, msgs []llm.Message) {
	fmt.Fprintf(w, "# template %s (%s)\n", prompt.Name, prompt.Origin)
	for _, m := range msgs {
		fmt.Fprintf(w, "=== %s\n%s\n\n", m.Role, m.Content)
	}
}

// llmTestSetup is `workbench llm test`: one tiny request that bypasses the cache.
func llmTestSetup(fs *flag.FlagSet) Runner {
	var ep endpointFlags
	ep.register(fs)
	return func(ctx context.Context, _ []string, cio IO) error {
		cfg, err := ep.config(cio.Stderr)
		if err != nil {
			return err
		}
		cfg.CacheDir, cfg.Offline = "", false
		client, err := llm.New(cfg)
		if err != nil {
			return usageError{err.Error()}
		}
		start := time.Now()
		resp, err := client.Test(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(cio.Stdout, "%s answered %q in %.2fs (%d tokens)\n", firstNonEmpty(resp.Model, cfg.Model), firstLine(resp.Content),
			time.Since(start).Seconds(), resp.Usage.TotalTokens)
		return nil
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
