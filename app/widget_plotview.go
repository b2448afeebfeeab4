package app

import (
	"context"
	"image"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// plotView shows a PlotSpec drawn with gonum/plot at the widget's own pixel size. Drawing
// happens off the UI goroutine, and only when the data (SetSpec) or the size change.
type plotView struct {
	widget.BaseWidget
	image   *canvas.Image
	back    *canvas.Rectangle
	title   *canvas.Text
	legend  *fyne.Container
	header  *fyne.Container
	keys    string // legend labels shown, to rebuild the legend only when they change
	spec    plotSpec
	hasSpec bool
	drawn   image.Point // pixel size of the image shown
	want    image.Point // pixel size of the drawing under way (or shown)
	draws   latest
	style   plotStyle // the theme's style of the drawing under way (or shown)
	// Draws counts the plots drawn (for tests: redraw only on new data).
	Draws int
}

// newPlotView returns an empty plot area.
func newPlotView() *plotView {
	v := &plotView{image: &canvas.Image{FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScaleSmooth}}
	v.back = canvas.NewRectangle(themeColor(colorNamePlotBack))
	v.title = canvas.NewText("", themeColor(colorNamePlotInk))
	v.title.TextStyle = fyne.TextStyle{Bold: true}
	v.title.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	v.legend = container.NewHBox()
	v.header = container.NewBorder(nil, nil, container.NewPadded(v.title), v.legend)
	v.ExtendBaseWidget(v)
	return v
}

// setLegendVisible shows or hides the coloured keys (a view whose colours are explained
// elsewhere saves the room).
func (v *plotView) setLegendVisible(on bool) {
	if on {
		v.legend.Show()
	} else {
		v.legend.Hide()
	}
}

// updateHeader shows the title and one coloured key per labelled series.
func (v *plotView) updateHeader() {
	v.title.Text = v.spec.title
	v.title.Refresh()
	var keys []string
	for _, s := range v.spec.series {
		if s.label != "" {
			keys = append(keys, s.label)
		}
	}
	if joined := strings.Join(keys, "\x00"); joined != v.keys {
		v.keys = joined
		v.legend.RemoveAll()
		for _, s := range v.spec.series {
			if s.label == "" {
				continue
			}
			mark := "━ "
			if s.dashed {
				mark = "╍ "
			}
			t := canvas.NewText(mark+s.label, s.color)
			t.TextSize = theme.Size(theme.SizeNameCaptionText)
			t.TextStyle = fyne.TextStyle{Bold: true}
			v.legend.Add(t)
		}
		v.legend.Refresh()
	}
}

// setSpec replaces the data and redraws (UI goroutine).
func (v *plotView) setSpec(spec plotSpec) {
	v.spec, v.hasSpec = spec, true
	v.updateHeader()
	v.redraw(v.pixelSize(v.plotSize(v.Size())))
}

// Spec returns the data shown.
func (v *plotView) Spec() plotSpec { return v.spec }

// Image returns the picture shown (nil before the first drawing).
func (v *plotView) Image() image.Image { return v.image.Image }

// wait blocks until the last drawing is shown, at most timeout.
func (v *plotView) wait(timeout time.Duration) error { return v.draws.wait(timeout) }

func (v *plotView) pixelSize(s fyne.Size) image.Point {
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

func (v *plotView) redraw(px image.Point) {
	if !v.hasSpec {
		return
	}
	spec, st := v.spec, currentPlotStyle()
	v.want, v.style = px, st
	v.draws.Go(func(ctx context.Context) func() {
		img := renderPlotStyled(spec, px.X, px.Y, false, st)
		return func() {
			v.Draws++
			v.drawn = px
			v.image.Image = img
			v.image.Refresh()
		}
	})
}

func (v *plotView) CreateRenderer() fyne.WidgetRenderer {
	return &plotViewRenderer{v: v}
}

type plotViewRenderer struct{ v *plotView }

// plotSize is the part of the widget below the header.
func (v *plotView) plotSize(size fyne.Size) fyne.Size {
	return fyne.NewSize(size.Width, max(0, size.Height-v.header.MinSize().Height))
}

func (r *plotViewRenderer) Layout(size fyne.Size) {
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

func (r *plotViewRenderer) MinSize() fyne.Size { return fyne.NewSize(240, 150) }

// Refresh follows the theme: Fyne refreshes every widget when the theme changes, and a plot
// drawn in another theme's colours or text size is drawn again.
func (r *plotViewRenderer) Refresh() {
	v := r.v
	v.back.FillColor = themeColor(colorNamePlotBack)
	v.title.Color = themeColor(colorNamePlotInk)
	v.title.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	for _, o := range v.legend.Objects {
		if t, ok := o.(*canvas.Text); ok {
			t.TextSize = theme.Size(theme.SizeNameCaptionText)
		}
	}
	if v.hasSpec && v.style != currentPlotStyle() {
		v.redraw(v.pixelSize(v.plotSize(v.Size())))
	}
	r.v.back.Refresh()
	r.v.header.Refresh()
	r.v.image.Refresh()
}
func (r *plotViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.back, r.v.header, r.v.image}
}
func (r *plotViewRenderer) Destroy() {}
