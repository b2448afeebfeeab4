package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"pcgwb/games/birds"
)

func birdsReportCommand() *Command {
	return &Command{Name: "report", Args: []string{"DIR"},
		Short: "DIR: per-letter table, result CSVs in the organisers' layout, contact sheet per team (DIR/result/contact-sheets/TEAM.png)",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.register(fs, false)
			trials := fs.Int("trials-per-letter", 0, "answers per letter as run (0: the competition's 10)")
			return func(ctx context.Context, args []string, io IO) error {
				ed, err := f.editionValue()
				if err != nil {
					return err
				}
				if err := evaluatedDir(args[0]); err != nil {
					return err
				}
				if *trials < 0 {
					return usagef("--trials-per-letter must be ≥ 0")
				}
				rep, err := birds.ReportFolder(ctx, args[0], birds.Options{Edition: ed, TrialsPerLetter: *trials})
				if err != nil {
					return err
				}
				if *f.asJSON {
					return writeJSON(io.Stdout, reportJSON(rep))
				}
				printFolderReport(io.Stdout, rep)
				return nil
			}
		}}
}

type letterRowJSON struct {
	Letter     string `json:"character"`
	Score      string `json:"characterScore"`
	Stability  string `json:"stabilityScore"`
	Similarity string `json:"similarityScore"`
	Diversity  string `json:"diversityScore"`
}

func reportJSON(rep *birds.FolderReport) any {
	type team struct {
		Team    string          `json:"team"`
		Sheet   string          `json:"contactSheet,omitempty"`
		Letters []letterRowJSON `json:"letters"`
	}
	v := struct {
		Competition string          `json:"competitionScore"`
		Ranking     []promptJSON    `json:"ranking"`
		Teams       []team          `json:"teams"`
		Warnings    []birds.Failure `json:"warnings,omitempty"`
		Removed     int             `json:"staleSheetsRemoved,omitempty"`
	}{Competition: rep.Scores.Competition.String(), Ranking: rankingJSON(rep.Scores.Prompts), Warnings: rep.Warnings, Removed: rep.Removed}
	for _, t := range rep.Teams {
		tj := team{Team: t.Team, Sheet: t.Sheet}
		for _, c := range t.Letters {
			tj.Letters = append(tj.Letters, letterRowJSON{c.Character, c.Score.String(), c.Stability.String(), c.Similarity.String(), c.Diversity.String()})
		}
		v.Teams = append(v.Teams, tj)
	}
	return v
}

func printFolderReport(w io.Writer, rep *birds.FolderReport) {
	fmt.Fprintf(w, "competition score %s\n", rep.Scores.Competition)
	printRanking(w, rep.Scores.Prompts)
	for _, t := range rep.Teams {
		fmt.Fprintf(w, "\n%s", t.Team)
		if t.Sheet != "" {
			fmt.Fprintf(w, " (contact sheet %s)", t.Sheet)
		}
		fmt.Fprintf(w, "\n  letter  stability  similarity  diversity  letter score\n")
		for _, c := range t.Letters {
			fmt.Fprintf(w, "  %-6s  %9.4f  %10.4f  %9.4f  %12.6f\n", c.Character, c.Stability.Float(), c.Similarity.Float(), c.Diversity.Float(), c.Score.Float())
		}
	}
	if rep.Removed > 0 {
		fmt.Fprintf(w, "\n%d stale contact sheet(s) removed (teams no longer in the folder)\n", rep.Removed)
	}
	for _, f := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s: %s\n", f.File, f.Err)
	}
}

func birdsCompareCommand() *Command {
	return &Command{Name: "compare", Args: []string{"DIR_A", "DIR_B"},
		Short: "DIR_A DIR_B: two prompts' evaluated folders, per letter and overall (B − A) with bootstrap 95 % intervals",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.register(fs, false)
			teamA := fs.String("team-a", "", "team of DIR_A (default: its only team)")
			teamB := fs.String("team-b", "", "team of DIR_B (default: its only team)")
			trials := fs.Int("trials-per-letter", 0, "answers per letter as run (0: the competition's 10); missing trials count 0")
			resamples := fs.Int("resamples", 2000, "bootstrap resamples")
			seed := fs.Uint64("seed", 1, "bootstrap seed")
			return func(ctx context.Context, args []string, io IO) error {
				ed, err := f.editionValue()
				if err != nil {
					return err
				}
				for _, d := range args {
					if err := evaluatedDir(d); err != nil {
						return err
					}
				}
				if *resamples < 100 || *resamples > 1000000 || *trials < 0 {
					return usagef("--resamples must be 100 to 1000000 and --trials-per-letter ≥ 0")
				}
				c, err := birds.CompareFolders(ctx, args[0], args[1], birds.CompareOptions{Edition: ed, TeamA: *teamA, TeamB: *teamB,
					Trials: *trials, Resamples: *resamples, Seed: *seed})
				if tc := (*birds.TeamChoiceError)(nil); errors.As(err, &tc) {
					return usageError{err.Error()}
				}
				if err != nil {
					return err
				}
				if *f.asJSON {
					return writeJSON(io.Stdout, map[string]any{"teamA": c.TeamA, "teamB": c.TeamB, "letters": c.Letters, "overall": c.Overall})
				}
				fmt.Fprintf(io.Stdout, "B − A: %s − %s, bootstrap 95 %% intervals\n", c.TeamB, c.TeamA)
				fmt.Fprintf(io.Stdout, "letter  %-28s  %-28s  %-28s\n", "stability", "similarity", "stability × similarity")
				for _, lc := range append(c.Letters, c.Overall) {
					fmt.Fprintf(io.Stdout, "%-6s  %s  %s  %s\n", lc.Letter, fmtInterval(lc.Stability), fmtInterval(lc.Similarity), fmtInterval(lc.Score))
				}
				return nil
			}
		}}
}

func fmtInterval(iv birds.Interval) string {
	return fmt.Sprintf("%-28s", fmt.Sprintf("%+.3f [%+.3f, %+.3f]", iv.Diff, iv.Low, iv.High))
}
