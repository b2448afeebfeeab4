package experiment

import (
	"fmt"
	"strings"

	"pcgwb/problems/search"
)

// XAxis is what the report's fitness curves are drawn against: the generation, or a budget —
// the evaluations (info computations), the language-model calls (search.Event.ModelCalls), the
// model's tokens (search.Event.Tokens) or the wall-clock seconds (search.Event.Elapsed) a run
// has spent so far — so generators that spend differently (GA, LLM batches, LLM-guided
// evolution) are compared at equal cost. A generator that spends none of a budget (GA's model
// calls) is drawn at zero with a note in the legend (report_axes.go), never left out.
type XAxis string

// The report's x axes.
const (
	XGeneration  XAxis = "generation"
	XEvaluations XAxis = "evaluations"
	XModelCalls  XAxis = "model-calls"
	XTokens      XAxis = "tokens"
	XSeconds     XAxis = "seconds"
)

// XAxes lists the x axes, the default first.
func XAxes() []XAxis { return []XAxis{XGeneration, XEvaluations, XModelCalls, XTokens, XSeconds} }

// ParseXAxis reads an axis name ("model_calls" and "model calls" are accepted too).
func ParseXAxis(s string) (XAxis, error) {
	n := strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(s)))
	if n == "" {
		return XGeneration, nil
	}
	for _, a := range XAxes() {
		if string(a) == n {
			return a, nil
		}
	}
	names := make([]string, len(XAxes()))
	for i, a := range XAxes() {
		names[i] = string(a)
	}
	return "", fmt.Errorf("unknown x axis %q (choose one of %s)", s, strings.Join(names, ", "))
}

// Value is the event's position on the axis.
func (a XAxis) Value(ev *search.Event) float64 {
	switch a {
	case XEvaluations:
		return float64(ev.Evaluations)
	case XModelCalls:
		return float64(ev.ModelCalls)
	case XTokens:
		return float64(ev.Tokens)
	case XSeconds:
		return ev.Elapsed
	}
	return float64(ev.Generation)
}

// Label is the axis title of a figure.
func (a XAxis) Label() string {
	switch a {
	case XEvaluations:
		return "evaluations"
	case XModelCalls:
		return "model calls"
	case XTokens:
		return "model tokens (prompt + completion)"
	case XSeconds:
		return "seconds (wall clock)"
	}
	return "generation"
}
