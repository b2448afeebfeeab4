package experiment

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/stats"
)

// The metrics compared between groups, in the order of differences.csv: the final best
// fitness and the feasible, unique and controlled shares of the levels each run produced.
const (
	MetricBest       = "best_fitness"
	MetricFeasible   = "feasible_share"
	MetricUnique     = "unique_share"
	MetricControlled = "controlled_share"
)

// Metrics lists the compared metrics.
func Metrics() []string { return []string{MetricBest, MetricFeasible, MetricUnique, MetricControlled} }

// MetricValues are a metric's values over the group's finished runs, one per seed (the unit
// of every comparison): the final best fitness, or a share of the final population (runs
// with an empty population have no share).
func (g *Group) MetricValues(metric string) []float64 {
	var out []float64
	for _, r := range g.Runs {
		if !r.Finished() {
			continue
		}
		f := r.Final
		if metric == MetricBest {
			out = append(out, f.BestFitness)
			continue
		}
		if f.Size <= 0 {
			continue
		}
		k := map[string]int{MetricFeasible: f.Feasible, MetricUnique: f.Unique, MetricControlled: f.Controlled}[metric]
		out = append(out, float64(k)/float64(f.Size))
	}
	return out
}

// Difference is one row of differences.csv: two groups of the same problem and fitness
// compared on one metric over their finished runs (the unit: one run, one seed). Diff is
// mean_a − mean_b with its bootstrap interval, A12 the Vargha–Delaney effect size of a over b,
// P the Mann–Whitney U test's two-sided p and PHolm that p corrected by Holm's method over the
// family of the table's comparisons of the same problem, fitness and metric.
type Difference struct {
	Problem, Fitness, Metric string
	GroupA, GroupB           string
	stats.Comparison
	PHolm float64
	// a and b are the groups' indices in the slice given to Differences.
	a, b int
}

// Swap is the same comparison read the other way (b against a).
func (d Difference) Swap() Difference {
	s := d
	s.GroupA, s.GroupB = d.GroupB, d.GroupA
	s.NA, s.NB, s.MeanA, s.MeanB = d.NB, d.NA, d.MeanB, d.MeanA
	s.Diff.Mean, s.Diff.Lo, s.Diff.Hi = -d.Diff.Mean, -d.Diff.Hi, -d.Diff.Lo
	s.A12 = 1 - d.A12
	s.a, s.b = d.b, d.a
	return s
}

// GroupLabels names each group in tables: its generator, and where another group of the same
// problem, fitness and generator exists, what tells them apart (the model, the population
// and generations, else a number).
func GroupLabels(groups []Group) []string {
	labels := make([]string, len(groups))
	clash := func(level int) {
		seen := map[string]int{}
		for i, g := range groups {
			seen[g.Problem+"\x00"+g.Fitness+"\x00"+labels[i]]++
		}
		for i, g := range groups {
			if seen[g.Problem+"\x00"+g.Fitness+"\x00"+labels[i]] < 2 {
				continue
			}
			switch level {
			case 0:
				if m := g.Model(); m != "" {
					labels[i] += " (" + m + ")"
				}
			case 1:
				labels[i] += fmt.Sprintf(" pop %d, %d gens", g.PopSize, g.Generations)
			default:
				labels[i] += fmt.Sprintf(" #%d", i+1)
			}
		}
	}
	for i, g := range groups {
		labels[i] = g.Generator
	}
	for level := range 3 {
		clash(level)
	}
	return labels
}

// Model is the language model of an LLM group's settings ("" for others).
func (g *Group) Model() string {
	if len(g.Runs) == 0 || len(g.Runs[0].Config.Settings) == 0 {
		return ""
	}
	var s struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(g.Runs[0].Config.Settings, &s)
	return s.Model
}

// Differences compares every pair of groups that share a problem and fitness on every metric
// (the earlier group in Groups' order is a), with Holm's correction over each problem,
// fitness and metric's comparisons.
func Differences(groups []Group) []Difference {
	labels := GroupLabels(groups)
	var out []Difference
	family := map[string][]int{}
	var order []string
	for i := range groups {
		for j := i + 1; j < len(groups); j++ {
			a, b := &groups[i], &groups[j]
			if a.Problem != b.Problem || a.Fitness != b.Fitness {
				continue
			}
			for _, m := range Metrics() {
				d := Difference{Problem: a.Problem, Fitness: a.Fitness, Metric: m, GroupA: labels[i], GroupB: labels[j],
					Comparison: stats.Compare(a.MetricValues(m), b.MetricValues(m)), a: i, b: j}
				k := a.Problem + "\x00" + a.Fitness + "\x00" + m
				if _, ok := family[k]; !ok {
					order = append(order, k)
				}
				family[k] = append(family[k], len(out))
				out = append(out, d)
			}
		}
	}
	for _, k := range order {
		idx := family[k]
		ps := make([]float64, len(idx))
		for n, i := range idx {
			ps[n] = out[i].P
		}
		for n, p := range stats.Holm(ps) {
			out[idx[n]].PHolm = p
		}
	}
	return out
}

// PairDifferences are Differences' rows for groups i and j (one per metric, group i as a,
// with Holm's correction over the whole family as in Differences, so they are the rows
// differences.csv holds), or nil when the two do not share a problem and fitness.
func PairDifferences(groups []Group, i, j int) []Difference {
	var out []Difference
	for _, d := range Differences(groups) {
		switch {
		case d.a == i && d.b == j:
			out = append(out, d)
		case d.a == j && d.b == i:
			out = append(out, d.Swap())
		}
	}
	return out
}

// DifferenceColumns are the columns of differences.csv, exactly.
var DifferenceColumns = []string{"problem", "fitness", "metric", "group_a", "group_b", "n_a", "n_b", "mean_a", "mean_b",
	"diff", "ci_low", "ci_high", "a12", "p", "p_holm"}

// Cells are the row's cells in DifferenceColumns' order (numbers with four decimals, p-values
// with four significant digits; no value is an empty cell).
func (d Difference) Cells() []string {
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	p := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return []string{d.Problem, d.Fitness, d.Metric, d.GroupA, d.GroupB, strconv.Itoa(d.NA), strconv.Itoa(d.NB),
		f(d.MeanA), f(d.MeanB), f(d.Diff.Mean), f(d.Diff.Lo), f(d.Diff.Hi), f(d.A12), p(d.P), p(d.PHolm)}
}

// DifferencesMethod is the statement every difference table carries: the unit, the size, the
// direction of the difference and the methods.
const DifferencesMethod = "Unit: one finished run (one seed); n_a and n_b count them (n = seeds per group). " +
	"diff = mean_a − mean_b, with ci_low–ci_high its 95% percentile-bootstrap interval (groups resampled independently, 2000 resamples); " +
	"a12 is the Vargha–Delaney effect size of a over b (0.5: no difference; 0.56 / 0.64 / 0.71 small / medium / large); " +
	"p is the two-sided Mann–Whitney U test (exact for groups of at most 50 without ties, else the normal approximation with tie correction); " +
	"p_holm is p after Holm's correction over the comparisons of the same problem, fitness and metric. " +
	"With fewer than about 10 seeds in a group the bootstrap interval undercovers: judge a difference by p, read the interval as descriptive. " +
	"Shares are of the levels each run produced (its final population). See docs/statistics.md."

// writeDifferences writes differences.csv and differences.md into dir.
func writeDifferences(dir string, diffs []Difference) (csvPath, mdPath string, err error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(DifferenceColumns)
	for _, d := range diffs {
		_ = w.Write(d.Cells())
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return "", "", err
	}
	csvPath, mdPath = filepath.Join(dir, "differences.csv"), filepath.Join(dir, "differences.md")
	if err := atomicfile.Write(csvPath, buf.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	var md strings.Builder
	md.WriteString("# Differences between groups\n\n")
	md.WriteString(DifferencesMethod + "\n\n")
	if len(diffs) == 0 {
		md.WriteString("No two groups share a problem and fitness: nothing to compare.\n")
	} else {
		md.WriteString("| " + strings.Join(DifferenceColumns, " | ") + " |\n")
		md.WriteString("|" + strings.Repeat("---|", len(DifferenceColumns)) + "\n")
		for _, d := range diffs {
			cells := d.Cells()
			for i, c := range cells {
				cells[i] = strings.ReplaceAll(c, "|", "\\|")
			}
			md.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}
	if err := atomicfile.Write(mdPath, []byte(md.String()), 0o644); err != nil {
		return "", "", err
	}
	return csvPath, mdPath, nil
}
