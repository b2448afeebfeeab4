package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"pcgwb/llm"
)

// cmdBirdsPrompt is `workbench birds prompt PROMPT.txt|DIR [--turns DIR]`: the ChatGPT4PCG runner. It asks the
// model for every letter and trial, saves the answers in the competition's folder layout, then
// evaluates that folder exactly as `birds evaluate` does, so the prompt is ranked by the same
// pipeline as any other team.
func cmdBirdsPrompt(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("birds prompt", flag.ContinueOnError)
	var ep endpointFlags
	ep.register(fs)
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
	// These are handed on to `birds evaluate` unchanged.
	edition := fs.Int("edition", 2024, "competition rules: 2023 (quoted letter, ab_drop, no diversity), 2024 or 2025")
	workers := fs.Int("workers", 0, "parallel simulation trials (0: one per CPU)")
	classifierCmd := fs.String("classifier-cmd", "", "letter classifier command (see birds evaluate)")
	classifierURL := fs.String("classifier-url", "", "letter classifier endpoint (see birds evaluate)")
	classifierName := fs.String("classifier", "proxy", "without --classifier-cmd/--classifier-url: proxy or none")
	asJSON := fs.Bool("json", false, "print the evaluation as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	pos, err := parseArgs(fs, args, "PROMPT.txt|PROMPTS_DIR")
	if err != nil {
		return err
	}
	promptPath := pos[0]
	if *trials < 1 {
		return usagef("--trials must be at least 1")
	}
	letterList, err := llm.ParseLetters(*letters)
	if err != nil {
		return usageError{err.Error()}
	}
	if *edition != 2023 && *edition != 2024 && *edition != 2025 {
		return usagef("--edition must be 2023, 2024 or 2025")
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
		QuoteLetter: *edition == 2023, Out: *out, TokenLimit: *tokenLimit, TimeLimit: *timeLimit,
		SeedPerTrial: *seedPerTrial, Overwrite: *overwrite}
	if opts.Team == "" {
		opts.Team = llm.TeamName(promptPath)
	}
	if opts.Out == "" {
		opts.Out = filepath.Join("runs", "birds-"+opts.Team)
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
	ctx, stop := signalContext()
	defer stop()
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
	evalArgs := []string{"evaluate", opts.Out, "--edition", strconv.Itoa(*edition), "--workers", strconv.Itoa(*workers),
		"--classifier", *classifierName, "--classifier-cmd", *classifierCmd, "--classifier-url", *classifierURL}
	if *asJSON {
		evalArgs = append(evalArgs, "--json")
	}
	if *quiet {
		evalArgs = append(evalArgs, "--quiet")
	}
	return cmdBirds(evalArgs, stdout, stderr)
}
