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
		Short: "--from RUN_DIR[:N][:best|random|#I+J]|PROBLEM=FILE[:N],... --out DIR [--seed S] [--handmade] [--time-limit SEC] [--near-duplicate S] [--questions FILE]: a shuffled, blind playlist",
		Long: "Each source is a run folder; N levels of its final population are taken (5 by default): the best,\n" +
			"a random draw, or hand-picked indices (#0+3+7, 0 is the best). PROBLEM=FILE[:N] takes levels from a\n" +
			"file instead (text, a Tiled map or an item file: hand-made levels, labelled \"hand-made: FILE\").\n" +
			"Levels that cannot be played and duplicates of a level already taken are left out, and said so\n" +
			"(--near-duplicate S also leaves out levels at least S similar by the problem's own diversity).\n" +
			"The playlist is shuffled with --seed and its levels are named Level 1 … Level N. DIR/key.json (keep it)\n" +
			"records where each came from; DIR/kiosk/ is the blind folder to copy to kiosk laptops.\n" +
			"--questions FILE: {\"consent\": TEXT, \"intake\": [QUESTION…], \"questions\": [QUESTION…]}, a QUESTION\n" +
			"being {\"id\", \"text\", \"options\": [2 to 9 answers]}; intake questions are asked once per participant.",
		Setup: func(fs *flag.FlagSet) Runner {
			from := fs.String("from", "", "the sources, separated by commas")
			out := fs.String("out", "", "the session folder to create")
			seed := fs.Uint64("seed", 1, "the shuffle's seed (recorded in session.json)")
			handMade := fs.Bool("handmade", false, "ask \"does this level look hand-made?\" after each level")
			limit := fs.Float64("time-limit", 0, "seconds of play per level before \"time up\" (0: none)")
			near := fs.Float64("near-duplicate", 0, "leave out levels at least this similar (1 - the problem's diversity, 0 to 1) to one taken (0: exact duplicates only)")
			questions := fs.String("questions", "", "a questionnaire file: consent text, intake and per-level questions")
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
				if !(*near >= 0 && *near <= 1) {
					return usagef("--near-duplicate must be from 0 to 1")
				}
				opt := playtest.Options{Sources: srcs, Seed: *seed, HandMade: *handMade, TimeLimit: *limit, NearDuplicate: *near}
				if *questions != "" {
					if opt.Questions, err = playtest.ReadQuestionnaire(*questions); err != nil {
						return usageError{err.Error()}
					}
				}
				s, err := playtest.Create(*out, opt)
				if err != nil {
					return err
				}
				for _, d := range s.Dropped {
					fmt.Fprintf(io.Stdout, "left out %s #%d: %s\n", d.Source, d.Index, d.Reason)
				}
				fmt.Fprintf(io.Stdout, "%s: %d levels from %d sources, seed %d; the key is %s (keep it), copy %s to the kiosk laptops\n",
					*out, len(s.Levels), len(srcs), s.Seed, filepath.Join(*out, playtest.KeyFile), filepath.Join(*out, playtest.KioskDir))
				return nil
			}
		},
	}
}

func playtestReportCommand() *Command {
	return &Command{
		Name:  "report",
		Args:  []string{"DIR..."},
		Short: "DIR... [--out DIR]: per generator completion, time and answers with two-way cluster-bootstrap 95% intervals, differences with tests, position effects, plays.csv, per-level table and plots (DIR: the experimenter's folder first, then kiosk copies)",
		Setup: func(fs *flag.FlagSet) Runner {
			out := fs.String("out", "", "where to write the report (default: DIR/report of the first folder)")
			return func(_ context.Context, dirs []string, io IO) error {
				rep, files, err := playtest.ReportFolders(*out, dirs...)
				if err != nil {
					return err
				}
				fmt.Fprintf(io.Stdout, "%d plays by %d participants\n", rep.Plays, len(rep.Players))
				for _, g := range rep.Generators {
					fmt.Fprintf(io.Stdout, "%-12s completion %s  median time %s", g.Generator, g.Completion.Text(), g.MedianTime.Text())
					for _, q := range rep.Questions {
						fmt.Fprintf(io.Stdout, "  %s %s", q.ID, g.Ratings[q.ID].Text())
					}
					fmt.Fprintln(io.Stdout)
				}
				r := rep.Relations
				for _, d := range rep.Differences {
					fmt.Fprintf(io.Stdout, "%s - %s %s: %s, A12 %.2f, p %.3g (Holm %.3g)\n", d.A, d.B, d.Measure, d.Diff.Text(), d.A12, d.P, d.PHolm)
				}
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
