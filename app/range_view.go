package app

import (
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
}

// newHeatmapView returns an empty heatmap; onTap receives the tapped cell.
func newHeatmapView(onTap func(x, y int)) *heatmapView {
	v := &heatmapView{onTap: onTap, selected: -1}
	v.image = &canvas.Image{FillMode: canvas.ImageFillStretch, ScaleMode: canvas.ImageScalePixels}
	v.back = canvas.NewRectangle(pal('k'))
	v.ExtendBaseWidget(v)
	return v
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
		for c, val := range h.Value {
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
	}
	v.paint()
	v.Refresh()
}

// cellText is what cell (x, y) shows ("" when empty).
func (v *heatmapView) cellText(x, y int) string {
	if v.heat == nil {
		return ""
	}
	if t := v.labels[y*v.heat.X.Bins+x]; t != nil {
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

// gridRect is where the cells are drawn: square cells, as large as fit, centred.
func (v *heatmapView) gridRect() (origin fyne.Position, cell float32) {
	if v.heat == nil {
		return fyne.Position{}, 0
	}
	s := v.Size()
	cell = float32(math.Floor(math.Min(float64(s.Width/float32(v.heat.X.Bins)), float64(s.Height/float32(v.heat.Y.Bins)))))
	w, h := cell*float32(v.heat.X.Bins), cell*float32(v.heat.Y.Bins)
	return fyne.NewPos(float32(math.Floor(float64((s.Width-w)/2))), float32(math.Floor(float64((s.Height-h)/2)))), cell
}

// cellAt maps a position to a cell (y counted upwards, as drawn).
func (v *heatmapView) cellAt(p fyne.Position) (x, y int, ok bool) {
	origin, cell := v.gridRect()
	if cell <= 0 {
		return 0, 0, false
	}
	x = int(math.Floor(float64((p.X - origin.X) / cell)))
	row := int(math.Floor(float64((p.Y - origin.Y) / cell)))
	y = v.heat.Y.Bins - 1 - row
	return x, y, x >= 0 && row >= 0 && x < v.heat.X.Bins && y >= 0
}

// cellCenter is the position of the middle of cell (x, y).
func (v *heatmapView) cellCenter(x, y int) fyne.Position {
	origin, cell := v.gridRect()
	row := v.heat.Y.Bins - 1 - y
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
		return
	}
	v.image.Move(origin)
	v.image.Resize(fyne.NewSize(cell*float32(v.heat.X.Bins), cell*float32(v.heat.Y.Bins)))
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
		x, y := c%v.heat.X.Bins, c/v.heat.X.Bins
		center := v.cellCenter(x, y)
		h := t.MinSize().Height
		t.Move(fyne.NewPos(center.X-cell/2, center.Y-h/2))
		t.Resize(fyne.NewSize(cell, h))
	}
}
func (r *heatmapRenderer) MinSize() fyne.Size { return fyne.NewSize(200, 200) }
func (r *heatmapRenderer) Refresh() {
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
	return objs
}
func (r *heatmapRenderer) Destroy() {}
