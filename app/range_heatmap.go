package app

import (
	"image"
	"image/color"
	"math"

	"pcgwb/app/widgets"
	"pcgwb/problems/search"
)

// heatAxis is one axis of an expressive-range heatmap: a metric cut into Bins equal bins over
// [Min, Max]; values outside fall into the end bins (as MAP-Elites' axes do).
type heatAxis struct {
	Field    string
	Min, Max float64
	Bins     int
}

// bin returns the bin of v.
func (a heatAxis) bin(v float64) int {
	if a.Bins <= 1 || math.IsNaN(v) || !(a.Max > a.Min) {
		return 0
	}
	b := int(math.Floor((v - a.Min) / (a.Max - a.Min) * float64(a.Bins)))
	return max(0, min(a.Bins-1, b))
}

// binRange is the interval of values bin b holds.
func (a heatAxis) binRange(b int) (lo, hi float64) {
	w := (a.Max - a.Min) / float64(max(a.Bins, 1))
	return a.Min + float64(b)*w, a.Min + float64(b+1)*w
}

// fitAxis chooses an axis for the values of a metric: a bin per integer when the values are
// whole numbers spanning at most maxBins of them (a count of enemies should not be split into
// fractions), otherwise maxBins equal bins from the smallest to the largest value.
func fitAxis(field string, vals []float64, maxBins int) heatAxis {
	return heatAxis(search.FitAxis(field, vals, maxBins))
}

// heatmap is a grid of cells over two axes; each cell holds the positions (into the member
// list it was built from) of the members that fall in it, or, for a MAP-Elites archive, the
// elite's value.
type heatmap struct {
	x, y heatAxis
	// members[y*X.Bins+x] lists member positions; nil for an archive.
	members [][]int
	// value[y*X.Bins+x] is the cell's value (count, or elite fitness); NaN for an empty cell.
	value []float64
	// skipped counts members without a value for one of the axes.
	skipped int
}

// Cells is the number of cells.
func (h *heatmap) Cells() int { return h.x.Bins * h.y.Bins }

// At returns the value of cell (x, y), NaN when empty.
func (h *heatmap) At(x, y int) float64 { return h.value[y*h.x.Bins+x] }

// maxValue is the largest value of a filled cell (0 when none is).
func (h *heatmap) maxValue() float64 {
	m := 0.0
	for _, v := range h.value {
		if !math.IsNaN(v) {
			m = math.Max(m, v)
		}
	}
	return m
}

// filled counts the non-empty cells.
func (h *heatmap) filled() int {
	n := 0
	for _, v := range h.value {
		if !math.IsNaN(v) {
			n++
		}
	}
	return n
}

// expressiveRange bins members by two metrics (Smith & Whitehead's expressive range): the axes
// are fitted to the values (FitAxis with maxBins), and a cell's value is how many members it
// holds.
func expressiveRange(members []member, xField, yField string, maxBins int) *heatmap {
	var xs, ys []float64
	var at []int
	skipped := 0
	for i := range members {
		x, okx := members[i].metric(xField)
		y, oky := members[i].metric(yField)
		if !okx || !oky {
			skipped++
			continue
		}
		xs, ys, at = append(xs, x), append(ys, y), append(at, i)
	}
	h := &heatmap{x: fitAxis(xField, xs, maxBins), y: fitAxis(yField, ys, maxBins), skipped: skipped}
	h.members = make([][]int, h.Cells())
	h.value = make([]float64, h.Cells())
	for k := range xs {
		c := h.y.bin(ys[k])*h.x.Bins + h.x.bin(xs[k])
		h.members[c] = append(h.members[c], at[k])
	}
	for c, m := range h.members {
		h.value[c] = math.NaN()
		if len(m) > 0 {
			h.value[c] = float64(len(m))
		}
	}
	return h
}

// archiveHeatmap is a MAP-Elites archive as a heatmap: the cell value is the elite's fitness,
// and Members[c] the positions of the members in that cell (members carry their archive cell).
func archiveHeatmap(v *search.ArchiveView, members []member) *heatmap {
	if v == nil || len(v.Axes) != 2 {
		return nil
	}
	ax, ay := v.Axes[0], v.Axes[1]
	h := &heatmap{
		x: heatAxis{Field: ax.Field, Min: ax.Min, Max: ax.Max, Bins: max(ax.Bins, 1)},
		y: heatAxis{Field: ay.Field, Min: ay.Min, Max: ay.Max, Bins: max(ay.Bins, 1)},
	}
	h.value = make([]float64, h.Cells())
	h.members = make([][]int, h.Cells())
	for i := range h.value {
		h.value[i] = math.NaN()
	}
	for _, c := range v.Cells {
		if c.X >= 0 && c.X < h.x.Bins && c.Y >= 0 && c.Y < h.y.Bins {
			h.value[c.Y*h.x.Bins+c.X] = c.Fitness
		}
	}
	for i := range members {
		if c := members[i].Cell; c >= 0 && c < h.Cells() {
			h.members[c] = append(h.members[c], i)
		}
	}
	return h
}

// heatRamp is the palette ramp from a sparse to a full cell.
var heatRamp = []color.RGBA{pal('n'), pal('b'), pal('t'), pal('g'), pal('l'), pal('y')}

// heatColor maps t in [0, 1] onto the ramp, interpolating between palette colours.
func heatColor(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(heatRamp)-1)
	i := int(math.Floor(f))
	if i >= len(heatRamp)-1 {
		return heatRamp[len(heatRamp)-1]
	}
	a, b, u := heatRamp[i], heatRamp[i+1], f-float64(i)
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*u)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// drawHeatmap paints the heatmap with cell×cell pixel squares (y grows upwards, as on a plot),
// a one-pixel gap between cells, empty cells transparent and the selected cell (-1 for none)
// outlined. Values are scaled by the largest one, or by [0, 1] when scaleToOne (fitness). The
// outlines take the current theme's plot colours (the cell colours mean the same in every look).
func drawHeatmap(h *heatmap, cell int, selected int, scaleToOne bool) *image.RGBA {
	empty, gap, mark := rgba(widgets.Color(widgets.ColorNamePlotGrid)), rgba(widgets.Color(widgets.ColorNamePlotBack)), rgba(widgets.Color(widgets.ColorNamePlotInk))
	w, ht := h.x.Bins*cell, h.y.Bins*cell
	img := image.NewRGBA(image.Rect(0, 0, w, ht))
	top := h.maxValue()
	if scaleToOne || top == 0 {
		top = 1
	}
	for y := 0; y < h.y.Bins; y++ {
		for x := 0; x < h.x.Bins; x++ {
			v := h.At(x, y)
			x0, y0 := x*cell, (h.y.Bins-1-y)*cell
			if math.IsNaN(v) {
				fillRect(img, x0, y0, cell, cell, color.RGBA{})
				drawOutline(img, x0, y0, cell, empty)
			} else {
				// a square-root scale keeps a cell of one level visible next to a cell of fifty
				fillRect(img, x0, y0, cell, cell, heatColor(math.Sqrt(v/top)))
				drawOutline(img, x0, y0, cell, gap)
			}
			if y*h.x.Bins+x == selected {
				drawOutline(img, x0, y0, cell, mark)
				if cell > 6 {
					drawOutline(img, x0+1, y0+1, cell-2, mark)
				}
			}
		}
	}
	return img
}

// rgba is c as an opaque colour (a translucent theme colour mixed over the plot background,
// so the drawing looks as it would on screen).
func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	if a == 0xffff {
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
	}
	br, bg, bb, _ := widgets.Color(widgets.ColorNamePlotBack).RGBA()
	mix := func(fg, bk uint32) uint8 { return uint8((fg + bk*(0xffff-a)/0xffff) >> 8) }
	return color.RGBA{mix(r, br), mix(g, bg), mix(b, bb), 0xff}
}

func fillRect(img *image.RGBA, x0, y0, w, h int, c color.RGBA) {
	for y := y0; y < y0+h; y++ {
		for x := x0; x < x0+w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func drawOutline(img *image.RGBA, x0, y0, size int, c color.RGBA) {
	for i := 0; i < size; i++ {
		img.SetRGBA(x0+i, y0, c)
		img.SetRGBA(x0+i, y0+size-1, c)
		img.SetRGBA(x0, y0+i, c)
		img.SetRGBA(x0+size-1, y0+i, c)
	}
}
