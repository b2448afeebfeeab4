package llmplay

import (
	"errors"
	"fmt"
	"pcgwb/games/duel"
	"sort"

	"pcgwb/stats"
)

// WinRateInterval is the model's win rate on this game (WinRate, or StrictWinRate when
// strict) with its 95% Wilson interval.
func (r *EvalResult) WinRateInterval(strict bool) (duel.Interval, bool) {
	rate, ok := r.WinRate()
	n := r.LLMWins + r.AgentWins + r.Draws + r.EnvFaults + r.Truncated
	if strict {
		rate, ok = r.StrictWinRate()
		n = r.LLMWins + r.AgentWins + r.Draws + r.Truncated + r.LLMFaults + r.AgentFaults
	}
	if !ok {
		return duel.Interval{}, false
	}
	iv := stats.Wilson(r.LLMWins, n)
	return duel.Interval{Rate: rate, Lo: iv.Lo, Hi: iv.Hi, N: n}, true
}

// Range is the score's 95% interval, clipped to [0, 1].
func (s BenchScore) Range() (lo, hi float64) {
	return max(0, s.Mean-s.CI95), min(1, s.Mean+s.CI95)
}

// Comparison is the difference between two models' scores over the games both were evaluated
// on: the mean of the per-game differences of win rate, with its 95% paired bootstrap interval
// [Lo, Hi] (games resampled with replacement, stats.PairedDiff); CI95 is the larger distance
// from Diff to an end of the interval.
type Comparison struct {
	A     string   `json:"a"`
	B     string   `json:"b"`
	Diff  float64  `json:"diff"`
	Lo    float64  `json:"lo"`
	Hi    float64  `json:"hi"`
	CI95  float64  `json:"ci95"`
	Games []string `json:"games"`
}

func (c Comparison) String() string {
	return fmt.Sprintf("%s − %s: %+.2f points, 95%% interval [%+.2f, %+.2f] (paired bootstrap) over %d common games",
		c.A, c.B, 100*c.Diff, 100*c.Lo, 100*c.Hi, len(c.Games))
}

// Significant reports whether the interval excludes zero.
func (c Comparison) Significant() bool { return c.Lo > 0 || c.Hi < 0 }

// Compare sets two models' results side by side, game by game (the last result of a game
// counts when a model has several).
func Compare(a, b []*EvalResult, strict bool) (Comparison, error) {
	if len(a) == 0 || len(b) == 0 {
		return Comparison{}, errors.New("a comparison needs results of two models")
	}
	rates := func(rs []*EvalResult) map[string]float64 {
		m := map[string]float64{}
		for _, r := range rs {
			rate, ok := r.WinRate()
			if strict {
				rate, ok = r.StrictWinRate()
			}
			if ok {
				m[r.Game] = rate
			}
		}
		return m
	}
	ra, rb := rates(a), rates(b)
	c := Comparison{A: a[0].Model, B: b[0].Model}
	for g := range ra {
		if _, ok := rb[g]; ok {
			c.Games = append(c.Games, g)
		}
	}
	sort.Strings(c.Games)
	var xa, xb []float64
	for _, g := range c.Games {
		xa, xb = append(xa, ra[g]), append(xb, rb[g])
	}
	if len(xa) == 0 {
		return c, errors.New("the two models share no scored game")
	}
	iv := stats.PairedDiff(xa, xb)
	c.Diff, c.Lo, c.Hi = iv.Mean, iv.Lo, iv.Hi
	if iv.TooFew() { // one game says nothing about the spread: the interval is the whole range
		c.Lo, c.Hi = -1, 1
	}
	c.CI95 = max(c.Diff-c.Lo, c.Hi-c.Diff)
	return c, nil
}
