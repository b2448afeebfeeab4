package experiment

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// SpentNothing tells whether every event the group's runs recorded is at 0 on the budget axis
// a (GA and the other generators without a model on the model-calls and tokens axes). Such a
// group is drawn at x = 0 with ZeroNote, never left out: reaching its fitness cost it nothing of
// that budget. The generation axis is not a budget: it is always false there.
func (a XAxis) SpentNothing(g *Group) bool {
	if a == XGeneration {
		return false
	}
	seen := false
	for _, r := range g.Runs {
		for i := range r.Events {
			if a.Value(&r.Events[i]) != 0 {
				return false
			}
			seen = true
		}
	}
	return seen
}

// ZeroNote is what a legend says of a group that spent nothing of the axis' budget
// (SpentNothing): "no model calls: drawn at 0".
func (a XAxis) ZeroNote() string {
	what := a.Label()
	switch a {
	case XTokens:
		what = "model tokens"
	case XSeconds:
		what = "time"
	}
	return "no " + what + ": drawn at 0"
}

// addLegend adds group g's entry (its curve's line) to p's legend. A group that spent nothing
// of the axis' budget has its whole curve on x = 0, which a line cannot show: it also gets a
// marker at its last mean there, and its entry says why it stands at 0.
func (a XAxis) addLegend(p *plot.Plot, g Group, cv Curve, line *plotter.Line) {
	label := fmt.Sprintf("%s (%d seeds)", g.Generator, len(g.Runs))
	if len(cv.X) == 0 || !a.SpentNothing(&g) {
		p.Legend.Add(label, line)
		return
	}
	mark, err := plotter.NewScatter(plotter.XYs{{X: 0, Y: cv.Mean[len(cv.Mean)-1]}})
	if err != nil { // a NaN mean: the line alone
		p.Legend.Add(label+", "+a.ZeroNote(), line)
		return
	}
	mark.GlyphStyle.Color = line.Color
	mark.GlyphStyle.Shape = plotutil.Shape(GeneratorRank(g.Generator))
	mark.GlyphStyle.Radius = vg.Points(3.5)
	p.Add(mark)
	p.Legend.Add(label+", "+a.ZeroNote(), line, mark)
}
