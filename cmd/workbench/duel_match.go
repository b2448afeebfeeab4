package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

func duelMatchSetup(fs *flag.FlagSet) Runner {
	agentList := fs.String("agents", "mcts-100,random", "two agents: the first is Player 1 (moves first) in even games")
	games := fs.Int("games", 2, "games to play; the first mover alternates")
	seed := fs.Int64("seed", 0, "seed of the first game")
	moves := fs.Bool("moves", false, "print every move and position")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, args []string, io IO) error {
		agents, err := agents.ParseAgents(*agentList)
		if err != nil || len(agents) != 2 {
			return usagef("--agents needs exactly two agents: %v", err)
		}
		g, err := b.open(ctx, args[0])
		if err != nil {
			return err
		}
		defer g.Close()
		var printErr error
		pr, err := duel.PlayMatch(ctx, g, [2]core.Agent{agents[0], agents[1]}, *games, *seed, func(k int, seats [2]core.Agent, res duel.Result, _ duel.PairResult) {
			fmt.Fprintf(io.Stdout, "game %d: %s (Player 1) vs %s (Player 2): %s in %d moves\n", k, seats[0].Name(), seats[1].Name(), describeResult(res, seats), res.Plies)
			if *moves && res.Fault == nil && printErr == nil {
				printErr = printMoves(io.Stdout, g, *seed+int64(k), res.Moves)
			}
		})
		if err == nil {
			err = printErr
		}
		if err != nil {
			return err
		}
		t := &duel.Tournament{Agents: []string{agents[0].Name(), agents[1].Name()}, Pairs: []duel.PairResult{pr}}
		fmt.Fprintln(io.Stdout)
		return t.WriteTable(io.Stdout)
	}
}

func describeResult(r duel.Result, seats [2]core.Agent) string {
	switch {
	case r.Fault != nil && r.FaultBy < 0:
		return "game fault: " + core.PrintableLine(r.Fault.Error())
	case r.Fault != nil:
		return fmt.Sprintf("%s faulted: %s", seats[r.FaultBy].Name(), core.PrintableLine(r.Fault.Error()))
	case r.Truncated:
		return "stopped at the move cap"
	case r.Outcome == core.Draw:
		return "draw"
	}
	return seats[r.Outcome.Winner()].Name() + " wins"
}

func printMoves(w io.Writer, g core.Game, seed int64, moves []int) error {
	s, err := g.Initial(seed)
	if err != nil {
		return err
	}
	for _, a := range moves {
		label, err := g.ActionLabel(s, a)
		if err != nil {
			return err
		}
		if s, err = g.Apply(s, a); err != nil {
			return err
		}
		txt, err := g.Render(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "> %s\n%s\n", core.PrintableLine(label), core.Printable(txt))
	}
	return nil
}

func duelTournamentSetup(fs *flag.FlagSet) Runner {
	agentList := fs.String("agents", "random,mcts-10,mcts-100", "comma-separated agents")
	return tournamentRunner(fs, func() (string, error) { return *agentList, nil })
}

func duelLadderSetup(fs *flag.FlagSet) Runner {
	iters := fs.String("iterations", "10,30,100,300", "MCTS iteration counts of the rungs above random play")
	return tournamentRunner(fs, func() (string, error) {
		names := []string{"random"}
		for _, s := range strings.Split(*iters, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				return "", usagef("--iterations: %q is not a positive integer", s)
			}
			names = append(names, fmt.Sprintf("mcts-%d", n))
		}
		return strings.Join(names, ","), nil
	})
}

// tournamentRunner declares the round robin's flags; agents gives the agent list once the
// flags are parsed.
func tournamentRunner(fs *flag.FlagSet, agentList func() (string, error)) Runner {
	games := fs.Int("games", 10, "games per pair; the first mover alternates")
	workers := fs.Int("workers", 2, "games played in parallel (one sandbox worker each)")
	seed := fs.Int64("seed", 0, "seed of the first game of every pair")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var b budgetFlags
	b.register(fs)
	return func(ctx context.Context, args []string, io IO) error {
		list, err := agentList()
		if err != nil {
			return err
		}
		agents, err := agents.ParseAgents(list)
		if err != nil {
			return usageError{err.Error()}
		}
		if len(agents) < 2 {
			return usagef("a tournament needs at least two agents")
		}
		p, err := script.Open(args[0], script.Limits{})
		if err != nil {
			return err
		}
		pool := b.pool()
		start := time.Now()
		t, err := duel.RunTournament(ctx, func() (core.Game, error) { return pool.Open(ctx, p.Name(), p.Source(), b.options()) }, agents, duel.TournamentOptions{
			GamesPerPair: *games, Seed: *seed, Workers: *workers,
			Progress: func(done, total int) {
				if !*quiet {
					fmt.Fprintf(io.Stderr, "\r%d/%d games", done, total)
					if done == total {
						fmt.Fprintln(io.Stderr)
					}
				}
			},
		})
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(io.Stdout, t)
		}
		fmt.Fprintf(io.Stdout, "%s: %d games per pair, seed %d, %s\n", p.Name(), *games, *seed, time.Since(start).Round(time.Millisecond))
		return t.WriteTable(io.Stdout)
	}
}
