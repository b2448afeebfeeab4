package experiment

import (
	"testing"

	"pcgwb/problems/search"
)

func TestXAxes(t *testing.T) {
	ev := &search.Event{Generation: 3, Evaluations: 120, ModelCalls: 45, Tokens: 9000, Elapsed: 12.5}
	for _, tc := range []struct {
		in   string
		want XAxis
		val  float64
	}{
		{"", XGeneration, 3}, {"generation", XGeneration, 3}, {"Evaluations", XEvaluations, 120},
		{"model-calls", XModelCalls, 45}, {"model_calls", XModelCalls, 45}, {"model calls", XModelCalls, 45},
		{"tokens", XTokens, 9000}, {"Seconds", XSeconds, 12.5},
	} {
		a, err := ParseXAxis(tc.in)
		if err != nil || a != tc.want || a.Value(ev) != tc.val || a.Label() == "" {
			t.Errorf("ParseXAxis(%q) = %q, %v (value %v): want %q, value %v", tc.in, a, err, a.Value(ev), tc.want, tc.val)
		}
	}
	if _, err := ParseXAxis("minutes"); err == nil {
		t.Error("an unknown axis is accepted")
	}
}

// A group's curve over a budget axis puts each generation at the runs' mean spending.
func TestCurveOverBudget(t *testing.T) {
	run := func(evals ...int) *Record {
		r := &Record{}
		for g, e := range evals {
			r.Events = append(r.Events, search.Event{Generation: g, Evaluations: e, ModelCalls: 2 * e, BestFitness: float64(g) / 10})
		}
		return r
	}
	g := Group{Runs: []*Record{run(10, 20, 30), run(10, 30, 50)}}
	for _, tc := range []struct {
		x    XAxis
		want []float64
	}{{XGeneration, []float64{0, 1, 2}}, {XEvaluations, []float64{10, 25, 40}}, {XModelCalls, []float64{20, 50, 80}}} {
		cv := g.CurveOver(tc.x.Value, func(ev *search.Event) float64 { return ev.BestFitness })
		for i, want := range tc.want {
			if cv.X[i] != want {
				t.Errorf("%s: x %v, want %v", tc.x, cv.X, tc.want)
				break
			}
		}
	}
}

// FuzzParseXAxis: any text is an axis or an error naming the axes, and an axis reads back.
func FuzzParseXAxis(f *testing.F) {
	for _, s := range []string{"", "generation", "model_calls", "Model Calls", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseXAxis(s)
		if err != nil {
			return
		}
		if b, err := ParseXAxis(string(a)); err != nil || b != a {
			t.Fatalf("%q gives %q, which reads back as %q, %v", s, a, b, err)
		}
	})
}
