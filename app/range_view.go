package app

import (
	"image"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
)

// heatmapView draws a heatmap with square cells and reports taps by cell.
type heatmapView struct {
	widget.BaseWidget
	heat     *heatmap
	fitness  bool
	selected int
	image    *canvas.Image
	back     *canvas.Rectangle
	onTap    func(x, y int)
	// labels[c] shows cell c's value (level count, or elite fitness); nil for empty cells
	labels []*canvas.Text
	// The axes: a tick per bin (its centre value) and the metric's name; the colour legend.
	xTicks, yTicks []*canvas.Text
	xTitle, yTitle *canvas.Text
	legend         *canvas.Image
	legendTicks    []*canvas.Text // top, middle and bottom values of the colour scale
}

// newHeatmapView returns an empty heatmap; onTap receives the tapped cell.
func newHeatmapView(onTap func(x, y int)) *heatmapView {
	v := &heatmapView{onTap: onTap, selected: -1}
	v.image = &canvas.Image{FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScalePixels}
	v.back = canvas.NewRectangle(widgets.Color(widgets.ColorNamePlotBack))
	v.legend = &canvas.Image{Image: drawLegend(64), FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScalePixels}
	v.xTitle, v.yTitle = heatLabel("", fyne.TextAlignCenter), heatLabel("", fyne.TextAlignLeading)
	v.xTitle.TextStyle, v.yTitle.TextStyle = fyne.TextStyle{Bold: true}, fyne.TextStyle{Bold: true}
	v.ExtendBaseWidget(v)
	return v
}

// heatLabel is a small label of the heatmap's axes and legend.
func heatLabel(text string, align fyne.TextAlign) *canvas.Text {
	t := canvas.NewText(text, widgets.Color(widgets.ColorNamePlotInk))
	t.TextSize = theme.Size(theme.SizeNameCaptionText)
	t.Alignment = align
	return t
}

// drawLegend is the colour scale, h pixels high: the fullest colour at the top.
func drawLegend(h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1, h))
	for y := 0; y < h; y++ {
		img.SetRGBA(0, y, heatColor(1-float64(y)/float64(h-1)))
	}
	return img
}

// formatTick writes an axis value in at most three significant digits.
func formatTick(v float64) string {
	if math.Abs(v) < 1e-9 {
		v = 0
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// setAxes makes the ticks, titles and legend labels of h.
func (v *heatmapView) setAxes(h *heatmap, top float64, fitness bool) {
	v.xTicks, v.yTicks, v.legendTicks = nil, nil, nil
	v.xTitle.Text, v.yTitle.Text = "", ""
	if h == nil {
		return
	}
	for b := 0; b < h.x.Bins; b++ {
		lo, hi := h.x.binRange(b)
		v.xTicks = append(v.xTicks, heatLabel(formatTick((lo+hi)/2), fyne.TextAlignCenter))
	}
	for b := 0; b < h.y.Bins; b++ {
		lo, hi := h.y.binRange(b)
		v.yTicks = append(v.yTicks, heatLabel(formatTick((lo+hi)/2), fyne.TextAlignTrailing))
	}
	v.xTitle.Text, v.yTitle.Text = h.x.Field+" →", "↑ "+h.y.Field
	// the colours follow the square root of value/top: the middle colour is a quarter of the top
	unit := " levels"
	if fitness {
		unit = " fitness"
	}
	for _, val := range []float64{top, top / 4, 0} {
		text := formatTick(val)
		if val == top {
			text += unit
		}
		v.legendTicks = append(v.legendTicks, heatLabel(text, fyne.TextAlignLeading))
	}
}

// axisLabels returns the texts of the x ticks, the y ticks and the legend (for tests).
func (v *heatmapView) axisLabels() (x, y, legend []string) {
	for _, t := range v.xTicks {
		x = append(x, t.Text)
	}
	for _, t := range v.yTicks {
		y = append(y, t.Text)
	}
	for _, t := range v.legendTicks {
		legend = append(legend, t.Text)
	}
	return x, y, legend
}

// setHeatmap shows h (nil: nothing); fitness scales colours to [0, 1] instead of the fullest
// cell.
func (v *heatmapView) setHeatmap(h *heatmap, fitness bool) {
	v.heat, v.fitness, v.selected = h, fitness, -1
	v.labels = nil
	if h != nil {
		v.labels = make([]*canvas.Text, h.Cells())
		top := h.maxValue()
		if fitness || top == 0 {
			top = 1
		}
		for c, val := range h.value {
			if math.IsNaN(val) {
				continue
			}
			text := strconv.Itoa(int(val))
			if fitness {
				text = strconv.FormatFloat(val, 'f', 2, 64)
			}
			ink := pal('w')
			if math.Sqrt(val/top) > 0.55 { // light cells (green to yellow) take dark text
				ink = pal('k')
			}
			t := canvas.NewText(text, ink)
			t.TextStyle = fyne.TextStyle{Bold: true}
			t.Alignment = fyne.TextAlignCenter
			v.labels[c] = t
		}
		v.setAxes(h, top, fitness)
	} else {
		v.setAxes(nil, 0, false)
	}
	v.paint()
	v.Refresh()
}

// cellText is what cell (x, y) shows ("" when empty).
func (v *heatmapView) cellText(x, y int) string {
	if v.heat == nil {
		return ""
	}
	if t := v.labels[y*v.heat.x.Bins+x]; t != nil {
		return t.Text
	}
	return ""
}

// Select outlines cell c (-1: none).
func (v *heatmapView) Select(c int) {
	v.selected = c
	v.paint()
	v.image.Refresh()
}

// Image returns the drawn heatmap (nil when empty).
func (v *heatmapView) Image() *canvas.Image { return v.image }

func (v *heatmapView) paint() {
	if v.heat == nil {
		v.image.Image = nil
		return
	}
	v.image.Image = drawHeatmap(v.heat, heatCellPx, v.selected, v.fitness)
}

// Room around the cells: the y ticks on the left, the x ticks and title below, the y title
// above, the colour legend on the right.
const (
	heatTickGap    = 4
	heatLegendBar  = 12
	heatLegendText = 64
)

func (v *heatmapView) margins() (left, top, right, bottom float32) {
	text := theme.Size(theme.SizeNameCaptionText)
	line := fyne.MeasureText("0", text, fyne.TextStyle{}).Height
	for _, t := range v.yTicks {
		left = max(left, fyne.MeasureText(t.Text, text, fyne.TextStyle{}).Width)
	}
	return left + 2*heatTickGap, line + heatTickGap, heatLegendBar + heatLegendText + 3*heatTickGap, 2*line + 2*heatTickGap
}

// gridRect is where the cells are drawn: square cells, as large as fit between the axes,
// centred.
func (v *heatmapView) gridRect() (origin fyne.Position, cell float32) {
	if v.heat == nil {
		return fyne.Position{}, 0
	}
	l, t, r, b := v.margins()
	s := v.Size().Subtract(fyne.NewSize(l+r, t+b))
	if s.Width <= 0 || s.Height <= 0 {
		return fyne.NewPos(l, t), 0
	}
	cell = float32(math.Floor(math.Min(float64(s.Width/float32(v.heat.x.Bins)), float64(s.Height/float32(v.heat.y.Bins)))))
	w, h := cell*float32(v.heat.x.Bins), cell*float32(v.heat.y.Bins)
	return fyne.NewPos(l+float32(math.Floor(float64((s.Width-w)/2))), t+float32(math.Floor(float64((s.Height-h)/2)))), cell
}

// cellAt maps a position to a cell (y counted upwards, as drawn).
func (v *heatmapView) cellAt(p fyne.Position) (x, y int, ok bool) {
	origin, cell := v.gridRect()
	if cell <= 0 {
		return 0, 0, false
	}
	x = int(math.Floor(float64((p.X - origin.X) / cell)))
	row := int(math.Floor(float64((p.Y - origin.Y) / cell)))
	y = v.heat.y.Bins - 1 - row
	return x, y, x >= 0 && row >= 0 && x < v.heat.x.Bins && y >= 0
}

// cellCenter is the position of the middle of cell (x, y).
func (v *heatmapView) cellCenter(x, y int) fyne.Position {
	origin, cell := v.gridRect()
	row := v.heat.y.Bins - 1 - y
	return fyne.NewPos(origin.X+(float32(x)+0.5)*cell, origin.Y+(float32(row)+0.5)*cell)
}

func (v *heatmapView) Tapped(e *fyne.PointEvent) {
	if x, y, ok := v.cellAt(e.Position); ok && v.onTap != nil {
		v.onTap(x, y)
	}
}

func (v *heatmapView) CreateRenderer() fyne.WidgetRenderer { return &heatmapRenderer{v: v} }

type heatmapRenderer struct{ v *heatmapView }

func (r *heatmapRenderer) Layout(s fyne.Size) {
	v := r.v
	v.back.Resize(s)
	origin, cell := v.gridRect()
	if v.heat == nil {
		v.image.Resize(fyne.Size{})
		v.legend.Hide()
		return
	}
	v.legend.Show()
	v.image.Move(origin)
	v.image.Resize(fyne.NewSize(cell*float32(v.heat.x.Bins), cell*float32(v.heat.y.Bins)))
	size := min(theme.Size(theme.SizeNameText), cell*0.42)
	for c, t := range v.labels {
		if t == nil {
			continue
		}
		t.TextSize = size
		if cell < 18 {
			t.Hide() // too small to read: the colour says enough
		} else {
			t.Show()
		}
		x, y := c%v.heat.x.Bins, c/v.heat.x.Bins
		center := v.cellCenter(x, y)
		h := t.MinSize().Height
		t.Move(fyne.NewPos(center.X-cell/2, center.Y-h/2))
		t.Resize(fyne.NewSize(cell, h))
	}
	r.layoutAxes(origin, cell)
}

// layoutAxes places the ticks (every k-th when they would overlap), the titles and the legend.
func (r *heatmapRenderer) layoutAxes(origin fyne.Position, cell float32) {
	v := r.v
	w, h := cell*float32(v.heat.x.Bins), cell*float32(v.heat.y.Bins)
	line := fyne.MeasureText("0", theme.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Height
	widest := float32(0)
	for _, t := range v.xTicks {
		widest = max(widest, t.MinSize().Width)
	}
	every := max(1, int(math.Ceil(float64((widest+heatTickGap)/max(cell, 1)))))
	for b, t := range v.xTicks {
		t.Hidden = b%every != 0
		t.Move(fyne.NewPos(origin.X+float32(b)*cell, origin.Y+h+heatTickGap/2))
		t.Resize(fyne.NewSize(cell, line))
	}
	every = max(1, int(math.Ceil(float64(line/max(cell, 1)))))
	for b, t := range v.yTicks {
		t.Hidden = b%every != 0
		row := float32(v.heat.y.Bins - 1 - b)
		t.Move(fyne.NewPos(0, origin.Y+row*cell+(cell-line)/2))
		t.Resize(fyne.NewSize(origin.X-heatTickGap, line))
	}
	v.xTitle.Move(fyne.NewPos(origin.X, origin.Y+h+line+heatTickGap))
	v.xTitle.Resize(fyne.NewSize(w, line))
	v.yTitle.Move(fyne.NewPos(origin.X, origin.Y-line-heatTickGap/2))
	v.yTitle.Resize(fyne.NewSize(w, line))
	x := origin.X + w + 2*heatTickGap
	v.legend.Move(fyne.NewPos(x, origin.Y))
	v.legend.Resize(fyne.NewSize(heatLegendBar, h))
	for i, t := range v.legendTicks { // top, middle, bottom
		y := origin.Y + float32(i)*h/2 - line/2
		t.Move(fyne.NewPos(x+heatLegendBar+heatTickGap, min(max(y, origin.Y-line/2), origin.Y+h-line/2)))
		t.Resize(fyne.NewSize(heatLegendText, line))
	}
}
func (r *heatmapRenderer) MinSize() fyne.Size { return fyne.NewSize(200, 200) }

// Refresh follows the theme too (Fyne refreshes every widget when it changes): background,
// axis text and the cells' outlines.
func (r *heatmapRenderer) Refresh() {
	v := r.v
	v.back.FillColor = widgets.Color(widgets.ColorNamePlotBack)
	for _, ts := range [][]*canvas.Text{v.xTicks, v.yTicks, v.legendTicks, {v.xTitle, v.yTitle}} {
		for _, t := range ts {
			t.Color = widgets.Color(widgets.ColorNamePlotInk)
			t.TextSize = theme.Size(theme.SizeNameCaptionText)
		}
	}
	v.paint()
	r.Layout(r.v.Size())
	r.v.back.Refresh()
	r.v.image.Refresh()
}
func (r *heatmapRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.v.back, r.v.image}
	for _, t := range r.v.labels {
		if t != nil {
			objs = append(objs, t)
		}
	}
	objs = append(objs, r.v.xTitle, r.v.yTitle, r.v.legend)
	for _, ts := range [][]*canvas.Text{r.v.xTicks, r.v.yTicks, r.v.legendTicks} {
		for _, t := range ts {
			objs = append(objs, t)
		}
	}
	return objs
}
func (r *heatmapRenderer) Destroy() {}
