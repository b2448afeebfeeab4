package app

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"sync"
	"time"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"pcgwb/app/widgets"
	"pcgwb/problems/search"
)

// series is one line of a plot, with an optional confidence band (Lo, Hi as long as Y).
type series struct {
	label  string
	color  color.Color
	x, y   []float64
	lo, hi []float64
	dashed bool
	// dotted draws the line dotted (told apart from solid and dashed ones without colour).
	dotted bool
}

// plotSpec is a line plot with fixed axes: X from 0 to XMax, Y from YMin to YMax (when
// YMax > YMin; otherwise fitted to the data). Fixed axes keep a live plot from jumping while a
// run fills it, and give compared runs one scale.
type plotSpec struct {
	title, xLabel, yLabel string
	xMax, yMin, yMax      float64
	series                []series
}

// plotView shows a plotSpec (Run's and Compare's plots).
type plotView = widgets.PlotView[plotSpec]

// newPlotView returns an empty plot area drawing off the UI goroutine, through ui (the window's
// plumbing; nil: detachedUI).
func newPlotView(ui *uiThread) *plotView {
	return widgets.NewPlotView[plotSpec](latestJobs{&latest{ui: ui}})
}

// latestJobs runs a widget's drawings as latest jobs.
type latestJobs struct{ *latest }

func (j latestJobs) Wait(timeout time.Duration) error { return j.latest.wait(timeout) }

// Title, Keys and Draw make a plotSpec a widgets.Plot: the view shows the title and the
// labelled series' keys itself and draws the rest.
func (s plotSpec) Title() string { return s.title }

func (s plotSpec) Keys() []widgets.PlotKey {
	keys := make([]widgets.PlotKey, 0, len(s.series))
	for _, se := range s.series {
		if se.label != "" {
			keys = append(keys, widgets.PlotKey{Label: se.label, Color: se.color, Dashed: se.dashed})
		}
	}
	return keys
}

func (s plotSpec) Draw(w, h int, st widgets.PlotStyle) image.Image {
	return renderPlotStyled(s, w, h, false, st)
}

var plotMu sync.Mutex

// plotDPI makes a point about 1.33 px, so the theme's 12–15 px text sizes map to 9–11 pt.
const plotDPI = 96

// renderPlot draws the spec in the current theme's colours and text sizes into a w×h pixel
// image. The drawing touches no widget and costs about 10 ms.
func renderPlot(spec plotSpec, w, h int) image.Image {
	return renderPlotStyled(spec, w, h, true, widgets.CurrentPlotStyle())
}

// renderPlotStyled draws the plot in style st; without chrome it leaves out the title and the legend
// (the PlotView shows them as widgets, where they never cover a line).
func renderPlotStyled(spec plotSpec, w, h int, chrome bool, st widgets.PlotStyle) image.Image {
	// gonum/plot's font faces are shared and not safe for concurrent use.
	plotMu.Lock()
	defer plotMu.Unlock()
	w, h = max(w, 120), max(h, 90)
	p := plot.New()
	stylePlot(p, st)
	spec.series = append([]series(nil), spec.series...) // the labels are cleared on a copy
	if chrome {
		p.Title.Text = spec.title
	} else {
		for i := range spec.series {
			spec.series[i].label = ""
		}
	}
	p.X.Label.Text = spec.xLabel
	p.Y.Label.Text = spec.yLabel
	grid := draw.LineStyle{Color: st.Grid, Width: vg.Points(0.6)}
	p.Add(&plotter.Grid{Vertical: grid, Horizontal: grid})
	for _, s := range spec.series {
		addSeries(p, s)
	}
	p.X.Min, p.X.Max = 0, math.Max(spec.xMax, 1)
	if spec.yMax > spec.yMin {
		p.Y.Min, p.Y.Max = spec.yMin, spec.yMax
	} else if p.Y.Max <= p.Y.Min {
		p.Y.Min, p.Y.Max = 0, 1
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/plotDPI, vg.Length(h)*vg.Inch/plotDPI),
		vgimg.UseDPI(plotDPI), vgimg.UseBackgroundColor(st.Back))
	p.Draw(draw.New(c))
	return c.Image()
}

func addSeries(p *plot.Plot, s series) {
	if len(s.x) == 0 {
		return
	}
	if len(s.lo) == len(s.x) && len(s.hi) == len(s.x) && len(s.x) > 1 {
		band := make(plotter.XYs, 0, 2*len(s.x))
		for i := range s.x {
			if !math.IsNaN(s.lo[i]) {
				band = append(band, plotter.XY{X: s.x[i], Y: s.lo[i]})
			}
		}
		for i := len(s.x) - 1; i >= 0; i-- {
			if !math.IsNaN(s.hi[i]) {
				band = append(band, plotter.XY{X: s.x[i], Y: s.hi[i]})
			}
		}
		if len(band) > 2 {
			if poly, err := plotter.NewPolygon(band); err == nil {
				r, g, b, _ := s.color.RGBA()
				poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x50}
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
		}
	}
	pts := make(plotter.XYs, 0, len(s.x))
	for i := range s.x {
		if !math.IsNaN(s.y[i]) {
			pts = append(pts, plotter.XY{X: s.x[i], Y: s.y[i]})
		}
	}
	if len(pts) == 0 {
		return
	}
	if len(pts) == 1 {
		addMarker(p, s, pts[0])
		return
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return
	}
	line.Color = s.color
	line.Width = vg.Points(1.8)
	if s.dashed {
		line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	if s.dotted {
		line.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
	}
	p.Add(line)
	if s.label != "" {
		p.Legend.Add(s.label, line)
	}
}

// stylePlot gives the plot the style's colours and text sizes.
func stylePlot(p *plot.Plot, st widgets.PlotStyle) {
	fg, muted := st.Ink, st.Muted
	pt := func(size float64) vg.Length { return vg.Points(size * max(st.Scale, 0.5)) }
	p.BackgroundColor = st.Back
	p.Title.TextStyle.Color = fg
	p.Title.TextStyle.Font.Size = pt(11)
	p.Title.TextStyle.Font.Weight = xfont.WeightBold
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Marker = plainTicks{}
		a.Color = muted
		a.LineStyle.Color = muted
		a.Label.TextStyle.Color = muted
		a.Label.TextStyle.Font.Size = pt(9.5)
		a.Tick.Label.Color = muted
		a.Tick.Label.Font.Size = pt(9)
		a.Tick.Color = muted
		a.Padding = vg.Points(2)
	}
	p.Legend.TextStyle.Color = fg
	p.Legend.TextStyle.Font.Size = pt(9.5)
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.Padding = vg.Points(1)
	p.Legend.ThumbnailWidth = vg.Points(16)
}

// seriesColors are the palette colours given to compared runs, in order.
var seriesColors = []color.RGBA{pal('c'), pal('o'), pal('l'), pal('r'), pal('y'), pal('a'), pal('p'), pal('s')}

// seriesColor is the colour of the i-th compared run.
func seriesColor(i int) color.RGBA { return seriesColors[i%len(seriesColors)] }

// runFitnessPlot is the live plot of a run's best and mean fitness per generation.
func runFitnessPlot(events []search.Event, generations int) plotSpec {
	var xs, best, mean []float64
	for _, ev := range events {
		xs = append(xs, float64(ev.Generation))
		best = append(best, ev.BestFitness)
		mean = append(mean, ev.MeanFitness)
	}
	return plotSpec{title: "Fitness", xLabel: "generation", xMax: float64(generations), yMin: 0, yMax: 1.05,
		series: []series{
			{label: "best", color: pal('l'), x: xs, y: best},
			{label: "mean", color: pal('c'), x: xs, y: mean, dashed: true},
		}}
}

// runCountsPlot is the live plot of a run's feasible, unique and controlled individuals.
func runCountsPlot(events []search.Event, generations, size int) plotSpec {
	var xs, feas, uniq, ctrl []float64
	for _, ev := range events {
		xs = append(xs, float64(ev.Generation))
		feas = append(feas, float64(ev.Feasible))
		uniq = append(uniq, float64(ev.Unique))
		ctrl = append(ctrl, float64(ev.Controlled))
		size = max(size, ev.Size)
	}
	return plotSpec{title: "Population", xLabel: "generation", xMax: float64(generations), yMin: 0, yMax: float64(max(size, 1)) * 1.05,
		series: []series{
			{label: "feasible", color: pal('g'), x: xs, y: feas},
			{label: "unique", color: pal('a'), x: xs, y: uniq, dashed: true},
			{label: "controlled", color: pal('y'), x: xs, y: ctrl, dotted: true},
		}}
}

// plainTicks are gonum's default ticks labelled without trailing zeros ("50", not "50.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
			if len(ticks[i].Label) > 6 {
				ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 4, 64)
			}
		}
	}
	return ticks
}

// addMarker draws a one-point series (a single-generation run: an LLM batch, a constructive
// run) as a marker with its interval as a vertical bar, where a line would be invisible.
func addMarker(p *plot.Plot, s series, pt plotter.XY) {
	sc, err := plotter.NewScatter(plotter.XYs{pt})
	if err != nil {
		return
	}
	sc.GlyphStyle.Color = s.color
	sc.GlyphStyle.Radius = vg.Points(4)
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(sc)
	for i := range s.x {
		if s.x[i] == pt.X && i < len(s.lo) && i < len(s.hi) && !math.IsNaN(s.lo[i]) && !math.IsNaN(s.hi[i]) {
			if bar, err := plotter.NewLine(plotter.XYs{{X: pt.X, Y: s.lo[i]}, {X: pt.X, Y: s.hi[i]}}); err == nil {
				bar.Color = s.color
				bar.Width = vg.Points(1.8)
				p.Add(bar)
			}
			break
		}
	}
	if s.label != "" {
		p.Legend.Add(s.label, sc)
	}
}
