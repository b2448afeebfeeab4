package birds

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"pcgwb/stats"
)

// Comparing two prompts: each evaluated in its own competition folder, their trials are
// compared letter by letter — stability, similarity and their product (the trial score before
// the letter weights, which depend on the other teams of a folder) — and overall, over the
// letters. Every number comes from pcgwb/stats, as every other comparison of the workbench:
//
//   - per letter, the unit is the trial: the two prompts' trials of a letter are independent
//     groups (n = the trials per letter of each prompt). B − A is stats.Compare(B, A): the
//     difference of means with its bootstrap interval, Â12 and the Mann–Whitney U p-value;
//     the p-values of one measure are Holm-adjusted over the letters compared (one family per
//     measure);
//   - overall, the unit is the letter: the same letter under the two prompts is a pair (n = 26
//     letters). B − A is stats.ComparePaired of the letters' means: the mean paired difference
//     with the bootstrap of the pairs, Â12 and Wilcoxon's signed-rank p-value; the three
//     measures' p-values are Holm-adjusted together.

// CompareOptions configure CompareFolders.
type CompareOptions struct {
	Edition Edition
	// TeamA and TeamB pick the team of each folder; empty means the folder's only team.
	TeamA, TeamB string
	// Trials per letter as run (0: the competition's 10); missing trials count as 0.
	Trials int
	// Resamples and Seed are kept for the callers that set them and have no effect: every
	// interval is pcgwb/stats's (stats.Resamples resamples, seeded by the data, so the same
	// folders always give the same intervals).
	Resamples int
	Seed      uint64
}

// Units of the comparisons, as the tables state them ("n = 10 trials", "n = 26 letters").
const (
	CompareLetterUnit  = "trial"
	CompareOverallUnit = "letter"
)

// Interval is a difference B − A with its bootstrap 95 % percentile interval, the effect size
// and the test of one comparison. Low and High are NaN (null in JSON) without an interval
// (fewer than two units), P and PHolm when there is no test.
type Interval struct {
	Diff  float64 `json:"diff"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	MeanA float64 `json:"meanA"`
	MeanB float64 `json:"meanB"`
	// Trials are the sizes of A's and B's groups: trials per letter, letters overall.
	Trials [2]int `json:"trials"`
	// N and Unit state what the comparison stands on: "n = 10 trials" of each prompt per
	// letter, "n = 26 letters" (pairs) overall.
	N    int    `json:"n"`
	Unit string `json:"unit"`
	// A12 is the Vargha–Delaney Â12 of B over A (> 0.5: B tends to be larger).
	A12 float64 `json:"a12"`
	// P is the test's two-sided p-value; PHolm the same adjusted over its family (Holm).
	P     float64 `json:"p"`
	PHolm float64 `json:"pHolm"`
	// Test and Method say how P and the interval were obtained.
	Test   string `json:"test"`
	Method string `json:"method"`
}

// MarshalJSON writes NaN (no interval, no test) as null, which JSON can hold.
func (iv Interval) MarshalJSON() ([]byte, error) {
	num := func(f float64) *float64 {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return &f
	}
	return json.Marshal(struct {
		Diff   *float64 `json:"diff"`
		Low    *float64 `json:"low"`
		High   *float64 `json:"high"`
		MeanA  *float64 `json:"meanA"`
		MeanB  *float64 `json:"meanB"`
		Trials [2]int   `json:"trials"`
		N      int      `json:"n"`
		Unit   string   `json:"unit"`
		A12    *float64 `json:"a12"`
		P      *float64 `json:"p"`
		PHolm  *float64 `json:"pHolm"`
		Test   string   `json:"test"`
		Method string   `json:"method"`
	}{num(iv.Diff), num(iv.Low), num(iv.High), num(iv.MeanA), num(iv.MeanB), iv.Trials, iv.N, iv.Unit,
		num(iv.A12), num(iv.P), num(iv.PHolm), iv.Test, iv.Method})
}

// NText is the comparison's size statement, "n = 10 trials" or "n = 26 letters".
func (iv Interval) NText() string { return stats.NText(iv.N, iv.Unit) }

// LetterComparison is one letter's differences.
type LetterComparison struct {
	Letter     string   `json:"letter"`
	Stability  Interval `json:"stability"`
	Similarity Interval `json:"similarity"`
	Score      Interval `json:"score"` // stability × similarity per trial
}

// measures are the three intervals in the order stability, similarity, score.
func (lc *LetterComparison) measures() [3]*Interval {
	return [3]*Interval{&lc.Stability, &lc.Similarity, &lc.Score}
}

// Comparison is CompareFolders' result: per letter, and overall (over the letters, paired).
type Comparison struct {
	TeamA, TeamB string
	Letters      []LetterComparison
	Overall      LetterComparison
}

// TeamChoiceError is the error for a team that is not in the folder, or a folder of several
// teams without one named (bad input).
type TeamChoiceError struct{ Msg string }

func (e *TeamChoiceError) Error() string { return e.Msg }

// CompareFolders compares the prompt of folder a with the prompt of folder b.
func CompareFolders(ctx context.Context, a, b string, opt CompareOptions) (*Comparison, error) {
	ta, err := compareTrials(a, opt.TeamA, opt)
	if err != nil {
		return nil, err
	}
	tb, err := compareTrials(b, opt.TeamB, opt)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return compareValues(ta, tb), nil
}

// compareTrials reads one team's per-trial values of a folder, by letter.
func compareTrials(dir, team string, opt CompareOptions) (*teamTrialValues, error) {
	ed := opt.Edition.orDefault()
	teams, _, err := readTeams(dir, ed, true)
	if err != nil {
		return nil, err
	}
	var pick *TeamFiles
	var names []string
	for i := range teams {
		names = append(names, teams[i].Name)
		if teams[i].Name == team || team == "" && len(teams) == 1 {
			pick = &teams[i]
		}
	}
	if pick == nil {
		if team == "" {
			return nil, &TeamChoiceError{fmt.Sprintf("%s holds %d teams %v: name the one to compare", dir, len(teams), names)}
		}
		return nil, &TeamChoiceError{fmt.Sprintf("%s has no team %q (teams: %v)", dir, team, names)}
	}
	sc := Score([]TeamFiles{*pick}, ScoreOptions{Edition: ed, Trials: opt.Trials})
	v := &teamTrialValues{Team: pick.Name}
	for _, t := range sc.Trials {
		i, err := letterIndex(t.Character)
		if err != nil {
			continue
		}
		sta, sim := t.Stability.Float(), t.Similarity.Float()
		v.Letters[i] = append(v.Letters[i], [3]float64{sta, sim, float64(sta * sim)})
	}
	return v, nil
}

// teamTrialValues are a team's trials per letter: stability, similarity, product.
type teamTrialValues struct {
	Team    string
	Letters [26][][3]float64
}

// column is measure m of every trial.
func column(x [][3]float64, m int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v[m]
	}
	return out
}

// fromStats is B − A as the stats package gives it (c = stats.Compare(B, A) or ComparePaired).
func fromStats(c stats.Comparison, unit string) Interval {
	return Interval{Diff: c.Diff.Mean, Low: c.Diff.Lo, High: c.Diff.Hi, MeanA: c.MeanB, MeanB: c.MeanA,
		Trials: [2]int{c.NB, c.NA}, N: c.NA, Unit: unit, A12: c.A12, P: c.P, Test: c.Test, Method: c.Diff.Method}
}

// compareValues compares two teams' trial values; letters without trials on either side are
// left out.
func compareValues(a, b *teamTrialValues) *Comparison {
	c := &Comparison{TeamA: a.Team, TeamB: b.Team}
	// means[m][0 or 1] are A's and B's letter means of measure m: the overall pairs.
	var means [3][2][]float64
	for i := range a.Letters {
		xa, xb := a.Letters[i], b.Letters[i]
		if len(xa) == 0 || len(xb) == 0 {
			continue
		}
		lc := LetterComparison{Letter: Letters[i : i+1]}
		for m, iv := range lc.measures() {
			va, vb := column(xa, m), column(xb, m)
			*iv = fromStats(stats.Compare(vb, va), CompareLetterUnit)
			means[m][0] = append(means[m][0], stats.Mean(va))
			means[m][1] = append(means[m][1], stats.Mean(vb))
		}
		c.Letters = append(c.Letters, lc)
	}
	// Holm per measure over the letters.
	for m := 0; m < 3; m++ {
		ps := make([]float64, len(c.Letters))
		for k := range c.Letters {
			ps[k] = c.Letters[k].measures()[m].P
		}
		for k, p := range stats.Holm(ps) {
			c.Letters[k].measures()[m].PHolm = p
		}
	}
	c.Overall.Letter = "all"
	var ps []float64
	for m, iv := range c.Overall.measures() {
		*iv = fromStats(stats.ComparePaired(means[m][1], means[m][0]), CompareOverallUnit)
		ps = append(ps, iv.P)
	}
	for m, p := range stats.Holm(ps) {
		c.Overall.measures()[m].PHolm = p
	}
	return c
}
