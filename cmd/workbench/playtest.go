package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"pcgwb/games/playtest"
)

// playtestCommand is `workbench playtest`: blind playtests of levels from several run folders.
func playtestCommand() *Command {
	return &Command{
		Name:  "playtest",
		Short: "new --from RUN_DIR[:N],... --out DIR | play DIR [--player NAME] | report DIR... | merge DIR SRC...: blind playtests",
		Commands: []*Command{
			playtestNewCommand(),
			playtestPlayCommand(),
			playtestReportCommand(),
			playtestMergeCommand(),
		},
	}
}

func playtestNewCommand() *Command {
	return &Command{
		Name:  "new",
		Short: "--from RUN_DIR[:N][:best|random|#I+J]|PROBLEM=FILE[:N],... --out DIR [--seed S] [--handmade] [--time-limit SEC]: a shuffled, anonymised playlist",
		Long: "Each source is a run folder; N levels of its final population are taken (5 by default): the best,\n" +
			"a random draw, or hand-picked indices (#0+3+7, 0 is the best). PROBLEM=FILE[:N] takes levels from a\n" +
			"file instead (text, a Tiled map or an item file: hand-made levels). The playlist is shuffled with\n" +
			"--seed and its levels are named Level 1 … Level N; session.json records where each came from.",
		Setup: func(fs *flag.FlagSet) Runner {
			from := fs.String("from", "", "the sources, separated by commas")
			out := fs.String("out", "", "the session folder to create")
			seed := fs.Uint64("seed", 1, "the shuffle's seed (recorded in session.json)")
			handMade := fs.Bool("handmade", false, "ask \"does this level look hand-made?\" after each level")
			limit := fs.Float64("time-limit", 0, "seconds of play per level before \"time up\" (0: none)")
			return func(_ context.Context, _ []string, io IO) error {
				if *from == "" || *out == "" {
					return usagef("--from and --out are required")
				}
				srcs, err := playtest.ParseSources(*from)
				if err != nil {
					return usageError{err.Error()}
				}
				if *limit < 0 {
					return usagef("--time-limit must not be negative")
				}
				s, err := playtest.Create(*out, playtest.Options{Sources: srcs, Seed: *seed, HandMade: *handMade, TimeLimit: *limit})
				if err != nil {
					return err
				}
				fmt.Fprintf(io.Stdout, "%s: %d levels from %d sources, seed %d\n", filepath.Join(*out, playtest.SessionFile), len(s.Levels), len(srcs), s.Seed)
				return nil
			}
		},
	}
}

func playtestReportCommand() *Command {
	return &Command{
		Name:  "report",
		Args:  []string{"DIR..."},
		Short: "DIR... [--out DIR]: per generator completion, time and ratings with 95% intervals, people vs metrics, per-level table and plots",
		Setup: func(fs *flag.FlagSet) Runner {
			out := fs.String("out", "", "where to write the report (default: DIR/report of the first folder)")
			return func(_ context.Context, dirs []string, io IO) error {
				rep, files, err := playtest.ReportFolders(*out, dirs...)
				if err != nil {
					return err
				}
				fmt.Fprintf(io.Stdout, "%d plays by %d players\n", rep.Plays, len(rep.Players))
				for _, g := range rep.Generators {
					fmt.Fprintf(io.Stdout, "%-12s completion %s  median time %s", g.Generator, g.Completion.Text(), g.MedianTime.Text())
					for _, q := range rep.Questions {
						fmt.Fprintf(io.Stdout, "  %s %s", q.ID, g.Ratings[q.ID].Text())
					}
					fmt.Fprintln(io.Stdout)
				}
				r := rep.Relations
				fmt.Fprintf(io.Stdout, "playable levels completed %s; others %s\nsolver path vs time to win (Spearman) %s\n",
					r.PlayableCompletion.Text(), r.UnplayableCompletion.Text(), r.SolverVsTime.Text())
				fmt.Fprintf(io.Stdout, "wrote %d files, %s\n", len(files), files[len(files)-1])
				return nil
			}
		},
	}
}

func playtestMergeCommand() *Command {
	return &Command{
		Name:  "merge",
		Args:  []string{"DIR", "SRC..."},
		Short: "DIR SRC...: copy the records of other laptops' copies of the session into DIR",
		Setup: func(fs *flag.FlagSet) Runner {
			return func(_ context.Context, args []string, io IO) error {
				n, err := playtest.Merge(args[0], args[1:]...)
				if err != nil {
					return err
				}
				fmt.Fprintf(io.Stdout, "merged %d records into %s\n", n, args[0])
				return nil
			}
		},
	}
}
