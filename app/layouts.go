package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// fixedWidth gives obj a minimum width (entries and sliders are too narrow in an HBox).
func fixedWidth(width float32, obj fyne.CanvasObject) fyne.CanvasObject {
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

// wrappingVBox stacks objects like a VBox, but first tells each its width so that word-wrapped
// labels report their real height; a plain VBox asks for the height before the width is known
// and lets long descriptions overlap what follows them.
func wrappingVBox(objs ...fyne.CanvasObject) *fyne.Container {
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
