package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/games/duel/llmplay"
	"pcgwb/internal/safeio"
)

// duelScoreSetup is `workbench duel score DIR...`: the gg-bench score of every model found in
// eval results (`duel eval --out DIR`), with per-game win rates, intervals, and the difference
// between two models.
func duelScoreSetup(fs *flag.FlagSet) Runner {
	compare := fs.String("compare", "", "two models A,B to compare (default: the two models found, when there are two)")
	strict := fs.Bool("strict", false, "score strictly (model faults count as losses)")
	asJSON := fs.Bool("json", false, "print the scores as JSON")
	return func(ctx context.Context, args []string, io IO) error {
		results, err := loadEvalResults(args)
		if err != nil {
			return err
		}
		if len(results) == 0 {
			return fmt.Errorf("no eval results (*.eval.json) in %s", strings.Join(args, ", "))
		}
		byModel := map[string][]*llmplay.EvalResult{}
		for _, r := range results {
			byModel[r.Model] = append(byModel[r.Model], r)
		}
		models := make([]string, 0, len(byModel))
		for m := range byModel {
			models = append(models, m)
		}
		sort.Strings(models)
		type modelScore struct {
			Model string             `json:"model"`
			Score llmplay.BenchScore `json:"score"`
			Games map[string]string  `json:"games"`
		}
		var out struct {
			Models     []modelScore        `json:"models"`
			Comparison *llmplay.Comparison `json:"comparison,omitempty"`
		}
		for _, m := range models {
			s, err := llmplay.Score(byModel[m], *strict)
			if err != nil {
				fmt.Fprintf(io.Stdout, "%s: %v\n", m, err)
				continue
			}
			ms := modelScore{Model: m, Score: s, Games: map[string]string{}}
			if !*asJSON {
				lo, hi := s.Range()
				fmt.Fprintf(io.Stdout, "%s: score %.2f%%, 95%% interval [%.1f%%, %.1f%%] over %d games\n", m, 100*s.Mean, 100*lo, 100*hi, s.N)
			}
			for _, r := range byModel[m] {
				if iv, ok := r.WinRateInterval(*strict); ok {
					ms.Games[r.Game] = iv.String()
					if !*asJSON {
						fmt.Fprintf(io.Stdout, "  %-24s vs %-10s %s\n", r.Game, r.Opponent, iv)
					}
				}
			}
			out.Models = append(out.Models, ms)
		}
		pair := models
		if *compare != "" {
			pair = strings.Split(*compare, ",")
			if len(pair) != 2 || byModel[pair[0]] == nil || byModel[pair[1]] == nil {
				return usagef("--compare needs two models found in the results (%s)", strings.Join(models, ", "))
			}
		}
		if len(pair) == 2 {
			c, err := llmplay.Compare(byModel[pair[0]], byModel[pair[1]], *strict)
			if err != nil {
				return err
			}
			out.Comparison = &c
			if !*asJSON {
				verdict := "the interval includes 0: no significant difference"
				if c.Significant() {
					verdict = "significant at 95%"
				}
				fmt.Fprintf(io.Stdout, "difference %s (%s)\n", c, verdict)
			}
		}
		if *asJSON {
			return writeJSON(io.Stdout, out)
		}
		return nil
	}
}

// loadEvalResults reads eval results from files and from the *.eval.json files under folders.
func loadEvalResults(paths []string) ([]*llmplay.EvalResult, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".eval.json") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var out []*llmplay.EvalResult
	for _, f := range files {
		b, err := safeio.ReadFile(f, 64<<20)
		if err != nil {
			return nil, err
		}
		r, err := parseEvalResult(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// parseEvalResult reads one eval result, checking that its counts are consistent.
func parseEvalResult(b []byte) (*llmplay.EvalResult, error) {
	var r llmplay.EvalResult
	if err := json.Unmarshal(safeio.StripBOM(b), &r); err != nil {
		return nil, fmt.Errorf("not an eval result: %v", err)
	}
	counts := []int{r.LLMWins, r.AgentWins, r.Draws, r.LLMFaults, r.AgentFaults, r.EnvFaults, r.Truncated}
	total := 0
	for _, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("negative count in an eval result")
		}
		total += c
	}
	if r.Game == "" || r.Model == "" || total == 0 || total != len(r.Games) {
		return nil, fmt.Errorf("an eval result needs a game, a model and counts that add up to its games (%d counted, %d games)", total, len(r.Games))
	}
	return &r, nil
}
