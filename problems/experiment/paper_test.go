package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pcgwb/problems/search"
)

// paperSweep makes finished runs of every problem × fitness × generator (10 each) with the
// counts f gives; seeds are paired (replicate k has seed k) or independent.
func paperSweep(paired bool, f func(p, fit, g string, k int) (feasible, unique, controlled int)) []*Record {
	var runs []*Record
	for _, p := range PaperProblems {
		for _, fit := range PaperFitnesses {
			for _, g := range paperGenerators {
				for k := 1; k <= 10; k++ {
					seed := uint64(k)
					if !paired {
						seed = IndependentSeed(fit, g, k)
					}
					fe, un, co := f(p, fit, g, k)
					runs = append(runs, &Record{Dir: fmt.Sprintf("s/%s/%s/%s/%d", p, fit, g, k),
						Config: Config{Generator: g, Generations: 1, Options: search.Options{Problem: p, Fitness: fit, Seed: seed, PopSize: 100}},
						Events: []search.Event{{Generation: 1}},
						Final:  &Final{Generation: 1, Size: 100, Feasible: fe, Unique: un, Controlled: co}})
				}
			}
		}
	}
	return runs
}

func TestPaperMarkdownVerdicts(t *testing.T) {
	picture := func(p, fit, g string, k int) (int, int, int) {
		fe, un, co := 0, 2, 5
		switch {
		case p == "smb-v0" || p == "loderunner-v0" || g == "random":
		case g == "ga" && (k <= 9 || p == "binary-v0" || p == "mdungeons-v0"):
			fe = 40
		case g == "es" && (p == "binary-v0" || p == "mdungeons-v0"):
			fe = 100
		case g == "es" && k <= 5:
			fe = 30
		}
		if fit != "quality" {
			co = 30 + k
		}
		if fit == "quality_control_diversity" {
			un = 40 + k
		}
		return fe, un, co
	}
	same := func(p, fit, g string, k int) (int, int, int) {
		fe := 0
		if g != "random" && k%2 == 0 {
			fe = 10
		}
		return fe, 2, 5
	}
	for _, tc := range []struct {
		name  string
		runs  []*Record
		want  []string
		avoid []string
	}{
		{
			name: "the paper's picture, independent seeds",
			runs: paperSweep(false, picture),
			want: []string{"| ga | 276 of 360 (77%) |", "| es | 180 of 360 (50%) |", "| random | 0 of 360 (0%) |",
				"(224 > 191 > 32 of 360) | GA − ES +26.7 pts", "| **supported** |\n| No algorithm finds",
				"smb 0 of 90 runs", "| **independent**: every fitness and generator has its own seeds", "binary: ES 100.0",
				"Pairing: independent.", "raises the number of controlled individuals | QT − Q higher", "in 24 of 24 problem×generator pairs",
				"every run: binary 60 of 60 (94–100%), mdungeons 60 of 60 (94–100%); none: loderunner 0 of 60 (0–6%), smb 0 of 60 (0–6%) | **supported**"},
			avoid: []string{"not supported", "inconclusive"},
		},
		{
			name: "paired seeds, no difference between ES and GA",
			runs: paperSweep(true, same),
			want: []string{"| **paired**: run k uses seed k", "cluster bootstrap over seeds", "n = 120 seeds",
				"Pairing: paired.", "**inconclusive (n too small)**", "Elimination: the feasible counts of Q and QT differ only by noise | es: QT − Q feasible +0.0"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sums := Summarize(Groups(tc.runs))
			md := paperMarkdown(tc.runs, sums, nil, nil, "results", "workbench report --paper X", nil)
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, `\n`, "\n")
				if !strings.Contains(md, w) {
					t.Errorf("missing %q in:\n%s", w, md)
				}
			}
			for _, a := range tc.avoid {
				if strings.Contains(md, "| **"+a+"** |") {
					t.Errorf("unexpected verdict %q in:\n%s", a, md)
				}
			}
		})
	}
}

// PaperReport with Recount evaluates every final population again under both set diversities
// and shows them beside the recorded counts and the paper's bar.
func TestPaperReportRecountsUnique(t *testing.T) {
	dir := t.TempDir()
	s := Sweep{Problems: []string{"binary-v0"}, Generators: []string{"random"}, Fitnesses: []string{"quality"},
		Seeds: 2, Generations: 0, Options: search.Options{PopSize: 40, Diversity: "2025-01"},
		Out: filepath.Join(dir, "sweep"), IndependentSeeds: true}
	if err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results.md")
	if err := PaperReport(context.Background(), PaperOptions{Dir: s.Out, Out: out, FigDir: filepath.Join(dir, "fig"),
		Command: "test", Recount: true}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	row := regexp.MustCompile(`\| binary \| Q \| random \| 98\.5 \[98\.2, 99\.0\] \| [0-9.]+ \[[0-9., ]+\] \| ([0-9.]+) \[[0-9., ]+\] \| ([0-9.]+) \[[0-9., ]+\] \| (yes|no: ours (lower|higher)) \|`)
	m := row.FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no Fig. 3 row for binary Q random with both re-evaluations in:\n%s", md)
	}
	for _, v := range m[1:3] {
		if x, err := strconv.ParseFloat(v, 64); err != nil || x < 1 || x > 40 {
			t.Errorf("re-evaluated unique count %q of 40 random binary levels", v)
		}
	}
	for _, want := range []string{"| **independent**", "`2025-01` (`--diversity 2025-01`): the paper's", "(`2025-01`, recorded) overlap in"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q", want)
		}
	}
}
