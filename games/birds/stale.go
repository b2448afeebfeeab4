package birds

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// resultFiles are the score stage's outputs in DIR/result.
var resultFiles = []string{"trial_scores.csv", "character_scores.csv", "prompt_scores_ranks.csv", "constants.json"}

// unscored ends an Evaluate that cannot score (no letter classifier): the result files and
// contact sheets, which scored and pictured the folder as it was, are removed rather than left
// to describe trials that may have changed.
func unscored(dir string, rep *Report, why string) (*Report, error) {
	score := &StageReport{Stage: "score", Skipped: why}
	rep.Stages = append(rep.Stages, score)
	var err error
	score.Removed, err = pruneStale(dir, nil, "", func(name string) bool {
		for _, f := range resultFiles {
			if name == f {
				return false
			}
		}
		return true
	}, StageResult)
	if err != nil {
		return rep, err
	}
	sheets, err := removeContactSheets(dir)
	score.Removed += sheets
	return rep, err
}

// removeContactSheets removes the contact sheets of an earlier `birds report`: they show the
// trials as they were scored then, and Evaluate has just derived every stage again (the report
// draws them anew). It returns how many went.
func removeContactSheets(dir string) (int, error) {
	return pruneStale(dir, nil, ".png", nil, StageResult, ContactSheetsDir)
}

// dropUnclassified (Evaluate without a classifier, where similarity cannot be computed)
// removes from TEAM/similarity/L.json the entries whose image this run did not find unchanged
// (removed, or rendered differently), for the teams with a levels folder (folders evaluated
// elsewhere are left as they are); a file left without entries, or unreadable, is removed. It
// returns how many entries and files went. Diversity is then derived again from what is kept.
func dropUnclassified(dir string, unchanged map[trialKey]map[string]bool) (int, error) {
	teams, err := Teams(dir)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, team := range teams {
		if _, err := os.Lstat(filepath.Join(dir, team, StageLevels)); err != nil {
			continue // no levels: images and similarity come from elsewhere
		}
		sdir := filepath.Join(dir, team, StageSimilarity)
		if realDir(sdir) != nil {
			continue
		}
		for _, name := range filesIn(sdir) {
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			keep := unchanged[trialKey{team, stem(name)}]
			path := filepath.Join(sdir, name)
			sim := readJSONFile[SimilarityFile](path)
			if sim == nil {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return removed, err
				}
				removed++
				continue
			}
			kept := &SimilarityFile{Trials: []SimilarityTrial{}, Similarities: []SimilarityDetail{}}
			for _, t := range sim.Trials {
				if keep[t.ID] {
					kept.Trials = append(kept.Trials, t)
					kept.SimilarityRate += t.Similarity
				}
			}
			for _, d := range sim.Similarities {
				if keep[d.ID] {
					kept.Similarities = append(kept.Similarities, d)
				}
			}
			gone := len(sim.Trials) - len(kept.Trials) + len(sim.Similarities) - len(kept.Similarities)
			if gone == 0 {
				continue
			}
			removed += len(sim.Trials) - len(kept.Trials)
			if len(kept.Trials) == 0 {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return removed, err
				}
				continue
			}
			kept.Count = len(kept.Trials)
			kept.SimilarityRate /= float64(kept.Count)
			data, err := json.MarshalIndent(kept, "", "  ")
			if err != nil {
				return removed, err
			}
			if err := writeOut(dir, name, data, team, StageSimilarity); err != nil && !isTrialError(err) {
				return removed, err
			}
		}
	}
	return removed, nil
}
