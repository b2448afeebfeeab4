package app

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The heatmap from the keyboard: Tab reaches it (the map takes the focus, outlined), the
// arrow keys move the outlined cell (up is up the y axis, as drawn), Home and End go to the
// first and the last filled cell, and Enter or Space lists the outlined cell's levels as a
// click on it does.

var _ fyne.Focusable = (*heatmapView)(nil)

// FocusGained outlines the map and, when no cell is outlined yet, the first filled one.
func (v *heatmapView) FocusGained() {
	v.back.StrokeColor, v.back.StrokeWidth = theme.Color(theme.ColorNameFocus), 2
	v.back.Refresh()
	if v.heat != nil && (v.selected < 0 || v.selected >= v.heat.Cells()) {
		v.Select(max(v.filledCell(1), 0))
	}
}

// FocusLost takes the map's focus outline away (the outlined cell stays).
func (v *heatmapView) FocusLost() {
	v.back.StrokeWidth = 0
	v.back.Refresh()
}

// TypedRune ignores text (Space arrives as a key).
func (v *heatmapView) TypedRune(rune) {}

// TypedKey moves the outlined cell or lists its levels.
func (v *heatmapView) TypedKey(e *fyne.KeyEvent) {
	h := v.heat
	if h == nil {
		return
	}
	c := v.selected
	if c < 0 || c >= h.Cells() {
		c = 0
	}
	x, y := c%h.x.Bins, c/h.x.Bins
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		if v.onTap != nil {
			v.onTap(x, y)
		}
		return
	case fyne.KeyLeft:
		x--
	case fyne.KeyRight:
		x++
	case fyne.KeyUp:
		y++
	case fyne.KeyDown:
		y--
	case fyne.KeyHome:
		if f := v.filledCell(1); f >= 0 {
			x, y = f%h.x.Bins, f/h.x.Bins
		}
	case fyne.KeyEnd:
		if f := v.filledCell(-1); f >= 0 {
			x, y = f%h.x.Bins, f/h.x.Bins
		}
	default:
		return
	}
	x, y = min(max(x, 0), h.x.Bins-1), min(max(y, 0), h.y.Bins-1)
	v.Select(y*h.x.Bins + x)
}

// filledCell is the first (dir 1) or last (dir -1) cell that holds something, -1 when none.
func (v *heatmapView) filledCell(dir int) int {
	n := v.heat.Cells()
	for k := range n {
		c := k
		if dir < 0 {
			c = n - 1 - k
		}
		if !math.IsNaN(v.heat.value[c]) {
			return c
		}
	}
	return -1
}
