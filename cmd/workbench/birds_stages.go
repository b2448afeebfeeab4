package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/games/birds"
)

// birdsStageFunc runs one pipeline stage on a competition folder.
type birdsStageFunc func(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error)

func birdsExtract(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error) {
	return birds.ExtractStage(ctx, dir, opt)
}

func birdsConvert(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error) {
	return birds.ConvertStage(ctx, dir, opt)
}

func birdsStability(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error) {
	return birds.SimulateStage(ctx, dir, opt, true, false)
}

func birdsRender(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error) {
	return birds.SimulateStage(ctx, dir, opt, false, true)
}

// birdsClassify classifies the images and, for the editions that have diversity, derives it
// from the new similarity files so the folder stays consistent.
func birdsClassify(ctx context.Context, dir string, opt birds.Options) (*birds.StageReport, error) {
	r, err := birds.ClassifyStage(ctx, dir, opt)
	if err == nil && r.Skipped != "" {
		return r, fmt.Errorf("%s (give --classifier-cmd or --classifier-url)", r.Skipped)
	}
	if err == nil && opt.Edition.Rules().HasDiversity() {
		if _, err := birds.DiversityStage(ctx, dir, opt); err != nil {
			return r, err
		}
	}
	return r, err
}

// competitionDir checks that dir is a folder (bad input otherwise).
func competitionDir(dir string) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return usagef("%s is not a competition folder (DIR/TEAM/raw/L/TEAM_L_n.txt)", excerptArg(dir))
	}
	// The pipeline writes only inside real folders (its lock refuses a link); say so up front,
	// naming the folder to give instead.
	if info, err := os.Lstat(dir); err == nil && info.Mode()&os.ModeSymlink != 0 {
		real, _ := filepath.EvalSymlinks(dir)
		return usagef("%s is a symbolic link: give the real folder (%s)", excerptArg(dir), excerptArg(real))
	}
	return nil
}

// evaluatedDir checks that dir is a folder with at least one team folder: report, score and
// compare have nothing to rank in an empty one (bad input).
func evaluatedDir(dir string) error {
	if err := competitionDir(dir); err != nil {
		return err
	}
	if teams, err := birds.Teams(dir); err != nil || len(teams) == 0 {
		return usagef("%s holds no team folder (DIR/TEAM/stability, similarity, …)", excerptArg(dir))
	}
	return nil
}

func birdsStageSetup(run birdsStageFunc) func(fs *flag.FlagSet) Runner {
	return func(fs *flag.FlagSet) Runner {
		var f birdsFlags
		f.register(fs, true)
		f.registerTrials(fs)
		return func(ctx context.Context, args []string, io IO) error {
			opt, err := f.options(io.Stderr)
			if err != nil {
				return err
			}
			if err := competitionDir(args[0]); err != nil {
				return err
			}
			r, err := run(ctx, args[0], opt)
			if r != nil {
				if perr := printReport(io.Stdout, args[0], &birds.Report{Stages: []*birds.StageReport{r}}, *f.asJSON); perr != nil && err == nil {
					err = perr
				}
			}
			return err
		}
	}
}

func birdsEvaluateCommand() *Command {
	return &Command{Name: "evaluate", Args: []string{"DIR"},
		Short: "DIR: every stage from the current answers, then the ranking (stale outputs are removed)",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.register(fs, true)
			f.registerTrials(fs)
			return func(ctx context.Context, args []string, io IO) error {
				opt, err := f.options(io.Stderr)
				if err != nil {
					return err
				}
				if err := competitionDir(args[0]); err != nil {
					return err
				}
				rep, err := birds.Evaluate(ctx, args[0], opt)
				if rep != nil {
					if perr := printReport(io.Stdout, args[0], rep, *f.asJSON); perr != nil && err == nil {
						err = perr
					}
				}
				return err
			}
		}}
}

func birdsScoreCommand() *Command {
	return &Command{Name: "score", Args: []string{"DIR..."},
		Short: "DIR | --edition " + perModelNames() + " DIR_MODEL1 DIR_MODEL2 DIR_MODEL3: scores and ranking (" + perModelNames() + ": the total over the models)",
		Setup: func(fs *flag.FlagSet) Runner {
			var f birdsFlags
			f.register(fs, false)
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
				opt := birds.Options{Edition: ed}
				perModel := ed.Rules().PerModel
				if len(args) == 1 && !perModel {
					sc, err := birds.ScoreStage(ctx, args[0], opt)
					if err != nil {
						return err
					}
					return printScores(io.Stdout, sc, *f.asJSON)
				}
				if !perModel {
					return usagef("several folders (one per model) are scored together only under --edition %s", perModelNames())
				}
				ms, err := birds.ScoreModelFolders(ctx, args, opt)
				if err != nil {
					return err
				}
				return printModelScores(io.Stdout, args, ms, *f.asJSON)
			}
		}}
}

// perModelNames names the editions whose programs run on several models ("2025"), from the
// editions table.
func perModelNames() string {
	var names []string
	for _, r := range birds.Editions() {
		if r.PerModel {
			names = append(names, r.Name)
		}
	}
	return strings.Join(names, "|")
}

func printReport(w io.Writer, dir string, rep *birds.Report, asJSON bool) error {
	summary, _ := birds.StabilitySummary(dir)
	if asJSON {
		v := struct {
			Stages    []*birds.StageReport          `json:"stages"`
			Stability map[string]map[string]float64 `json:"stability"`
			Ranking   []promptJSON                  `json:"ranking,omitempty"`
		}{Stages: rep.Stages, Stability: summary}
		if rep.Scores != nil {
			v.Ranking = rankingJSON(rep.Scores.Prompts)
		}
		return writeJSON(w, v)
	}
	for _, s := range rep.Stages {
		if s.Skipped != "" {
			fmt.Fprintf(w, "%-10s skipped: %s", s.Stage, s.Skipped)
			if s.Removed > 0 {
				fmt.Fprintf(w, "; %d stale removed", s.Removed)
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%-10s %d of %d written", s.Stage, s.Written, s.Items)
		if len(s.Failures) > 0 {
			reasons := map[string]int{}
			for _, f := range s.Failures {
				reasons[f.Err]++
			}
			var parts []string
			for r, n := range reasons {
				parts = append(parts, fmt.Sprintf("%d × %s", n, r))
			}
			sort.Strings(parts)
			fmt.Fprintf(w, " (%s)", strings.Join(parts, "; "))
		}
		if s.Classifier != "" {
			fmt.Fprintf(w, " by %s", s.Classifier)
		}
		if s.Removed > 0 {
			fmt.Fprintf(w, "; %d stale removed", s.Removed)
		}
		fmt.Fprintln(w)
	}
	teams := make([]string, 0, len(summary))
	for t := range summary {
		teams = append(teams, t)
	}
	sort.Strings(teams)
	for _, t := range teams {
		sum, n := 0.0, 0
		for _, v := range summary[t] {
			sum += v
			n++
		}
		fmt.Fprintf(w, "stability  %s: mean %.3f over %d letters with levels\n", t, sum/float64(max(n, 1)), n)
	}
	if rep.Scores != nil {
		return printScores(w, rep.Scores, false)
	}
	return nil
}

type promptJSON struct {
	Team       string `json:"team"`
	Normalized string `json:"normalizedPromptScore"`
	Score      string `json:"promptScore"`
	Rank       int    `json:"rank"`
}

func rankingJSON(ps []birds.PromptScore) []promptJSON {
	var v []promptJSON
	for _, p := range ps {
		v = append(v, promptJSON{p.Team, p.Normalized.String(), p.Score.String(), p.Rank})
	}
	return v
}

func printScores(w io.Writer, sc *birds.Scores, asJSON bool) error {
	if asJSON {
		return writeJSON(w, map[string]any{"competitionScore": sc.Competition.String(), "ranking": rankingJSON(sc.Prompts)})
	}
	fmt.Fprintf(w, "competition score %s\n", sc.Competition)
	printRanking(w, sc.Prompts)
	return nil
}

func printRanking(w io.Writer, ps []birds.PromptScore) {
	for _, p := range ps {
		fmt.Fprintf(w, "%3d  %-30s %8.4f %%  %s\n", p.Rank, p.Team, p.Normalized.Float(), p.Score)
	}
}

// printModelScores prints the 2025 three-model result: each model's ranking, then the total.
func printModelScores(w io.Writer, dirs []string, ms *birds.ModelScores, asJSON bool) error {
	if asJSON {
		type model struct {
			Folder      string       `json:"folder"`
			Competition string       `json:"competitionScore"`
			Ranking     []promptJSON `json:"ranking"`
		}
		v := struct {
			Models []model      `json:"models"`
			Total  []promptJSON `json:"total"`
		}{Total: rankingJSON(ms.Total)}
		for i, sc := range ms.PerModel {
			v.Models = append(v.Models, model{dirs[i], sc.Competition.String(), rankingJSON(sc.Prompts)})
		}
		return writeJSON(w, v)
	}
	for i, sc := range ms.PerModel {
		fmt.Fprintf(w, "model %s: competition score %s\n", dirs[i], sc.Competition)
		printRanking(w, sc.Prompts)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "total over %d models\n", len(ms.PerModel))
	printRanking(w, ms.Total)
	return nil
}
