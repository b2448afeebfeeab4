package birds

import "testing"

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
