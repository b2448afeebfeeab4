package widgets

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Plot is what a PlotView shows: a title and legend keys, which the view shows as widgets
// (where they never cover a line), and a drawing of the rest at a pixel size. Draw runs off
// the UI goroutine and must touch no widget.
type Plot interface {
	Title() string
	Keys() []PlotKey
	Draw(w, h int, st PlotStyle) image.Image
}

// PlotKey is one entry of a plot's legend: a line's label, colour and dash.
type PlotKey struct {
	Label  string
	Color  color.Color
	Dashed bool
}

// PlotStyle is what a plot's drawing takes from the theme: its colours and how much larger
// than the dark look its text is. It is read on the UI goroutine and handed to the drawing.
type PlotStyle struct {
	Back, Ink, Muted, Grid color.Color
	Scale                  float64
}

// CurrentPlotStyle is the plot style of the app's current theme (see Look).
func CurrentPlotStyle() PlotStyle {
	return PlotStyle{
		Back: Color(ColorNamePlotBack), Ink: Color(ColorNamePlotInk),
		Muted: Color(ColorNamePlotMuted), Grid: Color(ColorNamePlotGrid),
		Scale: textScale(),
	}
}

// Jobs runs a widget's work off the UI goroutine when only the newest job matters.
type Jobs interface {
	// Go starts work on a goroutine of its own and cancels the job started before it; the
	// function work returns (nil: nothing) is run on the UI goroutine unless a newer job
	// started meanwhile.
	Go(work func(ctx context.Context) func())
	// Wait blocks until the newest job is done and its result shown, at most timeout (not on
	// the UI goroutine).
	Wait(timeout time.Duration) error
}

// PlotView shows a Plot drawn at the widget's own pixel size. Drawing happens through the Jobs
// given to NewPlotView (off the UI goroutine), and only when the plot (SetSpec), the size or
// the theme change.
type PlotView[P Plot] struct {
	widget.BaseWidget
	image   *canvas.Image
	back    *canvas.Rectangle
	title   *canvas.Text
	legend  *fyne.Container
	header  *fyne.Container
	keys    string // legend labels shown, to rebuild the legend only when they change
	spec    P
	hasSpec bool
	drawn   image.Point // pixel size of the image shown
	want    image.Point // pixel size of the drawing under way (or shown)
	draws   Jobs
	style   PlotStyle // the theme's style of the drawing under way (or shown)
	// Draws counts the plots drawn (for tests: redraw only on new data).
	Draws int
}

// NewPlotView returns an empty plot area whose drawings run through jobs (nil: drawn at once,
// on the calling goroutine).
func NewPlotView[P Plot](jobs Jobs) *PlotView[P] {
	v := &PlotView[P]{image: &canvas.Image{FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScaleSmooth}, draws: jobs}
	v.back = canvas.NewRectangle(Color(ColorNamePlotBack))
	v.title = canvas.NewText("", Color(ColorNamePlotInk))
	v.title.TextStyle = fyne.TextStyle{Bold: true}
	v.title.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	v.legend = container.NewHBox()
	v.header = container.NewBorder(nil, nil, container.NewPadded(v.title), v.legend)
	v.ExtendBaseWidget(v)
	return v
}

// SetLegendVisible shows or hides the coloured keys (a view whose colours are explained
// elsewhere saves the room).
func (v *PlotView[P]) SetLegendVisible(on bool) {
	if on {
		v.legend.Show()
	} else {
		v.legend.Hide()
	}
}

// updateHeader shows the title and one coloured key per labelled series.
func (v *PlotView[P]) updateHeader() {
	v.title.Text = v.spec.Title()
	v.title.Refresh()
	var keys []PlotKey
	var labels []string
	for _, k := range v.spec.Keys() {
		if k.Label != "" {
			keys = append(keys, k)
			labels = append(labels, k.Label)
		}
	}
	if joined := strings.Join(labels, "\x00"); joined != v.keys {
		v.keys = joined
		v.legend.RemoveAll()
		for _, k := range keys {
			mark := "━ "
			if k.Dashed {
				mark = "╍ "
			}
			t := canvas.NewText(mark+k.Label, k.Color)
			t.TextSize = theme.Size(theme.SizeNameCaptionText)
			t.TextStyle = fyne.TextStyle{Bold: true}
			v.legend.Add(t)
		}
		v.legend.Refresh()
	}
}

// SetSpec replaces the plot and redraws it (UI goroutine).
func (v *PlotView[P]) SetSpec(spec P) {
	v.spec, v.hasSpec = spec, true
	v.updateHeader()
	v.redraw(v.pixelSize(v.plotSize(v.Size())))
}

// Spec returns the plot shown.
func (v *PlotView[P]) Spec() P { return v.spec }

// Image returns the picture shown (nil before the first drawing).
func (v *PlotView[P]) Image() image.Image { return v.image.Image }

// Wait blocks until the last drawing is shown, at most timeout (not on the UI goroutine).
func (v *PlotView[P]) Wait(timeout time.Duration) error {
	if v.draws == nil {
		return nil
	}
	return v.draws.Wait(timeout)
}

func (v *PlotView[P]) pixelSize(s fyne.Size) image.Point {
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		scale = c.Scale()
	}
	w, h := int(math.Round(float64(s.Width*scale))), int(math.Round(float64(s.Height*scale)))
	if w < 40 || h < 40 {
		return image.Pt(640, 300) // not laid out yet: a sensible default
	}
	return image.Pt(w, h)
}

func (v *PlotView[P]) redraw(px image.Point) {
	if !v.hasSpec {
		return
	}
	spec, st := v.spec, CurrentPlotStyle()
	v.want, v.style = px, st
	work := func(ctx context.Context) func() {
		img := spec.Draw(px.X, px.Y, st)
		return func() {
			v.Draws++
			v.drawn = px
			v.image.Image = img
			v.image.Refresh()
		}
	}
	if v.draws == nil {
		work(context.Background())()
		return
	}
	v.draws.Go(work)
}

func (v *PlotView[P]) CreateRenderer() fyne.WidgetRenderer {
	return &plotViewRenderer[P]{v: v}
}

type plotViewRenderer[P Plot] struct{ v *PlotView[P] }

// plotSize is the part of the widget below the header.
func (v *PlotView[P]) plotSize(size fyne.Size) fyne.Size {
	return fyne.NewSize(size.Width, max(0, size.Height-v.header.MinSize().Height))
}

func (r *plotViewRenderer[P]) Layout(size fyne.Size) {
	r.v.back.Resize(size)
	hh := r.v.header.MinSize().Height
	r.v.header.Resize(fyne.NewSize(size.Width, hh))
	r.v.image.Move(fyne.NewPos(0, hh))
	plot := r.v.plotSize(size)
	r.v.image.Resize(plot)
	px := r.v.pixelSize(plot)
	if r.v.hasSpec && (abs(px.X-r.v.want.X) > 2 || abs(px.Y-r.v.want.Y) > 2) {
		r.v.redraw(px)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (r *plotViewRenderer[P]) MinSize() fyne.Size { return fyne.NewSize(240, 150) }

// Refresh follows the theme: Fyne refreshes every widget when the theme changes, and a plot
// drawn in another theme's colours or text size is drawn again.
func (r *plotViewRenderer[P]) Refresh() {
	v := r.v
	v.back.FillColor = Color(ColorNamePlotBack)
	v.title.Color = Color(ColorNamePlotInk)
	v.title.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	for _, o := range v.legend.Objects {
		if t, ok := o.(*canvas.Text); ok {
			t.TextSize = theme.Size(theme.SizeNameCaptionText)
		}
	}
	if v.hasSpec && v.style != CurrentPlotStyle() {
		v.redraw(v.pixelSize(v.plotSize(v.Size())))
	}
	r.v.back.Refresh()
	r.v.header.Refresh()
	r.v.image.Refresh()
}
func (r *plotViewRenderer[P]) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.back, r.v.header, r.v.image}
}
func (r *plotViewRenderer[P]) Destroy() {}
