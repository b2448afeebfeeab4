package experiment

import (
	"math"
	"strings"
	"testing"
)

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		// Reference values of the Wilson score interval (z = 1.96).
		{224, 360, 0.5710, 0.6707},
		{32, 360, 0.0636, 0.1228},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{0, 0, 0, 1},
	} {
		lo, hi := Wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// summaries makes one finished summary per problem × fitness × generator with the given
// counts.
func summaries(f func(p, fit, g string) Summary) []Summary {
	var out []Summary
	for _, p := range PaperProblems {
		for _, fit := range PaperFitnesses {
			for _, g := range paperGenerators {
				s := f(p, fit, g)
				s.Problem, s.Fitness, s.Generator = p, fit, g
				out = append(out, s)
			}
		}
	}
	return out
}

func TestPaperMarkdownVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sums  []Summary
		want  []string
		avoid []string
	}{
		{
			name: "the paper's picture",
			sums: summaries(func(p, fit, g string) Summary {
				s := Summary{Finished: 10}
				switch {
				case p == "smb-v0" || p == "loderunner-v0" || g == "random":
				case g == "ga":
					s.RunsWithFeasible, s.FeasibleMean = 9, 40
				default:
					s.RunsWithFeasible, s.FeasibleMean = 7, 100
				}
				s.UniqueMean, s.ControlledMean = 2, 5
				if fit != "quality" {
					s.ControlledMean = 30
				}
				if fit == "quality_control_diversity" {
					s.UniqueMean = 40
				}
				if p == "elimination-v0" && fit == "quality" {
					s.FeasibleMean = 10
				}
				return s
			}),
			want: []string{"| ga | 270 of 360 (75%) |", "| es | 210 of 360 (58%) |", "| random | 0 of 360 (0%) |",
				"(224 > 191 > 32 of 360) | GA 75%, ES 58%, random 0% of runs | **reproduced**",
				"loderunner, smb | **reproduced**", "| smb-v0 | 0 of 30 | 0 of 30 | 0 of 30 |"},
			avoid: []string{"not reproduced"},
		},
		{
			name: "ES ahead, feasible Mario",
			sums: summaries(func(p, fit, g string) Summary {
				s := Summary{Finished: 5}
				if g == "es" {
					s.RunsWithFeasible, s.FeasibleMean = 5, 50
				}
				if g == "ga" && p != "loderunner-v0" {
					s.RunsWithFeasible, s.FeasibleMean = 2, 10
				}
				return s
			}),
			want: []string{"differs: both beat random, not in the paper's order", "feasible found: loderunner 15 of 45 runs, smb 21 of 45 runs | **differs**"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := paperMarkdown(nil, tc.sums, nil, nil, "results", "workbench report --paper X")
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("missing %q in:\n%s", w, md)
				}
			}
			for _, a := range tc.avoid {
				if strings.Contains(strings.ToLower(md), a) {
					t.Errorf("unexpected %q", a)
				}
			}
		})
	}
}
