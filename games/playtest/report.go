package playtest

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"pcgwb/stats"
)

// GeneratorRow is the people's verdict on one generator's levels. Plays are nested in
// participants and levels, so every interval is the two-way cluster bootstrap of the statistics
// layer (participants and levels resampled independently); n is the number of participants.
type GeneratorRow struct {
	Generator    string `json:"generator"`
	Levels       int    `json:"levels"`
	Plays        int    `json:"plays"`
	Participants int    `json:"participants"`
	// Completion is the fraction of plays won.
	Completion Estimate `json:"completion"`
	// WinTime is the mean time in seconds of the plays won; MedianTime their median (with a
	// bootstrap interval over the plays won).
	WinTime    Estimate `json:"win_time"`
	MedianTime Estimate `json:"median_time"`
	// Ratings are the mean answers of the numeric questions (fun, difficulty), and for the
	// others the fraction of the first answer ("yes" to "looks hand-made?"), by question id.
	Ratings map[string]Estimate `json:"ratings"`
	// Answers are each question's distribution: how many plays gave each option, and the
	// median answer of numeric questions.
	Answers map[string]Distribution `json:"answers"`
}

// Distribution is how the answers to one question spread.
type Distribution struct {
	Counts map[string]int `json:"counts"`
	// Median is the median answer of a numeric question (NaN otherwise or without answers).
	Median float64 `json:"median"`
}

// Difference compares two generators on one measure: mean(A) − mean(B) with its two-way
// cluster-bootstrap interval (a participant who played both is drawn for both), and a test
// over the levels, the generators' independent units: Mann–Whitney U over the per-level means,
// its effect size Â12, and the p-value Holm-adjusted over every difference of the report.
type Difference struct {
	A       string   `json:"a"`
	B       string   `json:"b"`
	Measure string   `json:"measure"`
	Diff    Estimate `json:"diff"`
	A12     float64  `json:"a12"`
	P       float64  `json:"p"`
	PHolm   float64  `json:"p_holm"`
	Test    string   `json:"test"`
}

// PositionRow is how plays went at one place of the participants' orders (order and fatigue
// effects): the Latin square puts every level at every place.
type PositionRow struct {
	Position   int      `json:"position"`
	Plays      int      `json:"plays"`
	Completion Estimate `json:"completion"`
	WinTime    Estimate `json:"win_time"`
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
	Players     []string       `json:"participants"`
	Plays       int            `json:"plays"`
	Intake      []Question     `json:"intake,omitempty"`
	Questions   []Question     `json:"questions"`
	Generators  []GeneratorRow `json:"generators"`
	Differences []Difference   `json:"differences"`
	Positions   []PositionRow  `json:"positions"`
	Levels      []LevelRow     `json:"levels"`
	Relations   Relations      `json:"relations"`
	// Records are the plays (plays.csv) and Answers the participants' intake answers by code.
	Records []Record                     `json:"-"`
	Answers map[string]ParticipantRecord `json:"-"`
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

// measure is one per-play measure the report compares: its value, and whether the play has one.
type measure struct {
	name string
	get  func(Record) (float64, bool)
}

// measures are completion, the time of the plays won and each question's answer.
func measures(s *Session) []measure {
	out := []measure{
		{"completion", func(r Record) (float64, bool) { return won(r), true }},
		{"win_time", func(r Record) (float64, bool) { return r.Seconds, won(r) == 1 }},
	}
	for _, q := range s.Questions {
		out = append(out, measure{q.ID, func(r Record) (float64, bool) {
			a, ok := r.Answers[q.ID]
			if !ok {
				return 0, false
			}
			return answerValue(q, a), true
		}})
	}
	return out
}

// observations are a measure's values of rs, each with its participant and level.
func observations(rs []Record, m measure) []stats.Obs {
	var out []stats.Obs
	for _, r := range rs {
		if v, ok := m.get(r); ok {
			out = append(out, stats.Obs{Value: v, Unit: r.Participant, Cross: r.Level})
		}
	}
	return out
}

// clusterMean is the two-way cluster mean of observations (NaN without any).
func clusterMean(obs []stats.Obs) Estimate {
	if len(obs) == 0 {
		return Estimate{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	return fromInterval(stats.ClusterMean(obs))
}

// Compute builds the report of a session (its key: levels with their generators) from its
// records.
func Compute(s *Session, recs []Record) *Report {
	rep := &Report{Plays: len(recs), Intake: s.Intake, Questions: s.Questions, Records: recs}
	players := map[string]bool{}
	byLevel := map[string][]Record{}
	for _, r := range recs {
		players[r.Participant] = true
		byLevel[r.Level] = append(byLevel[r.Level], r)
	}
	for p := range players {
		rep.Players = append(rep.Players, p)
	}
	sort.Strings(rep.Players)

	gens := map[string][]Record{}
	levelsOf := map[string][]string{}
	for _, l := range s.Levels {
		levelsOf[l.Generator] = append(levelsOf[l.Generator], l.Name)
		gens[l.Generator] = append(gens[l.Generator], byLevel[l.Name]...)
	}
	var names []string
	for g := range levelsOf {
		names = append(names, g)
	}
	sort.Strings(names)
	ms := measures(s)
	for _, g := range names {
		rs := gens[g]
		who := map[string]bool{}
		for _, r := range rs {
			who[r.Participant] = true
		}
		row := GeneratorRow{Generator: g, Levels: len(levelsOf[g]), Plays: len(rs), Participants: len(who),
			Ratings: map[string]Estimate{}, Answers: map[string]Distribution{}}
		row.Completion = clusterMean(observations(rs, ms[0]))
		row.WinTime = clusterMean(observations(rs, ms[1]))
		row.MedianTime = MedianCI(wonTimes(rs))
		for i, q := range s.Questions {
			row.Ratings[q.ID] = clusterMean(observations(rs, ms[2+i]))
			row.Answers[q.ID] = distribution(q, rs)
		}
		rep.Generators = append(rep.Generators, row)
	}
	rep.Differences = differences(names, gens, levelsOf, ms)
	rep.Positions = positions(recs, ms)

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
		PlayableCompletion:   clusterMean(observations(playable, ms[0])),
		UnplayableCompletion: clusterMean(observations(unplayable, ms[0])),
		SolverVsTime:         SpearmanCI(solver, times),
		QualityVsCompletion:  SpearmanCI(quality, rate),
	}
	return rep
}

// differences compares every pair of generators on every measure; p-values are Holm-adjusted
// over the whole family.
func differences(names []string, gens map[string][]Record, levelsOf map[string][]string, ms []measure) []Difference {
	var out []Difference
	var ps []float64
	for i := 0; i < len(names); i++ {
		for j := i + 1; j < len(names); j++ {
			a, b := names[i], names[j]
			for _, m := range ms {
				oa, ob := observations(gens[a], m), observations(gens[b], m)
				d := Difference{A: a, B: b, Measure: m.name, A12: math.NaN(), P: math.NaN(), PHolm: math.NaN()}
				if len(oa) == 0 || len(ob) == 0 {
					d.Diff = Estimate{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
				} else {
					d.Diff = fromInterval(stats.ClusterDiff(oa, ob))
					la, lb := levelMeans(oa), levelMeans(ob)
					t := stats.MannWhitney(la, lb)
					d.A12, d.P, d.Test = stats.A12(la, lb), t.P, "Mann–Whitney U over the per-level means ("+t.Method+")"
				}
				out = append(out, d)
				ps = append(ps, d.P)
			}
		}
	}
	for i, p := range stats.Holm(ps) {
		out[i].PHolm = p
	}
	return out
}

// levelMeans are the mean value of each level (the Cross) of obs, in level order.
func levelMeans(obs []stats.Obs) []float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, o := range obs {
		sum[o.Cross] += o.Value
		n[o.Cross]++
	}
	var keys []string
	for k := range sum {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]float64, len(keys))
	for i, k := range keys {
		out[i] = sum[k] / float64(n[k])
	}
	return out
}

// positions are completion and time to win by place in the participants' orders.
func positions(recs []Record, ms []measure) []PositionRow {
	by := map[int][]Record{}
	last := 0
	for _, r := range recs {
		if r.Position > 0 {
			by[r.Position] = append(by[r.Position], r)
			last = max(last, r.Position)
		}
	}
	var out []PositionRow
	for p := 1; p <= last; p++ {
		rs := by[p]
		out = append(out, PositionRow{Position: p, Plays: len(rs),
			Completion: clusterMean(observations(rs, ms[0])), WinTime: clusterMean(observations(rs, ms[1]))})
	}
	return out
}

// distribution counts the answers to q and takes the median of a numeric question.
func distribution(q Question, rs []Record) Distribution {
	d := Distribution{Counts: map[string]int{}, Median: math.NaN()}
	for _, o := range q.Options {
		d.Counts[o] = 0
	}
	var vals []float64
	for _, r := range rs {
		if a, ok := r.Answers[q.ID]; ok {
			d.Counts[a]++
			vals = append(vals, answerValue(q, a))
		}
	}
	if numeric(q) {
		d.Median = Median(vals)
	}
	return d
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
