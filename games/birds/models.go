package birds

import (
	"context"
	"fmt"
	"os"
)

// ModelScores is the result of a PerModel edition (2025): one competition per model, and each team's total over them.
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
		if rules := opt.rules(); rules.Diversity == EmbeddingDiversity {
			if err := evaluatedWithEmbeddings(teams, rules); err != nil {
				return nil, fmt.Errorf("%s: %w", d, err)
			}
		}
		models = append(models, teams)
		all = append(all, teams...)
	}
	per, total := ScoreModels(models, ScoreOptions{Edition: opt.edition(), Trials: trialsAsRun(all, opt.TrialsPerLetter)})
	return &ModelScores{PerModel: per, Total: total}, nil
}

// evaluatedWithEmbeddings checks that a folder's similarity files were written under the
// rules of an EmbeddingDiversity edition (2025): every classified trial carries the
// classifier's cls_embedding, which that diversity is computed from. A folder evaluated under
// 2023 or 2024 rules has none, and its diversities are those of the softmax vectors: scoring
// it under the embedding rules would mix two rules.
func evaluatedWithEmbeddings(teams []TeamFiles, rules EditionRules) error {
	for _, t := range teams {
		for l, lf := range t.Letters {
			if lf.Similarity == nil {
				continue
			}
			for _, s := range lf.Similarity.Similarities {
				if len(s.ClsEmbedding) == 0 {
					return fmt.Errorf("evaluated under another edition's rules: %s/similarity/%c.json (%s) has no cls_embedding; evaluate it with --edition %s", t.Name, 'A'+l, s.ID, rules.Name)
				}
			}
		}
	}
	return nil
}
