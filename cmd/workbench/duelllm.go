package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pcgwb/games/duel"
	"pcgwb/internal/atomicfile"
	"pcgwb/llm"
)

// duelClient builds the client and an asker whose offline misses stop the command: the
// returned context is cancelled with the miss as its cause.
func duelClient(ep *endpointFlags, stderr io.Writer, tag string) (*llm.Client, *llm.DuelAsker, context.Context, func(), error) {
	cfg, err := ep.config(stderr)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	client, err := llm.New(cfg)
	if err != nil {
		return nil, nil, nil, nil, usageError{err.Error()}
	}
	sctx, stop := signalContext()
	ctx, cancel := context.WithCancelCause(sctx)
	asker := &llm.DuelAsker{Client: client, Tag: tag, OnFatal: cancel}
	return client, asker, ctx, func() { cancel(nil); stop() }, nil
}

// stopCause turns a cancelled run into the error that cancelled it.
func stopCause(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		if errors.Is(cause, llm.ErrOfflineMiss) {
			return fmt.Errorf("%w (run without --offline to ask the model)", cause)
		}
		return cause
	}
	return err
}

func printTotals(w io.Writer, c *llm.Client) {
	tot := c.Totals()
	fmt.Fprintf(w, "requests: %d (%d from the cache, %d retries, %d failed); tokens %d in, %d out; cost %.4f\n",
		tot.Requests, tot.CacheHits, tot.Retries, tot.Failures, tot.Usage.PromptTokens, tot.Usage.CompletionTokens, tot.Cost)
}

// duelEval is `workbench duel eval GAME --model M`: gg-bench's evaluation protocol (a fresh
// conversation per turn, digits-only replies, up to 5 attempts per move, the model first in half
// of the games), scored as gg-bench does and strictly.
func duelEval(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel eval", flag.ContinueOnError)
	var ep endpointFlags
	ep.register(fs)
	opponent := fs.String("opponent", "mcts-100", "the agent the model plays against")
	games := fs.Int("games", 30, "games; the model moves first in the even-numbered ones")
	gameSeed := fs.Int64("game-seed", 0, "game k starts from seed game-seed + k")
	attempts := fs.Int("attempts", duel.DefaultRetries, "replies asked per move before the game is the model's fault")
	rulesFile := fs.String("rules", "", "file with the rulebook shown to the model (default: the game's own rules)")
	actionsFile := fs.String("actions", "", "file explaining the action numbers (default: each legal move's label)")
	merge := fs.Bool("merge-system", false, "put the system text into the user message (as gg-bench did for o1-mini)")
	trim := fs.Bool("trim", false, "deviation: accept a reply with surrounding spaces")
	labels := fs.Bool("labels", false, "deviation: list each legal move's label even with --actions")
	feedback := fs.Bool("feedback", false, "deviation: tell the model on a retry what was wrong")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	pos, err := parseArgs(fs, args, "GAME")
	if err != nil {
		return err
	}
	if *games < 1 || *attempts < 1 {
		return usagef("--games and --attempts must be at least 1")
	}
	opp, err := duel.ParseAgent(*opponent)
	if err != nil {
		return usageError{err.Error()}
	}
	player := &duel.LLMPlayer{Model: ep.model, Retries: *attempts, MergeSystem: *merge, TrimReply: *trim,
		ShowLabels: *labels, Feedback: *feedback}
	for _, f := range []struct {
		path string
		dst  *string
	}{{*rulesFile, &player.Rules}, {*actionsFile, &player.Actions}} {
		if f.path != "" {
			b, err := os.ReadFile(f.path)
			if err != nil {
				return usageError{err.Error()}
			}
			*f.dst = string(b)
		}
	}
	_, g, err := openDuelGame(pos[0])
	if err != nil {
		return err
	}
	defer g.Close()
	client, asker, ctx, done, err := duelClient(&ep, stderr, "duel eval "+pos[0])
	if err != nil {
		return err
	}
	defer done()
	player.Ask = asker
	opts := duel.EvalOptions{Games: *games, Seed: *gameSeed}
	if !*quiet {
		opts.Progress = func(n, total int, eg duel.EvalGame) {
			first := "second"
			if eg.LLMFirst {
				first = "first"
			}
			fmt.Fprintf(stderr, "[%d/%d] game %d, model %s: %s in %d moves\n", n, total, eg.Index, first, eg.Outcome, eg.Result.Plies)
		}
	}
	res, err := duel.Evaluate(ctx, g, player, opp, opts)
	if err != nil {
		return stopCause(ctx, err)
	}
	rate, ok := res.WinRate()
	strict, strictOK := res.StrictWinRate()
	if *asJSON {
		v := struct {
			*duel.EvalResult
			WinRate       *float64 `json:"win_rate"`
			StrictWinRate *float64 `json:"strict_win_rate"`
		}{EvalResult: res}
		if ok {
			v.WinRate = &rate
		}
		if strictOK {
			v.StrictWinRate = &strict
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		printTotals(stderr, client)
		return nil
	}
	fmt.Fprintf(stdout, "%s: %s vs %s, %d games (model first in %d)\n", res.Game, res.Model, res.Opponent, len(res.Games), (len(res.Games)+1)/2)
	fmt.Fprintf(stdout, "model wins %d, losses %d, draws %d, model faults %d, opponent faults %d, env faults %d, truncated %d; %.1f moves a game\n",
		res.LLMWins, res.AgentWins, res.Draws, res.LLMFaults, res.AgentFaults, res.EnvFaults, res.Truncated, res.MeanPlies())
	if ok {
		fmt.Fprintf(stdout, "gg-bench score (faults left out): %.2f%%\n", 100*rate)
	} else {
		fmt.Fprintln(stdout, "gg-bench score: none (every game was a player fault; gg-bench drops the game)")
	}
	if strictOK {
		fmt.Fprintf(stdout, "strict score (model faults count as losses): %.2f%%\n", 100*strict)
	} else {
		fmt.Fprintln(stdout, "strict score: none (every game was an env fault)")
	}
	printTotals(stdout, client)
	return nil
}

// duelGenerate is `workbench duel generate --model M --n N --out DIR`: gg-bench's generation
// pipeline (rulebook, Starlark implementation with a repair loop, action text), then
// de-duplication of near-identical accepted games. Kept games are written as DIR/NAME.star with
// their rulebook and action text; DIR/generated.json records every attempt.
func duelGenerate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("duel generate", flag.ContinueOnError)
	var ep endpointFlags
	ep.register(fs)
	n := fs.Int("n", 1, "games to generate")
	first := fs.Int("first", 1, "number of the first game (gen-NNN; also its request sample, so a later batch asks afresh)")
	genre := fs.String("genre", duel.DefaultGenre, "genre in the rulebook prompt")
	repairs := fs.Int("repairs", 3, "times a rejected implementation is sent back with the error")
	skipSkill := fs.Bool("skip-skill", false, "leave out the (slow) skill filter")
	threshold := fs.Float64("dedup", 0.9, "drop a game at least this similar (behaviour or code) to one kept before it")
	out := fs.String("out", filepath.Join("runs", "duel-generated"), "folder for the games")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	// duel.Generator reads 0 repairs as its default, so 0 cannot be asked for
	if *n < 1 || *repairs < 1 || *first < 0 {
		return usagef("--n and --repairs must be at least 1, --first at least 0")
	}
	client, asker, ctx, done, err := duelClient(&ep, stderr, "duel generate")
	if err != nil {
		return err
	}
	defer done()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var all []*duel.Generated
	var accepted []*duel.Generated
	for i := 0; i < *n; i++ {
		name := fmt.Sprintf("gen-%03d", *first+i)
		gen := &duel.Generator{Ask: asker, Genre: *genre, MaxRepairs: *repairs, Sample: *first + i,
			Validate: duel.ValidateOptions{SkipSkill: *skipSkill}}
		g, err := gen.Generate(ctx, name)
		if err != nil {
			if ctx.Err() != nil {
				return stopCause(ctx, err)
			}
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			continue
		}
		all = append(all, g)
		if !*quiet {
			verdict := "accepted"
			if !g.Accepted {
				last := g.Attempts[len(g.Attempts)-1].Report
				verdict = fmt.Sprintf("rejected by %s: %s", last.Rejected, firstLine(last.Reason))
			}
			fmt.Fprintf(stderr, "[%d/%d] %s: %d attempt(s), %s\n", i+1, *n, name, len(g.Attempts), verdict)
		}
		if g.Accepted {
			accepted = append(accepted, g)
		}
	}
	var fps []*duel.Fingerprint
	var sources []string
	var fpGames []*duel.Generated
	for _, g := range accepted {
		sg, err := duel.Load(g.Name, []byte(g.Source), duel.Limits{})
		if err != nil {
			return fmt.Errorf("%s: accepted but does not load: %w", g.Name, err)
		}
		fp, err := duel.FingerprintOf(ctx, sg, 50)
		sg.Close()
		if err != nil {
			fmt.Fprintf(stderr, "%s: fingerprint: %v\n", g.Name, err)
			continue
		}
		fps, sources, fpGames = append(fps, fp), append(sources, g.Source), append(fpGames, g)
	}
	kept := duel.Dedup(fps, sources, *threshold)
	for _, k := range kept {
		g := fpGames[k]
		base := filepath.Join(*out, g.Name)
		for _, f := range []struct{ path, text string }{
			{base + ".star", g.Source}, {base + ".rules.md", g.Rulebook + "\n"}, {base + ".actions.txt", g.ActionText + "\n"},
		} {
			if err := atomicfile.Write(f.path, []byte(f.text), 0o644); err != nil {
				return err
			}
		}
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(*out, "generated.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d generated, %d accepted, %d kept after de-duplication, in %s\n", len(all), len(accepted), len(kept), *out)
	for _, k := range kept {
		fmt.Fprintf(stdout, "  %s\n", filepath.Join(*out, fpGames[k].Name+".star"))
	}
	printTotals(stdout, client)
	return nil
}
