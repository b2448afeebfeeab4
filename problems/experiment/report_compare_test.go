package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pcgwb/stats"
)

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// report --compare, --latex and --format over goldenRuns' folder: differences.csv has exactly
// its columns and the hand-computed values, runs.csv one row per run, the figures every format.
func TestReportCompareRunsLatexFormats(t *testing.T) {
	root := goldenRuns(t, nil)
	figs := t.TempDir()
	res, err := ReportWith(context.Background(), root, figs, ReportOptions{Formats: []string{"png", "svg", "pdf"}, Compare: true, LaTeX: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(root, "differences.csv"))
	if strings.Join(rows[0], ",") != "problem,fitness,metric,group_a,group_b,n_a,n_b,mean_a,mean_b,diff,ci_low,ci_high,a12,p,p_holm" {
		t.Fatalf("differences.csv header %v", rows[0])
	}
	// two problems × one pair (random, ga) × four metrics
	if len(rows) != 1+2*4 {
		t.Fatalf("%d rows", len(rows)-1)
	}
	want := map[string][]string{
		// binary: random's best 0.375, 0.4, 0.425 against ga's 0.925, 0.95, 0.975: all below,
		// so A12 = 0 and the exact p is 2 of C(6, 3) = 20 arrangements; a family of one.
		"binary-v0 best_fitness": {"binary-v0", "quality", "best_fitness", "random", "ga", "3", "3", "0.4000", "0.9500", "-0.5500", "", "", "0.0000", "0.1", "0.1"},
		// feasible shares 0, .1, .2 against .5, .7, .9.
		"binary-v0 feasible_share": {"binary-v0", "quality", "feasible_share", "random", "ga", "3", "3", "0.1000", "0.7000", "-0.6000", "", "", "0.0000", "0.1", "0.1"},
		// zelda: ga's third seed is unfinished: n_b = 2, exact p = 2 of C(5, 2) = 10.
		"zelda-v0 best_fitness": {"zelda-v0", "quality", "best_fitness", "random", "ga", "3", "2", "0.3200", "0.8575", "-0.5375", "", "", "0.0000", "0.2", "0.2"},
	}
	for _, r := range rows[1:] {
		w, ok := want[r[0]+" "+r[2]]
		if !ok {
			continue
		}
		delete(want, r[0]+" "+r[2])
		for i, c := range w {
			if c != "" && r[i] != c {
				t.Errorf("%s %s: %s = %q, want %q", r[0], r[2], rows[0][i], r[i], c)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing: %v", want)
	}
	for _, d := range res.Differences {
		if d.Diff.Lo > d.Diff.Mean || d.Diff.Hi < d.Diff.Mean || d.Diff.TooFew() {
			t.Errorf("%s %s: interval %+v", d.Problem, d.Metric, d.Diff)
		}
	}
	md, err := os.ReadFile(filepath.Join(root, "differences.md"))
	if err != nil || !strings.Contains(string(md), "| problem | fitness | metric | group_a |") || !strings.Contains(string(md), "Unit: one finished run") {
		t.Errorf("differences.md: %v\n%s", err, md)
	}

	runs := readCSV(t, filepath.Join(root, "runs.csv"))
	if len(runs) != 1+12 {
		t.Fatalf("runs.csv has %d rows for 12 runs", len(runs)-1)
	}
	col := func(name string) int {
		i := slices.Index(runs[0], name)
		if i < 0 {
			t.Fatalf("runs.csv has no %s column: %v", name, runs[0])
		}
		return i
	}
	for _, name := range []string{"dir", "problem", "generator", "seed", "pop_size", "mut_rate", "best_fitness", "feasible_share"} {
		col(name)
	}
	unfinished := 0
	for _, r := range runs[1:] {
		if r[col("finished")] == "false" {
			unfinished++
			if r[col("problem")] != "zelda-v0" || r[col("generator")] != "ga" || r[col("seed")] != "3" || r[col("best_fitness")] != "" {
				t.Errorf("unfinished row %v", r)
			}
		}
	}
	if unfinished != 1 {
		t.Errorf("%d unfinished rows, want 1", unfinished)
	}

	for _, name := range []string{"summary.tex", "differences.tex"} {
		tex, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || !bytes.Contains(tex, []byte(`\begin{tabular}`)) || !bytes.Contains(tex, []byte(`\bottomrule`)) {
			t.Errorf("%s: %v", name, err)
		}
		if bytes.Contains(tex, []byte("e_share")) {
			t.Errorf("%s: an unescaped underscore", name)
		}
	}
	magic := map[string]string{".png": "\x89PNG", ".svg": "<?xml", ".pdf": "%PDF"}
	for _, base := range []string{"fitness-binary-v0-quality", "fitness-quality", "counts-quality"} {
		for ext, m := range magic {
			data, err := os.ReadFile(filepath.Join(figs, base+ext))
			if err != nil || !bytes.HasPrefix(data, []byte(m)) {
				t.Errorf("%s%s: %v", base, ext, err)
			}
			if !slices.Contains(res.Figures, filepath.Join(figs, base+ext)) {
				t.Errorf("%s%s not listed", base, ext)
			}
		}
	}
	if _, err := ReportWith(context.Background(), root, figs, ReportOptions{Formats: []string{"gif"}}); err == nil {
		t.Error("an unknown format was accepted")
	}
}

// Holm's family is a problem, fitness and metric's pairs: three groups make three pairs.
func TestDifferencesHolmFamily(t *testing.T) {
	var runs []*Record
	for gi, gen := range []string{"random", "es", "ga"} {
		for seed := uint64(1); seed <= 4; seed++ {
			runs = append(runs, fakeRun(gen, seed, "", 0.2*float64(gi)+0.01*float64(seed)))
		}
	}
	diffs := Differences(Groups(runs))
	if len(diffs) != 3*len(Metrics()) {
		t.Fatalf("%d rows", len(diffs))
	}
	var ps []float64
	var best []Difference
	for _, d := range diffs {
		if d.Metric == MetricBest {
			ps = append(ps, d.P)
			best = append(best, d)
		}
	}
	for i, p := range stats.Holm(ps) {
		if math.Abs(best[i].PHolm-p) > 1e-15 || best[i].PHolm < best[i].P {
			t.Errorf("%s vs %s: p_holm %v, want %v", best[i].GroupA, best[i].GroupB, best[i].PHolm, p)
		}
	}
	// 4 against 4, separated: exact p = 2/70, times 3 by Holm.
	if math.Abs(best[0].P-2.0/70) > 1e-12 || math.Abs(best[0].PHolm-6.0/70) > 1e-12 {
		t.Errorf("p %v, p_holm %v", best[0].P, best[0].PHolm)
	}
	s := best[0].Swap()
	if s.GroupA != best[0].GroupB || s.A12 != 1-best[0].A12 || s.Diff.Mean != -best[0].Diff.Mean || s.Diff.Lo != -best[0].Diff.Hi {
		t.Errorf("Swap %+v of %+v", s, best[0])
	}
}

func TestGroupLabelsTellGroupsApart(t *testing.T) {
	a := fakeRun("llm", 1, `{"model":"m1","seed":1}`, 0.5)
	b := fakeRun("llm", 1, `{"model":"m2","seed":1}`, 0.5)
	c := fakeRun("ga", 1, "", 0.5)
	labels := GroupLabels(Groups([]*Record{a, b, c}))
	if !slices.Equal(labels, []string{"ga", "llm (m1)", "llm (m2)"}) && !slices.Equal(labels, []string{"llm (m1)", "llm (m2)", "ga"}) {
		t.Errorf("labels %v", labels)
	}
}

func TestPairDifferencesAreTheTableRows(t *testing.T) {
	var runs []*Record
	for gi, gen := range []string{"random", "es", "ga"} {
		for seed := uint64(1); seed <= 3; seed++ {
			runs = append(runs, fakeRun(gen, seed, "", 0.2*float64(gi)+0.01*float64(seed)))
		}
	}
	groups := Groups(runs)
	all := Differences(groups)
	got := PairDifferences(groups, 2, 0) // ga against random: the table's random–ga rows, swapped
	if len(got) != len(Metrics()) {
		t.Fatalf("%d rows", len(got))
	}
	for _, d := range got {
		i := slices.IndexFunc(all, func(o Difference) bool { return o.Metric == d.Metric && o.GroupA == d.GroupB && o.GroupB == d.GroupA })
		if i < 0 || all[i].PHolm != d.PHolm || all[i].Swap().Diff != d.Diff || d.GroupA != "ga" {
			t.Errorf("%+v not the table's row swapped", d)
		}
	}
	if PairDifferences(groups, 1, 1) != nil {
		t.Error("a group against itself")
	}
}
