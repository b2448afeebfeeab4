package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pcgwb/games/birds"
	"pcgwb/llm"
)

// birdsPromptCommand is `workbench birds prompt PROMPT.txt|DIR [--turns DIR]`: the ChatGPT4PCG runner. It asks the
// model for every letter and trial, saves the answers in the competition's folder layout, then
// evaluates that folder exactly as `birds evaluate` does, so the prompt is ranked by the same
// pipeline as any other team.
func birdsPromptCommand() *Command {
	return &Command{Name: "prompt", Args: []string{"PROMPT.txt|PROMPTS_DIR"},
		Short: "PROMPT.txt|DIR [--turns DIR]: ask the model for every letter and trial, then evaluate the folder",
		Setup: birdsPromptSetup}
}

func birdsPromptSetup(fs *flag.FlagSet) Runner {
	var ep endpointFlags
	ep.register(fs)
	// The defaults are the 2024 organisers' run: seed 42 for every trial, temperature 1.
	ep.seed, ep.temperature = birdsPromptSeed, birdsPromptTemperature
	fs.Lookup("seed").DefValue, fs.Lookup("temperature").DefValue = fmt.Sprint(birdsPromptSeed), birdsPromptTemperature
	trials := fs.Int("trials", llm.BirdsTrials, "trials per letter")
	letters := fs.String("letters", "A-Z", "target letters, e.g. A-Z or A,C,E-G")
	team := fs.String("team", "", "team name: folder and file prefix (default: the prompt's file name)")
	turnsDir := fs.String("turns", "", "folder of *.txt follow-up turns, sent after PROMPT's answer in name order (multi-turn)")
	system := fs.String("system", "", "file holding a system message that opens every conversation")
	out := fs.String("out", "", "competition folder (default runs/birds-TEAM); other teams in it are evaluated too")
	overwrite := fs.Bool("overwrite", false, "ask again for trials whose answer file exists (default: continue an interrupted run)")
	seedPerTrial := fs.Bool("seed-per-trial", false, "send --seed plus the trial number (the 2025 final run) instead of --seed for every trial")
	tokenLimit := fs.Int("token-limit", llm.BirdsTokenLimit, "tokens per trial, summed over its calls (0: no limit)")
	timeLimit := fs.Duration("time-limit", llm.BirdsTimeLimit, "wall time per trial (0: no limit)")
	noEval := fs.Bool("no-evaluate", false, "only ask and save the answers")
	// The evaluation's flags, as `birds evaluate` has them.
	var f birdsFlags
	f.register(fs, true)
	edition, asJSON, quiet := f.edition, f.asJSON, f.quiet
	return func(ctx context.Context, args []string, io IO) error {
		return birdsPrompt(ctx, args[0], io, &f, &ep, birdsPromptFlags{trials, letters, team, turnsDir, system, out, overwrite,
			seedPerTrial, tokenLimit, timeLimit, noEval, edition, asJSON, quiet})
	}
}

// The 2024 organisers' request settings, `birds prompt`'s defaults.
const (
	birdsPromptSeed        = 42
	birdsPromptTemperature = "1"
)

type birdsPromptFlags struct {
	trials                               *int
	letters, team, turnsDir, system, out *string
	overwrite, seedPerTrial              *bool
	tokenLimit                           *int
	timeLimit                            *time.Duration
	noEval                               *bool
	edition                              *birds.Edition
	asJSON, quiet                        *bool
}

func birdsPrompt(ctx context.Context, promptPath string, io IO, f *birdsFlags, ep *endpointFlags, p birdsPromptFlags) error {
	stdout, stderr := io.Stdout, io.Stderr
	trials, letters, team, turnsDir, system, out := p.trials, p.letters, p.team, p.turnsDir, p.system, p.out
	overwrite, seedPerTrial, tokenLimit, timeLimit, noEval := p.overwrite, p.seedPerTrial, p.tokenLimit, p.timeLimit, p.noEval
	edition, asJSON, quiet := p.edition, p.asJSON, p.quiet
	if *trials < 1 {
		return usagef("--trials must be at least 1")
	}
	letterList, err := llm.ParseLetters(*letters)
	if err != nil {
		return usageError{err.Error()}
	}
	rules, ok := edition.Lookup()
	if !ok {
		return usagef("--edition must be %s", birds.EditionNames())
	}
	turns, err := llm.LoadBirdsTurns(promptPath)
	if err != nil {
		return usageError{err.Error()}
	}
	if *turnsDir != "" {
		more, err := llm.LoadBirdsTurns(*turnsDir)
		if err != nil {
			return usageError{err.Error()}
		}
		turns = append(turns, more...)
	}
	opts := llm.BirdsOptions{Team: *team, Turns: turns, Letters: letterList, Trials: *trials,
		QuoteLetter: rules.QuoteLetter, Out: *out, TokenLimit: *tokenLimit, TimeLimit: *timeLimit,
		SeedPerTrial: *seedPerTrial, Overwrite: *overwrite}
	if opts.Team == "" {
		opts.Team = llm.TeamName(promptPath)
	}
	if opts.Out == "" {
		opts.Out = filepath.Join("runs", "birds-"+opts.Team)
	}
	if st, err := os.Lstat(opts.Out); err == nil && !st.IsDir() {
		// birds evaluate refuses such a folder too: nothing is written through a link.
		return usagef("--out %s is not a real folder (a link or a file)", excerptArg(opts.Out))
	}
	if *system != "" {
		turns, err := llm.LoadBirdsTurns(*system)
		if err != nil {
			return usageError{err.Error()}
		}
		opts.System = turns[0]
	}
	cfg, err := ep.config(stderr)
	if err != nil {
		return err
	}
	client, err := llm.New(cfg)
	if err != nil {
		return usageError{err.Error()}
	}
	if !*quiet {
		total := len(letterList) * *trials
		done := 0
		opts.OnTrial = func(r llm.TrialResult) { // RunBirdsPrompts serialises these calls
			done++
			switch {
			case r.Error != "":
				fmt.Fprintf(stderr, "[%d/%d] %s trial %d: nothing saved: %s\n", done, total, r.Letter, r.Trial, firstLine(r.Error))
			case done == total || done%max(total/10, 1) == 0:
				fmt.Fprintf(stderr, "[%d/%d] answers\n", done, total)
			}
		}
	}
	evalOpt, err := f.options(stderr)
	if err != nil {
		return err
	}
	rep, err := llm.RunBirdsPrompts(ctx, client, opts)
	if err != nil {
		if errors.Is(err, llm.ErrOfflineMiss) {
			return fmt.Errorf("%w (run without --offline to ask the model)", err)
		}
		return err
	}
	tot := client.Totals()
	summary := stdout
	if *asJSON {
		summary = stderr // keep stdout one JSON document
	}
	fmt.Fprintf(summary, "team %s in %s: %d answers written, %d kept from an earlier run, %d trials saved nothing\n",
		rep.Team, opts.Out, rep.Written, rep.Skipped, rep.Failed)
	fmt.Fprintf(summary, "requests: %d (%d from the cache, %d retries, %d failed); tokens %d in, %d out; cost %.4f\n",
		tot.Requests, tot.CacheHits, tot.Retries, tot.Failures, tot.Usage.PromptTokens, tot.Usage.CompletionTokens, tot.Cost)
	if *noEval {
		return nil
	}
	fmt.Fprintln(summary)
	evalOpt.TrialsPerLetter = *trials // scored as run: 2 trials average over 2, not 10
	eval, err := birds.Evaluate(ctx, opts.Out, evalOpt)
	if eval != nil {
		if perr := printReport(stdout, opts.Out, eval, *asJSON); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}
