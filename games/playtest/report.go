package playtest

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// GeneratorRow is the people's verdict on one generator's levels.
type GeneratorRow struct {
	Generator string `json:"generator"`
	Levels    int    `json:"levels"`
	// Completion is the fraction of plays won (n = plays).
	Completion Estimate `json:"completion"`
	// MedianTime is the median time in seconds of the plays won (n = plays won).
	MedianTime Estimate `json:"median_time"`
	// Ratings are the mean answers of the numeric questions (fun, difficulty), and for the
	// others the fraction of the first answer ("yes" to "looks hand-made?"), by question id.
	Ratings map[string]Estimate `json:"ratings"`
}

// LevelRow is one level's line of the per-level table.
type LevelRow struct {
	Level
	Plays      int                `json:"plays"`
	Won        int                `json:"won"`
	MedianTime float64            `json:"median_time"`
	Ratings    map[string]float64 `json:"ratings"`
}

// Relations compare the people with the benchmark's metrics.
type Relations struct {
	// Completion of the plays of levels the benchmark calls playable (quality 1), and of the
	// others.
	PlayableCompletion   Estimate `json:"playable_completion"`
	UnplayableCompletion Estimate `json:"unplayable_completion"`
	// SolverVsTime is the rank correlation, over levels won at least once that have a recorded
	// solution, of the solver's path length and the median human time to win.
	SolverVsTime Estimate `json:"solver_vs_time"`
	// QualityVsCompletion is the rank correlation over levels of quality and completion rate.
	QualityVsCompletion Estimate `json:"quality_vs_completion"`
}

// Report is what `workbench playtest report` shows.
type Report struct {
	Players    []string       `json:"players"`
	Plays      int            `json:"plays"`
	Questions  []Question     `json:"questions"`
	Generators []GeneratorRow `json:"generators"`
	Levels     []LevelRow     `json:"levels"`
	Relations  Relations      `json:"relations"`
}

// numeric reports whether every option of q is a number.
func numeric(q Question) bool {
	for _, o := range q.Options {
		if _, err := strconv.ParseFloat(o, 64); err != nil {
			return false
		}
	}
	return true
}

// answerValue is an answer as a number: the number for numeric questions, 1 for the first
// option and 0 for the others otherwise.
func answerValue(q Question, a string) float64 {
	if numeric(q) {
		v, _ := strconv.ParseFloat(a, 64)
		return v
	}
	if a == q.Options[0] {
		return 1
	}
	return 0
}

func won(r Record) float64 {
	if r.Result == "won" {
		return 1
	}
	return 0
}

// Compute builds the report of a session from its records.
func Compute(s *Session, recs []Record) *Report {
	rep := &Report{Plays: len(recs), Questions: s.Questions}
	players := map[string]bool{}
	byLevel := map[string][]Record{}
	for _, r := range recs {
		players[r.Player] = true
		byLevel[r.Level] = append(byLevel[r.Level], r)
	}
	for p := range players {
		rep.Players = append(rep.Players, p)
	}
	sort.Strings(rep.Players)

	gens := map[string][]Record{}
	levelsOf := map[string]int{}
	for _, l := range s.Levels {
		levelsOf[l.Generator]++
		gens[l.Generator] = append(gens[l.Generator], byLevel[l.Name]...)
	}
	var names []string
	for g := range levelsOf {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		rs := gens[g]
		row := GeneratorRow{Generator: g, Levels: levelsOf[g], Ratings: map[string]Estimate{}}
		row.Completion = completion(rs)
		row.MedianTime = MedianCI(wonTimes(rs))
		for _, q := range s.Questions {
			row.Ratings[q.ID] = MeanCI(answers(q, rs))
		}
		rep.Generators = append(rep.Generators, row)
	}

	var playable, unplayable []Record
	var solver, times, quality, rate []float64
	for _, l := range s.Levels {
		rs := byLevel[l.Name]
		row := LevelRow{Level: l, Plays: len(rs), MedianTime: Median(wonTimes(rs)), Ratings: map[string]float64{}}
		for _, r := range rs {
			row.Won += int(won(r))
		}
		for _, q := range s.Questions {
			row.Ratings[q.ID] = Mean(answers(q, rs))
		}
		rep.Levels = append(rep.Levels, row)
		if l.Playable {
			playable = append(playable, rs...)
		} else {
			unplayable = append(unplayable, rs...)
		}
		if l.SolverMoves > 0 && row.Won > 0 {
			solver = append(solver, float64(l.SolverMoves))
			times = append(times, row.MedianTime)
		}
		if len(rs) > 0 {
			quality = append(quality, l.Quality)
			rate = append(rate, float64(row.Won)/float64(len(rs)))
		}
	}
	rep.Relations = Relations{
		PlayableCompletion:   completion(playable),
		UnplayableCompletion: completion(unplayable),
		SolverVsTime:         SpearmanCI(solver, times),
		QualityVsCompletion:  SpearmanCI(quality, rate),
	}
	return rep
}

func completion(rs []Record) Estimate {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = won(r)
	}
	return MeanCI(xs)
}

func wonTimes(rs []Record) []float64 {
	var out []float64
	for _, r := range rs {
		if won(r) == 1 {
			out = append(out, r.Seconds)
		}
	}
	return out
}

// answers are the answers to q as numbers (records without one are left out).
func answers(q Question, rs []Record) []float64 {
	var out []float64
	for _, r := range rs {
		if a, ok := r.Answers[q.ID]; ok {
			out = append(out, answerValue(q, a))
		}
	}
	return out
}

// Text formats an estimate: "0.75 [0.50, 1.00] n=4", "– n=0" without observations.
func (e Estimate) Text() string {
	if math.IsNaN(e.Value) {
		return fmt.Sprintf("– n=%d", e.N)
	}
	if math.IsNaN(e.Lo) {
		return fmt.Sprintf("%.2f n=%d", e.Value, e.N)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f] n=%d", e.Value, e.Lo, e.Hi, e.N)
}
