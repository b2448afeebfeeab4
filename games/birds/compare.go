package birds

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
)

// Comparing two prompts: each evaluated in its own competition folder, their trials are
// compared letter by letter — stability, similarity and their product (the trial score before
// the letter weights, which depend on the other teams of a folder) — with bootstrap 95 %
// intervals over the trials.

// CompareOptions configure CompareFolders.
type CompareOptions struct {
	Edition Edition
	// TeamA and TeamB pick the team of each folder; empty means the folder's only team.
	TeamA, TeamB string
	// Trials per letter as run (0: the competition's 10); missing trials count as 0.
	Trials int
	// Resamples of the bootstrap (0: 2000) and its seed.
	Resamples int
	Seed      uint64
}

// Interval is a difference B − A with its bootstrap 95 % percentile interval.
type Interval struct {
	Diff   float64 `json:"diff"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	MeanA  float64 `json:"meanA"`
	MeanB  float64 `json:"meanB"`
	Trials [2]int  `json:"trials"`
}

// LetterComparison is one letter's differences.
type LetterComparison struct {
	Letter     string   `json:"letter"`
	Stability  Interval `json:"stability"`
	Similarity Interval `json:"similarity"`
	Score      Interval `json:"score"` // stability × similarity per trial
}

// Comparison is CompareFolders' result: per letter, and overall (mean over letters).
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
	return compareValues(ta, tb, opt), nil
}

// compareTrials reads one team's per-trial values of a folder, by letter.
func compareTrials(dir, team string, opt CompareOptions) (*teamTrialValues, error) {
	ed := opt.Edition
	if ed == 0 {
		ed = Edition2024
	}
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

// compareValues compares two teams' trial values; letters without trials on either side are
// left out.
func compareValues(a, b *teamTrialValues, opt CompareOptions) *Comparison {
	resamples := opt.Resamples
	if resamples <= 0 {
		resamples = 2000
	}
	r := rand.New(rand.NewPCG(opt.Seed, 0x6a09e667f3bcc909))
	c := &Comparison{TeamA: a.Team, TeamB: b.Team}
	var used []int
	for i := range a.Letters {
		if len(a.Letters[i]) > 0 && len(b.Letters[i]) > 0 {
			used = append(used, i)
		}
	}
	// boot[k][m] is resample k's overall difference of metric m; per letter likewise.
	overall := make([][3]float64, resamples)
	for _, i := range used {
		xa, xb := a.Letters[i], b.Letters[i]
		lc := LetterComparison{Letter: Letters[i : i+1]}
		ma, mb := means(xa), means(xb)
		diffs := make([][3]float64, resamples)
		for k := range diffs {
			ra, rb := resampleMeans(r, xa), resampleMeans(r, xb)
			for m := 0; m < 3; m++ {
				diffs[k][m] = rb[m] - ra[m]
				overall[k][m] += (rb[m] - ra[m]) / float64(len(used))
			}
		}
		for m, iv := range []*Interval{&lc.Stability, &lc.Similarity, &lc.Score} {
			*iv = interval(ma[m], mb[m], diffs, m)
			iv.Trials = [2]int{len(xa), len(xb)}
		}
		c.Letters = append(c.Letters, lc)
	}
	c.Overall.Letter = "all"
	for m, iv := range []*Interval{&c.Overall.Stability, &c.Overall.Similarity, &c.Overall.Score} {
		var sa, sb float64
		for _, lc := range c.Letters {
			l := [...]Interval{lc.Stability, lc.Similarity, lc.Score}[m]
			sa += l.MeanA
			sb += l.MeanB
		}
		n := float64(max(len(c.Letters), 1))
		*iv = interval(sa/n, sb/n, overall, m)
		iv.Trials = [2]int{len(used), len(used)}
	}
	return c
}

func means(x [][3]float64) [3]float64 {
	var s [3]float64
	for _, v := range x {
		for m := range s {
			s[m] += v[m]
		}
	}
	for m := range s {
		s[m] /= float64(max(len(x), 1))
	}
	return s
}

func resampleMeans(r *rand.Rand, x [][3]float64) [3]float64 {
	var s [3]float64
	for range x {
		v := x[r.IntN(len(x))]
		for m := range s {
			s[m] += v[m]
		}
	}
	for m := range s {
		s[m] /= float64(len(x))
	}
	return s
}

// interval is the difference of the means with the 2.5 and 97.5 percentiles of the resamples.
func interval(ma, mb float64, boot [][3]float64, m int) Interval {
	v := make([]float64, len(boot))
	for k := range boot {
		v[k] = boot[k][m]
	}
	sort.Float64s(v)
	iv := Interval{Diff: mb - ma, MeanA: ma, MeanB: mb}
	if len(v) > 0 {
		iv.Low, iv.High = v[int(0.025*float64(len(v)-1))], v[int(float64(0.975*float64(len(v)-1))+0.5)]
	}
	return iv
}
