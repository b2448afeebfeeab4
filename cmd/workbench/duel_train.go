package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/learn"
	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/script"
)

// defaultTrainDir is where `duel train` keeps a game's training unless told: next to a script
// (GAME.train), or under runs/duel-train for a built-in game.
func defaultTrainDir(game string) string {
	if strings.HasSuffix(game, ".star") {
		return strings.TrimSuffix(game, ".star") + ".train"
	}
	return filepath.Join("runs", "duel-train", baseName(game))
}

// duelTrainSetup is `workbench duel train GAME [--budget CPU-TIME] [--out DIR]`: self-play
// training of the game's opponent in a sandbox worker (learn.RunTraining), then gg-bench's
// choice of the benchmark opponent among the checkpoints, and its strength.
func duelTrainSetup(fs *flag.FlagSet) Runner {
	budget := fs.Duration("budget", 10*time.Minute, "CPU time the training iterations may use in all (a rerun of the same folder continues up to it)")
	out := fs.String("out", "", "training folder (default GAME.train next to a script, runs/duel-train/NAME for a built-in game)")
	seed := fs.Int64("seed", 0, "seed of the network and of the self-play games: the same seed gives the same checkpoints")
	iterations := fs.Int("iterations", 0, "stop after this many iterations in all (0: the budget decides)")
	games := fs.Int("games", 0, "self-play games per iteration (default 24)")
	sims := fs.Int("simulations", 0, "search iterations per self-play move (default 50)")
	hidden := fs.Int("hidden", 0, "units of each of the network's two hidden layers (default 64)")
	playIters := fs.Int("play-iterations", 100, "search iterations of the benchmark opponent (gg-bench: MCTS-100 in the selection)")
	strengthGames := fs.Int("strength-games", 20, "games of the benchmark opponent against each of random, mcts-100, mcts-1000 (0: not measured)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, args []string, io IO) error {
		if *budget <= 0 || *iterations < 0 || *strengthGames < 0 {
			return usagef("--budget must be positive, --iterations and --strength-games at least 0")
		}
		p, err := script.Open(args[0], script.Limits{})
		if err != nil {
			return err
		}
		dir := *out
		if dir == "" {
			dir = defaultTrainDir(args[0])
		}
		pool := b.pool()
		newGame := func(training bool) (core.Game, error) {
			opts := b.options()
			if training { // one request is one iteration
				opts.Budgets.Move, opts.Budgets.Game = *budget+time.Minute, *budget+time.Minute
			}
			return pool.Open(ctx, p.Name(), p.Source(), opts)
		}
		sg := *strengthGames
		if sg == 0 {
			sg = -1
		}
		opts := learn.TrainOptions{Budget: *budget, MaxIterations: *iterations, PlayIterations: *playIters, StrengthGames: sg,
			Config: learn.TrainConfig{Seed: *seed, GamesPerIter: *games, Simulations: *sims, Hidden: *hidden}}
		if !*quiet {
			opts.Log = func(format string, a ...any) { fmt.Fprintf(io.Stderr, format+"\n", a...) }
		}
		run, bench, err := learn.RunTraining(ctx, newGame, p.Source(), dir, opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(io.Stdout, "%s: %d iterations, %s of CPU time (budget %s), checkpoints in %s\n", p.Name(), len(run.Iterations), run.CPU.Round(time.Second), *budget, dir)
		printBenchmark(io.Stdout, bench)
		return nil
	}
}

func printBenchmark(w io.Writer, b *learn.Benchmark) {
	fmt.Fprintf(w, "benchmark opponent: %s (checkpoint %s, MCTS-%d with the network's priors and rollouts)\n", b.Agent, b.Checkpoint, b.Iterations)
	if b.Tournament != nil {
		decisive := "above"
		if !b.Decisive {
			decisive = "not above (gg-bench would drop the game)"
		}
		fmt.Fprintf(w, "chosen by gg-bench's rule: %s beat %s in %.0f%% of their games, %s 80%%\n", b.Lopsided.Winner, b.Lopsided.Loser, 100*b.Lopsided.Share, decisive)
	}
	if b.Strength != nil {
		fmt.Fprintln(w, "strength (win rate, 95% Wilson interval):")
		b.Strength.WriteText(w)
	}
}

// resolveOpponent is the agent `duel eval` plays: --opponent when given ("trained" for the
// game's trained benchmark opponent, "trained:DIR" for one in DIR, else an agent name), else the
// trained benchmark opponent when the game has one, else the opponent validation recorded
// unless it is random, else mcts-100. A trained opponent brings its measured strength.
func resolveOpponent(game, flagValue string) (core.Agent, *learn.Strength, error) {
	trained := func(dir string, must bool) (core.Agent, *learn.Strength, error) {
		b, a, err := learn.LoadBenchmark(dir)
		if err != nil {
			if !must && errors.Is(err, fs.ErrNotExist) {
				return nil, nil, nil
			}
			return nil, nil, fmt.Errorf("the trained opponent in %s: %w (run `workbench duel train %s` first)", dir, err, game)
		}
		return a, b.Strength, nil
	}
	switch v := strings.TrimSpace(flagValue); {
	case v == "trained":
		return trained(defaultTrainDir(game), true)
	case strings.HasPrefix(v, "trained:"):
		return trained(strings.TrimPrefix(v, "trained:"), true)
	case v != "":
		a, err := agents.ParseAgent(v)
		if err != nil {
			return nil, nil, usageError{err.Error()}
		}
		return a, nil, nil
	}
	if a, st, err := trained(defaultTrainDir(game), false); err != nil || a != nil {
		return a, st, err
	}
	name := recordedOpponent(game)
	if name == "" || name == "random" {
		name = "mcts-100" // never plain random unless asked
	}
	a, err := agents.ParseAgent(name)
	return a, nil, err
}

// measureStrength plays the opponent against random, mcts-100 and mcts-1000 on g.
func measureStrength(ctx context.Context, g core.Game, opp core.Agent, games int, seed int64, io IO, quiet bool) (*learn.Strength, error) {
	if !quiet {
		fmt.Fprintf(io.Stderr, "measuring %s: %d games against each of %s\n", opp.Name(), games, strings.Join(learn.StrengthRefs, ", "))
	}
	st, err := learn.MeasureStrength(ctx, g, opp, nil, games, seed+1<<20, nil)
	if err != nil {
		return nil, err
	}
	if !quiet {
		st.WriteText(io.Stderr)
	}
	return st, nil
}

// withStrength makes a result saved after each game carry the opponent's strength.
func withStrength(saved func(*llmplay.EvalResult) error, st *learn.Strength) func(*llmplay.EvalResult) error {
	if saved == nil {
		return nil
	}
	return func(r *llmplay.EvalResult) error {
		r.OpponentStrength = st
		return saved(r)
	}
}
