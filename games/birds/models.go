package birds

import (
	"context"
	"fmt"
	"os"
)

// ModelScores is the 2025 result: one competition per model, and each team's total over them.
type ModelScores struct {
	PerModel []*Scores
	Total    []PromptScore
}

// ScoreModelFolders scores one evaluated competition folder per model (LLMs4PCG 2025 runs
// every program on three models) and totals them by ScoreModels. It reads and writes nothing
// but the folders' stability, similarity and diversity files.
func ScoreModelFolders(ctx context.Context, dirs []string, opt Options) (*ModelScores, error) {
	var models [][]TeamFiles
	var all []TeamFiles
	infos := make([]os.FileInfo, len(dirs))
	for i, d := range dirs {
		info, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		for j := 0; j < i; j++ {
			if os.SameFile(info, infos[j]) {
				return nil, fmt.Errorf("%s and %s are the same folder: each model's run is scored once", dirs[j], d)
			}
		}
		infos[i] = info
	}
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		teams, err := ReadTeams(d, opt.edition())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		if opt.edition() == Edition2025 {
			if err := evaluatedUnder2025(teams); err != nil {
				return nil, fmt.Errorf("%s: %w", d, err)
			}
		}
		models = append(models, teams)
		all = append(all, teams...)
	}
	per, total := ScoreModels(models, ScoreOptions{Edition: opt.edition(), Trials: trialsAsRun(all, opt.TrialsPerLetter)})
	return &ModelScores{PerModel: per, Total: total}, nil
}

// evaluatedUnder2025 checks that a folder's similarity files were written under the 2025
// rules: every classified trial carries the classifier's cls_embedding, which the 2025
// diversity is computed from. A folder evaluated under 2023 or 2024 rules has none, and its
// diversities are those of the softmax vectors: scoring it as 2025 would mix two rules.
func evaluatedUnder2025(teams []TeamFiles) error {
	for _, t := range teams {
		for l, lf := range t.Letters {
			if lf.Similarity == nil {
				continue
			}
			for _, s := range lf.Similarity.Similarities {
				if len(s.ClsEmbedding) == 0 {
					return fmt.Errorf("evaluated under another edition's rules: %s/similarity/%c.json (%s) has no cls_embedding; evaluate it with --edition 2025", t.Name, 'A'+l, s.ID)
				}
			}
		}
	}
	return nil
}
