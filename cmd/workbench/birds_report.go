package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

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
		Short: "DIR_A DIR_B: two prompts' evaluated folders, per letter (n = trials, Mann–Whitney U, Holm) and overall (n = letters, paired: Wilcoxon), B − A with bootstrap 95 % intervals and Â12",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.register(fs, false)
			teamA := fs.String("team-a", "", "team of DIR_A (default: its only team)")
			teamB := fs.String("team-b", "", "team of DIR_B (default: its only team)")
			trials := fs.Int("trials-per-letter", 0, "answers per letter as run (0: the competition's 10); missing trials count 0")
			resamples := fs.Int("resamples", 2000, "kept for scripts, no effect: the intervals are pcgwb/stats's (2000 resamples, seeded by the data)")
			seed := fs.Uint64("seed", 1, "kept for scripts, no effect: the bootstrap is seeded by the data, so the same folders give the same intervals")
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
					return writeJSON(io.Stdout, map[string]any{"teamA": c.TeamA, "teamB": c.TeamB, "letters": c.Letters, "overall": c.Overall,
						"letterUnit": birds.CompareLetterUnit, "overallUnit": birds.CompareOverallUnit})
				}
				printComparison(io.Stdout, c)
				return nil
			}
		}}
}

// printComparison prints one table per measure; each says its unit and n.
func printComparison(w io.Writer, c *birds.Comparison) {
	fmt.Fprintf(w, "B − A: %s − %s; Â12 is P(B > A); bootstrap 95 %% intervals (pcgwb/stats)\n", c.TeamB, c.TeamA)
	for m, name := range []string{"stability", "similarity", "stability × similarity"} {
		pick := func(lc birds.LetterComparison) birds.Interval {
			return [...]birds.Interval{lc.Stability, lc.Similarity, lc.Score}[m]
		}
		fmt.Fprintf(w, "\n%s\n", name)
		if len(c.Letters) > 0 {
			fmt.Fprintf(w, "  per letter: %s of each prompt (independent groups), Mann–Whitney U (exact without ties); p Holm-adjusted over the %d letters\n",
				pick(c.Letters[0]).NText(), len(c.Letters))
		}
		o := pick(c.Overall)
		fmt.Fprintf(w, "  all: %s (paired: each letter's mean under both prompts), %s; p Holm-adjusted over the 3 measures\n", o.NText(), o.Test)
		fmt.Fprintf(w, "  letter  mean A  mean B  %-28s  %-5s  %-6s  %s\n", "B − A [95 % interval]", "Â12", "p", "p Holm")
		for _, lc := range append(c.Letters, c.Overall) {
			iv := pick(lc)
			fmt.Fprintf(w, "  %-6s  %6.3f  %6.3f  %s  %s  %s  %s\n", lc.Letter, iv.MeanA, iv.MeanB, fmtInterval(iv),
				fmtNum(iv.A12, 5), fmtNum(iv.P, 6), fmtNum(iv.PHolm, 0))
		}
	}
}

func fmtInterval(iv birds.Interval) string {
	if math.IsNaN(iv.Low) || math.IsNaN(iv.High) {
		return fmt.Sprintf("%-28s", fmt.Sprintf("%+.3f (no interval)", iv.Diff))
	}
	return fmt.Sprintf("%-28s", fmt.Sprintf("%+.3f [%+.3f, %+.3f]", iv.Diff, iv.Low, iv.High))
}

// fmtNum is v with 3 decimals in width w, or "–" where there is no value.
func fmtNum(v float64, w int) string {
	if math.IsNaN(v) {
		return fmt.Sprintf("%-*s", w, "–")
	}
	return fmt.Sprintf("%-*.3f", w, v)
}
