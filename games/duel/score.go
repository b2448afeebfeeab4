package duel

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Interval is a rate with its 95% interval and the number of games behind it.
type Interval struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

func (iv Interval) String() string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f] over %d games", 100*iv.Rate, 100*iv.Lo, 100*iv.Hi, iv.N)
}

// WinRateInterval is the model's win rate on this game (WinRate, or StrictWinRate when
// strict) with its 95% Wilson interval.
func (r *EvalResult) WinRateInterval(strict bool) (Interval, bool) {
	rate, ok := r.WinRate()
	n := r.LLMWins + r.AgentWins + r.Draws + r.EnvFaults + r.Truncated
	if strict {
		rate, ok = r.StrictWinRate()
		n = r.LLMWins + r.AgentWins + r.Draws + r.Truncated + r.LLMFaults + r.AgentFaults
	}
	if !ok {
		return Interval{}, false
	}
	lo, hi := Wilson(rate, n)
	return Interval{Rate: rate, Lo: lo, Hi: hi, N: n}, true
}

// Range is the score's 95% interval, clipped to [0, 1].
func (s BenchScore) Range() (lo, hi float64) {
	return max(0, s.Mean-s.CI95), min(1, s.Mean+s.CI95)
}

// Comparison is the difference between two models' scores over the games both were evaluated
// on: the mean of the per-game differences of win rate, with the half width of its 95%
// interval (1.96 s / sqrt(n), paired by game as Score does over games).
type Comparison struct {
	A     string   `json:"a"`
	B     string   `json:"b"`
	Diff  float64  `json:"diff"`
	CI95  float64  `json:"ci95"`
	Games []string `json:"games"`
}

func (c Comparison) String() string {
	return fmt.Sprintf("%s − %s: %+.2f ± %.2f points over %d common games", c.A, c.B, 100*c.Diff, 100*c.CI95, len(c.Games))
}

// Significant reports whether the interval excludes zero.
func (c Comparison) Significant() bool { return math.Abs(c.Diff) > c.CI95 }

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
	var diffs []float64
	for g := range ra {
		if _, ok := rb[g]; ok {
			c.Games = append(c.Games, g)
		}
	}
	sort.Strings(c.Games)
	for _, g := range c.Games {
		diffs = append(diffs, ra[g]-rb[g])
	}
	if len(diffs) == 0 {
		return c, errors.New("the two models share no scored game")
	}
	for _, d := range diffs {
		c.Diff += d
	}
	c.Diff /= float64(len(diffs))
	if len(diffs) > 1 {
		ss := 0.0
		for _, d := range diffs {
			ss += (d - c.Diff) * (d - c.Diff)
		}
		c.CI95 = 1.96 * math.Sqrt(ss/float64(len(diffs)-1)) / math.Sqrt(float64(len(diffs)))
	} else {
		c.CI95 = 2 // one game says nothing about the spread: the interval is the whole range
	}
	return c, nil
}
