package experiment

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	vgrec "gonum.org/v1/plot/vg/recorder"

	"pcgwb/problems/search"
)

// A generator without a model spends nothing on the model-calls and tokens axes: it is drawn
// at zero, with a marker and a note in the legend, and never left out; on the seconds axis
// (every run takes time) and the generation axis it is drawn as any other.
func TestBudgetAxesDrawAGeneratorThatSpentNothingAtZero(t *testing.T) {
	run := func(gen string, calls, tokens int) *Record {
		r := &Record{Config: Config{Generator: gen}}
		for g := range 3 {
			r.Events = append(r.Events, search.Event{Generator: gen, Generation: g, Evaluations: 10 * (g + 1),
				ModelCalls: calls * g, Tokens: tokens * g, Elapsed: 0.5 * float64(g+1), BestFitness: 0.2 * float64(g+1)})
		}
		return r
	}
	ga := Group{Generator: "ga", Runs: []*Record{run("ga", 0, 0), run("ga", 0, 0)}}
	lg := Group{Generator: "llm-ga", Runs: []*Record{run("llm-ga", 5, 700)}}
	for _, tc := range []struct {
		x      XAxis
		zero   bool
		note   string
		lgZero bool
	}{
		{XGeneration, false, "", false},
		{XEvaluations, false, "", false},
		{XModelCalls, true, "no model calls: drawn at 0", false},
		{XTokens, true, "no model tokens: drawn at 0", false},
		{XSeconds, false, "", false},
	} {
		if got := tc.x.SpentNothing(&ga); got != tc.zero {
			t.Errorf("%s: ga spent nothing = %v, want %v", tc.x, got, tc.zero)
		}
		if lg.Runs[0].Events[2].Tokens != 1400 || tc.x.SpentNothing(&lg) != tc.lgZero {
			t.Errorf("%s: llm-ga spent nothing = %v", tc.x, tc.x.SpentNothing(&lg))
		}
		var c vgrec.Canvas
		fitnessPlot("zelda-v0", []Group{ga, lg}, tc.x).Draw(draw.NewCanvas(&c, 4*vg.Inch, 3*vg.Inch))
		var texts []string
		for _, a := range c.Actions {
			if fs, ok := a.(*vgrec.FillString); ok {
				texts = append(texts, fs.String)
			}
		}
		all := strings.Join(texts, "\n")
		wantGA := "ga (2 seeds)"
		if tc.zero {
			wantGA += ", " + tc.note
		}
		if !strings.Contains("\n"+all+"\n", "\n"+wantGA+"\n") || !strings.Contains("\n"+all+"\n", "\nllm-ga (1 seeds)\n") {
			t.Errorf("%s: legend lacks %q or the llm-ga entry:\n%s", tc.x, wantGA, all)
		}
		if !strings.Contains(all, tc.x.Label()) {
			t.Errorf("%s: no axis label %q", tc.x, tc.x.Label())
		}
	}
	if XTokens.SpentNothing(&Group{}) {
		t.Error("a group without events counts as having spent nothing")
	}
}
