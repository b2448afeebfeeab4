package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// NewWrapLayout returns a layout that places objects at their minimum size left to right,
// starting a new row when the next one does not fit: a row of controls and buttons that wraps
// in a narrow window instead of widening it. Unlike Fyne's RowWrapLayout, whose minimum width
// is the width of its last layout (so a row laid out wide in a scroll never wraps again when
// the window narrows), its minimum width is always that of its widest object; its minimum
// height is that of the rows of its last layout (one row before the first), and the canvas
// lays the parents out again when it changes.
func NewWrapLayout() fyne.Layout { return &wrapLayout{} }

type wrapLayout struct {
	rows int // rows of the last layout
}

func (l *wrapLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objects {
		if o.Visible() {
			s := o.MinSize()
			w, h = max(w, s.Width), max(h, s.Height)
		}
	}
	if h == 0 {
		return fyne.Size{}
	}
	rows := max(l.rows, 1)
	return fyne.NewSize(w, float32(rows)*h+float32(rows-1)*theme.Padding())
}

func (l *wrapLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	var h float32
	for _, o := range objects {
		if o.Visible() {
			h = max(h, o.MinSize().Height)
		}
	}
	x, y, rows, first := float32(0), float32(0), 1, true
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		s := o.MinSize()
		if !first && x+s.Width > size.Width {
			x, y, rows = 0, y+h+pad, rows+1
		}
		first = false
		o.Move(fyne.NewPos(x, y+(h-s.Height)/2))
		o.Resize(s)
		x += s.Width + pad
	}
	l.rows = rows
}
