package birds

import (
	"context"
	"fmt"
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
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		teams, err := ReadTeams(d, opt.edition())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		models = append(models, teams)
		all = append(all, teams...)
	}
	per, total := ScoreModels(models, ScoreOptions{Edition: opt.edition(), Trials: trialsAsRun(all, opt.TrialsPerLetter)})
	return &ModelScores{PerModel: per, Total: total}, nil
}
