package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/learn"
	"pcgwb/games/duel/script"
	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
)

// duelTargetsSetup is `workbench duel targets [GAME...]`: each game's trained benchmark opponent
// (its `duel train` folder) measured against issue #30's targets, as a Markdown table
// (learn.MeasureTargets, learn.WriteTargetTable).
func duelTargetsSetup(fs *flag.FlagSet) Runner {
	root := fs.String("dir", "", "folder holding one training folder per game, named after the game (default: each game's `duel train` folder)")
	randomGames := fs.Int("random-games", 100, "games of the benchmark opponent against random")
	mctsGames := fs.Int("mcts-games", 50, "games of the benchmark opponent against mcts-100")
	ceilingGames := fs.Int("ceiling-games", 50, "games of a perfect player (built-in games small enough to solve) against mcts-100 (0: none)")
	brSamples := fs.Int("best-response-samples", 0, "estimate the most any player wins against mcts-100 (built-in games small enough to table), drawing this many of its moves in each position (0: none; 100 is minutes on the larger games)")
	jsonOut := fs.String("json", "", "also write the rows as JSON to this file")
	table := fs.String("table", "", "comma-separated JSON files that --json wrote: write their rows as one table, measuring nothing")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, names []string, io IO) error {
		if *randomGames < 1 || *mctsGames < 1 || *ceilingGames < 0 || *brSamples < 0 {
			return usagef("--random-games and --mcts-games must be at least 1, --ceiling-games and --best-response-samples at least 0")
		}
		var rows []*learn.TargetRow
		if *table != "" {
			for _, f := range strings.Split(*table, ",") {
				b, err := safeio.ReadFile(strings.TrimSpace(f), 16<<20)
				if err != nil {
					return err
				}
				var rs []*learn.TargetRow
				if err := json.Unmarshal(b, &rs); err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
				rows = append(rows, rs...)
			}
			learn.WriteTargetTable(io.Stdout, rows)
			return nil
		}
		if len(names) == 0 {
			names = script.Builtins()
		}
		for _, name := range names {
			p, err := script.Open(name, script.Limits{})
			if err != nil {
				return err
			}
			dir := defaultTrainDir(name)
			if *root != "" {
				dir = filepath.Join(*root, strings.TrimSuffix(baseName(name), ".star"))
			}
			g, err := b.pool().Open(ctx, p.Name(), p.Source(), b.options())
			if err != nil {
				return err
			}
			var solve core.Game
			cg := *ceilingGames
			if cg == 0 {
				cg = -1
			}
			if !strings.HasSuffix(name, ".star") {
				// a built-in game is trusted to run here; its calls get a wall-time budget a
				// loaded machine cannot exhaust (2 s lost a game of take-away at load 6)
				sg, err := script.LoadBuiltin(name, script.Limits{CallTime: time.Minute})
				if err != nil {
					g.Close()
					return err
				}
				solve = sg
			}
			opts := learn.TargetOptions{RandomGames: *randomGames, MCTSGames: *mctsGames, CeilingGames: cg, BestResponseSamples: *brSamples, Source: p.Source()}
			if !*quiet {
				opts.Progress = func(what string, k int) {
					if k < 0 {
						fmt.Fprintf(io.Stderr, "\r%s: %s ", name, what)
						return
					}
					fmt.Fprintf(io.Stderr, "\r%s: %s, game %d ", name, what, k+1)
				}
			}
			row, err := learn.MeasureTargets(ctx, g, solve, dir, opts)
			g.Close()
			if !*quiet {
				fmt.Fprintln(io.Stderr)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			rows = append(rows, row)
		}
		learn.WriteTargetTable(io.Stdout, rows)
		fmt.Fprintf(io.Stdout, "\nWin rates with 95 %% Wilson intervals; a draw is a win for neither side. A target is met when the whole\n"+
			"interval is on its side, not met when it is all on the other, else undecided. %d games against random,\n"+
			"%d against mcts-100 (random rollouts), first mover alternating.\n", *randomGames, *mctsGames)
		if *jsonOut != "" {
			j, err := json.MarshalIndent(rows, "", " ")
			if err != nil {
				return err
			}
			return atomicfile.Write(*jsonOut, append(j, '\n'), 0o644)
		}
		return nil
	}
}
