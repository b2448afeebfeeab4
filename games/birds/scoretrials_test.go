package birds

import (
	"fmt"
	"testing"
)

// A prompt run with 2 trials per letter is averaged over the 2 trials it ran, not over the
// competition's 10.
func TestScoreTrialsAsRun(t *testing.T) {
	team := TeamFiles{Name: "t"}
	for j := range team.Letters {
		l := Letters[j : j+1]
		team.Letters[j] = LetterFiles{
			Stability:  &StabilityFile{Raws: []StabilityRaw{{Tag: "t/levels/" + l + "/t_" + l + "_1.xml", Score: 1}, {Tag: "t/levels/" + l + "/t_" + l + "_2.xml", Score: 1}}},
			Similarity: &SimilarityFile{Trials: []SimilarityTrial{{ID: "t_" + l + "_1.png", Label: l, Similarity: 0.5}, {ID: "t_" + l + "_2.png", Label: l, Similarity: 0.5}}},
			Diversity:  &DiversityFile{},
		}
	}
	for _, c := range []struct {
		trials     int
		rows       int
		stability  string
		similarity string
	}{
		{0, 26 * TrialsPerLetter, "0.2", "0.1"},
		{2, 26 * 2, "1", "0.5"},
	} {
		sc := Score([]TeamFiles{team}, ScoreOptions{Trials: c.trials})
		if len(sc.Trials) != c.rows {
			t.Errorf("trials %d: %d trial rows, want %d", c.trials, len(sc.Trials), c.rows)
		}
		ch := sc.Characters[0]
		if ch.Stability.String() != c.stability || ch.Similarity.String() != c.similarity {
			t.Errorf("trials %d: letter A stability %s similarity %s, want %s %s", c.trials, ch.Stability, ch.Similarity, c.stability, c.similarity)
		}
	}
}

// A 2-trial prompt evaluated in a folder where another team ran 10 trials: no trial of the
// other team is dropped.
func TestTrialsAsRunKeepsOtherTeamsTrials(t *testing.T) {
	mk := func(n int) TeamFiles {
		var tf TeamFiles
		raws := []StabilityRaw{}
		for i := 1; i <= n; i++ {
			raws = append(raws, StabilityRaw{Tag: fmt.Sprintf("t/levels/A/t_A_%d.xml", i), Score: 1})
		}
		tf.Letters[0].Stability = &StabilityFile{Raws: raws}
		return tf
	}
	for _, c := range []struct {
		requested, others, want int
	}{
		{0, 10, 0}, {2, 2, 2}, {2, 10, 10}, {3, 7, 7},
	} {
		if got := trialsAsRun([]TeamFiles{mk(min(c.requested, 2)), mk(c.others)}, c.requested); got != c.want {
			t.Errorf("requested %d, others ran %d: %d, want %d", c.requested, c.others, got, c.want)
		}
	}
}
