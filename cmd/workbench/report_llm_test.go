package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pcgwb/llm"
	"pcgwb/problems"
)

// Three seeds of ga and three of llm-ga on zelda-v0 against a local fake model: `report
// --compare` shows one row each with intervals (llm.seed does not split the llm-ga runs), and
// their difference with A12 and p; --format and --latex write their files.
func TestReportCompareGAWithLLMGA(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	srv := knownEditServer(t, "zelda-v0", p)
	root := filepath.Join(t.TempDir(), "runs")
	cache := filepath.Join(t.TempDir(), "cache")
	for seed := 1; seed <= 3; seed++ {
		s := strconv.Itoa(seed)
		common := []string{"run", "--problem", "zelda-v0", "--pop", "4", "--generations", "2", "--seed", s, "--quiet"}
		if code, out, errs := runCLI(t, append(common, "--generator", "ga", "--out", filepath.Join(root, "ga", s))...); code != 0 {
			t.Fatalf("ga: exit %d: %s %s", code, out, errs)
		}
		if code, out, errs := runCLI(t, append(common, "--generator", llm.GAName, "--base-url", srv.BaseURL(), "--model", "m",
			"--api-key-env", runLLMKeyEnv, "--cache", cache, "--out", filepath.Join(root, "llm-ga", s))...); code != 0 {
			t.Fatalf("llm-ga: exit %d: %s %s", code, out, errs)
		}
	}
	figs := filepath.Join(t.TempDir(), "figs")
	code, out, errs := runCLI(t, "report", root, "--compare", "--latex", "--format", "png,svg", "--out", figs)
	if code != 0 {
		t.Fatalf("report --compare: exit %d: %s %s", code, out, errs)
	}
	for _, name := range []string{"summary.csv", "runs.csv", "differences.csv", "differences.md", "summary.tex", "differences.tex"} {
		if !strings.Contains(out, filepath.Join(root, name)) {
			t.Errorf("report did not list %s:\n%s", name, out)
		}
	}
	for _, name := range []string{"counts-quality.png", "counts-quality.svg"} {
		if _, err := os.Stat(filepath.Join(figs, name)); err != nil {
			t.Error(err)
		}
	}
	read := func(name string) ([][]string, map[string]int) {
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		return rows, col
	}
	sum, col := read("summary.csv")
	var gens []string
	for _, r := range sum[1:] {
		gens = append(gens, r[col["generator"]])
		if r[col["finished"]] != "3" || r[col["best_fitness_lo"]] == "" || r[col["best_fitness_hi"]] == "" {
			t.Errorf("summary row without three seeds and an interval: %v", r)
		}
	}
	slices.Sort(gens)
	if !slices.Equal(gens, []string{"ga", "llm-ga"}) {
		t.Fatalf("summary rows %v, want one for ga and one for llm-ga", gens)
	}
	diffs, col := read("differences.csv")
	if len(diffs) != 5 {
		t.Fatalf("%d difference rows, want 4 metrics", len(diffs)-1)
	}
	for _, r := range diffs[1:] {
		pair := []string{r[col["group_a"]], r[col["group_b"]]}
		slices.Sort(pair)
		if !slices.Equal(pair, []string{"ga", "llm-ga"}) || r[col["n_a"]] != "3" || r[col["n_b"]] != "3" ||
			r[col["a12"]] == "" || r[col["p"]] == "" || r[col["p_holm"]] == "" || r[col["diff"]] == "" {
			t.Errorf("difference row %v", r)
		}
	}
	runs, _ := read("runs.csv")
	if len(runs) != 7 {
		t.Errorf("runs.csv: %d rows for 6 runs", len(runs)-1)
	}
	if code, _, errs := runCLI(t, "report", root, "--format", "png,gif"); code != 2 || !strings.Contains(errs, "svg") {
		t.Errorf("report --format png,gif: exit %d, %q: want 2 naming the formats", code, errs)
	}
}
