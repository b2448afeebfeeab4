package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// FixedWidth gives obj a minimum width (entries and sliders are too narrow in an HBox).
func FixedWidth(width float32, obj fyne.CanvasObject) fyne.CanvasObject {
	return container.New(&minWidthLayout{width}, obj)
}

type minWidthLayout struct{ width float32 }

func (l *minWidthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *minWidthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(l.width, 0)
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// WrappingVBox stacks objects like a VBox, but first tells each its width so that word-wrapped
// labels report their real height; a plain VBox asks for the height before the width is known
// and lets long descriptions overlap what follows them.
func WrappingVBox(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(wrappingVBoxLayout{}, objs...)
}

type wrappingVBoxLayout struct{}

func (wrappingVBoxLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		o.Resize(fyne.NewSize(size.Width, o.Size().Height))
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h + pad
	}
}

func (wrappingVBoxLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	pad := theme.Padding()
	var s fyne.Size
	n := 0
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		n++
	}
	if n > 1 {
		s.Height += pad * float32(n-1)
	}
	return s
}

// NewTableLayout returns a layout that arranges cells in rows of cols, each column as wide as its widest cell; spare
// width goes to the first column (a table's names), rows are as tall as their tallest cell.
func NewTableLayout(cols int) fyne.Layout { return tableLayout{cols: cols} }

type tableLayout struct{ cols int }

func (l tableLayout) widths(objs []fyne.CanvasObject) []float32 {
	w := make([]float32, l.cols)
	for i, o := range objs {
		w[i%l.cols] = max(w[i%l.cols], o.MinSize().Width)
	}
	return w
}

func (l tableLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if l.cols == 0 {
		return
	}
	pad := theme.Padding()
	w := l.widths(objs)
	total := pad * float32(l.cols-1)
	for _, x := range w {
		total += x
	}
	if extra := size.Width - total; extra > 0 {
		w[0] += extra
	}
	y := float32(0)
	for r := 0; r*l.cols < len(objs); r++ {
		row := objs[r*l.cols : min(len(objs), (r+1)*l.cols)]
		h := float32(0)
		for _, o := range row {
			h = max(h, o.MinSize().Height)
		}
		x := float32(0)
		for c, o := range row {
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(w[c], h))
			x += w[c] + pad
		}
		y += h
	}
}

func (l tableLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if l.cols == 0 {
		return fyne.Size{}
	}
	var s fyne.Size
	for _, x := range l.widths(objs) {
		s.Width += x
	}
	s.Width += theme.Padding() * float32(l.cols-1)
	for r := 0; r*l.cols < len(objs); r++ {
		h := float32(0)
		for _, o := range objs[r*l.cols : min(len(objs), (r+1)*l.cols)] {
			h = max(h, o.MinSize().Height)
		}
		s.Height += h
	}
	return s
}
