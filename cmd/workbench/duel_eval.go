package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/games/duel"
	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/validate"
	"pcgwb/internal/safeio"
	"pcgwb/llm"
)

// duelClient builds the client and an asker whose failed requests stop the command (a dead or
// refusing endpoint is the run's error, not the model's fault): the returned context is
// cancelled with the failure as its cause.
func duelClient(ctx context.Context, ep *endpointFlags, stderr io.Writer, tag string) (*llm.Client, *llm.DuelAsker, context.Context, func(), error) {
	cfg, err := ep.config(stderr)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	client, err := llm.New(cfg)
	if err != nil {
		return nil, nil, nil, nil, usageError{err.Error()}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	asker := &llm.DuelAsker{Client: client, Tag: tag, OnFatal: cancel}
	return client, asker, ctx, func() { cancel(nil) }, nil
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

// recordedOpponent is the benchmark opponent `duel generate` recorded next to a script
// (NAME.validate.json), or "".
func recordedOpponent(path string) string {
	if !strings.HasSuffix(path, ".star") {
		return ""
	}
	b, err := safeio.ReadFile(strings.TrimSuffix(path, ".star")+".validate.json", 16<<20)
	if err != nil {
		return ""
	}
	var rep validate.Report
	if json.Unmarshal(b, &rep) != nil {
		return ""
	}
	return rep.BenchmarkOpponent
}

// duelEvalSetup is `workbench duel eval GAME --model M`: gg-bench's evaluation protocol (a fresh
// conversation per turn, digits-only replies, up to 5 attempts per move, the model first in half
// of the games), scored as gg-bench does and strictly, each with its 95% interval.
func duelEvalSetup(fs *flag.FlagSet) Runner {
	var ep endpointFlags
	ep.register(fs)
	var b budgetFlags
	b.register(fs)
	opponent := fs.String("opponent", "", "the agent the model plays against (default: the game's trained benchmark opponent from `duel train`, else the one validation recorded unless it is random, else mcts-100)")
	strengthGames := fs.Int("strength-games", 10, "games the opponent plays against random, mcts-100 and mcts-1000 to measure its strength (0: not measured); a trained opponent brings its own")
	games := fs.Int("games", 30, "games; the model moves first in the even-numbered ones")
	gameSeed := fs.Int64("game-seed", 0, "game k starts from seed game-seed + k")
	attempts := fs.Int("attempts", llmplay.DefaultRetries, "replies asked per move before the game is the model's fault")
	rulesFile := fs.String("rules", "", "file with the rulebook shown to the model (default: the game's own rules)")
	actionsFile := fs.String("actions", "", "file explaining the action numbers (default: each legal move's label)")
	merge := fs.Bool("merge-system", false, "put the system text into the user message (as gg-bench did for o1-mini)")
	trim := fs.Bool("trim", false, "deviation: accept a reply with surrounding spaces")
	labels := fs.Bool("labels", false, "deviation: list each legal move's label even with --actions")
	feedback := fs.Bool("feedback", false, "deviation: tell the model on a retry what was wrong")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	outDir := fs.String("out", "", "folder for the result (GAME.MODEL.eval.json, for `duel score`): made and locked first, written after every game with its costs; a rerun continues it")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	return func(ctx context.Context, args []string, io IO) error {
		if *games < 1 || *attempts < 1 || *strengthGames < 0 {
			return usagef("--games and --attempts must be at least 1, --strength-games at least 0")
		}
		opp, oppStrength, err := resolveOpponent(args[0], *opponent)
		if err != nil {
			return err
		}
		player := &llmplay.LLMPlayer{Model: ep.model, Retries: *attempts, MergeSystem: *merge, TrimReply: *trim,
			ShowLabels: *labels, Feedback: *feedback}
		for _, f := range []struct {
			path string
			dst  *string
		}{{*rulesFile, &player.Rules}, {*actionsFile, &player.Actions}} {
			if f.path != "" {
				b, err := safeio.ReadFile(f.path, 1<<20)
				if err != nil {
					return usageError{err.Error()}
				}
				*f.dst = string(b)
			}
		}
		// the folder is made and locked before anything is asked or paid
		out, err := openEvalOut(*outDir)
		if err != nil {
			return err
		}
		defer out.release()
		client, asker, ctx, done, err := duelClient(ctx, &ep, io.Stderr, "duel eval "+args[0])
		if err != nil {
			return err
		}
		defer done()
		g, err := b.open(ctx, args[0])
		if err != nil {
			return err
		}
		defer g.Close()
		player.Ask = asker
		opts := llmplay.EvalOptions{Games: *games, Seed: *gameSeed}
		if out != nil {
			if err := out.load(g.Info().Name, player.Name()); err != nil {
				return err
			}
			if prev := out.prev; prev != nil {
				if prev.Opponent != opp.Name() || prev.Seed != *gameSeed {
					return fmt.Errorf("%s holds an evaluation against %s from game seed %d, not against %s from %d: use another --out folder, or the same --opponent and --game-seed to continue it",
						out.path, prev.Opponent, prev.Seed, opp.Name(), *gameSeed)
				}
				opts.Resume = prev
				if !*quiet {
					fmt.Fprintf(io.Stderr, "continuing %s: %d of %d games played\n", out.path, len(prev.Games), *games)
				}
			}
			var before llmplay.EvalCosts
			if out.prev != nil && out.prev.Costs != nil {
				before = *out.prev.Costs
			}
			opts.Saved = func(r *llmplay.EvalResult) error {
				c := before.Plus(costsOf(client))
				r.Costs = &c
				return out.save(r)
			}
		}
		if !*quiet {
			opts.Progress = func(n, total int, eg llmplay.EvalGame) {
				first := "second"
				if eg.LLMFirst {
					first = "first"
				}
				fmt.Fprintf(io.Stderr, "[%d/%d] game %d, model %s: %s in %d moves\n", n, total, eg.Index, first, eg.Outcome, eg.Result.Plies)
			}
		}
		strength := oppStrength
		if out != nil && out.prev != nil && out.prev.OpponentStrength != nil {
			strength = out.prev.OpponentStrength
		}
		if strength == nil && *strengthGames > 0 {
			// measured before the first request: what the model is scored against
			if strength, err = measureStrength(ctx, g, opp, *strengthGames, *gameSeed, io, *quiet); err != nil {
				return err
			}
		}
		opts.Saved = withStrength(opts.Saved, strength)
		res, err := llmplay.Evaluate(ctx, g, player, opp, opts)
		if err == nil && context.Cause(ctx) != nil {
			err = ctx.Err()
		}
		if err != nil {
			return stopCause(ctx, err) // the games played so far are in --out
		}
		res.OpponentStrength = strength
		if out != nil {
			c := costsOf(client)
			if out.prev != nil && out.prev.Costs != nil {
				c = out.prev.Costs.Plus(c)
			}
			res.Costs = &c
			if err := out.save(res); err != nil {
				return err
			}
		}
		if *asJSON {
			return writeEvalJSON(io, res, client)
		}
		printEval(io.Stdout, res)
		printTotals(io.Stdout, client)
		return nil
	}
}

// evalFileName is where --out keeps a result: the game and model, made safe as a file name.
func evalFileName(res *llmplay.EvalResult) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == ':' || r < ' ' {
				return '_'
			}
			return r
		}, s)
	}
	return clean(res.Game) + "." + clean(res.Model) + ".eval.json"
}

func writeEvalJSON(io IO, res *llmplay.EvalResult, client *llm.Client) error {
	v := struct {
		*llmplay.EvalResult
		WinRate       *float64       `json:"win_rate"`
		StrictWinRate *float64       `json:"strict_win_rate"`
		Interval      *duel.Interval `json:"win_rate_interval,omitempty"`
		StrictIntv    *duel.Interval `json:"strict_win_rate_interval,omitempty"`
	}{EvalResult: res}
	if iv, ok := res.WinRateInterval(false); ok {
		v.WinRate, v.Interval = &iv.Rate, &iv
	}
	if iv, ok := res.WinRateInterval(true); ok {
		v.StrictWinRate, v.StrictIntv = &iv.Rate, &iv
	}
	enc := json.NewEncoder(io.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	printTotals(io.Stderr, client)
	return nil
}

func printEval(w io.Writer, res *llmplay.EvalResult) {
	fmt.Fprintf(w, "%s: %s vs %s, %d games (model first in %d)\n", res.Game, res.Model, res.Opponent, len(res.Games), (len(res.Games)+1)/2)
	fmt.Fprintf(w, "model wins %d, losses %d, draws %d, model faults %d, opponent faults %d, env faults %d, truncated %d; %.1f moves a game\n",
		res.LLMWins, res.AgentWins, res.Draws, res.LLMFaults, res.AgentFaults, res.EnvFaults, res.Truncated, res.MeanPlies())
	if iv, ok := res.WinRateInterval(false); ok {
		fmt.Fprintf(w, "gg-bench score (faults left out): %.2f%%, 95%% interval [%.1f%%, %.1f%%] over %d games\n", 100*iv.Rate, 100*iv.Lo, 100*iv.Hi, iv.N)
	} else {
		fmt.Fprintln(w, "gg-bench score: none (every game was a player fault; gg-bench drops the game)")
	}
	if iv, ok := res.WinRateInterval(true); ok {
		fmt.Fprintf(w, "strict score (model faults count as losses): %.2f%%, 95%% interval [%.1f%%, %.1f%%] over %d games\n", 100*iv.Rate, 100*iv.Lo, 100*iv.Hi, iv.N)
	} else {
		fmt.Fprintln(w, "strict score: none (every game was an env fault)")
	}
	if iv, ok := res.WinRateInterval(false); ok {
		// over one game environment the aggregate is the game's rate, with the game's interval
		fmt.Fprintf(w, "aggregate (gg-bench score over 1 game): %.2f%%, 95%% interval [%.1f%%, %.1f%%]; `duel score` aggregates several\n",
			100*iv.Rate, 100*iv.Lo, 100*iv.Hi)
	}
}
