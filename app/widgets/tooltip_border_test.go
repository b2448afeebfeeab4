package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A tipped edge of a Border keeps its place: tipAll replaces the label by its wrapper, and the
// wrapper must be laid out where the label was (a Sample tab header's pass rates slid to the
// middle, over the status, when it was laid out as centre content).
func TestTipAllKeepsBorderEdges(t *testing.T) {
	goldenApp(t)
	for _, tc := range []struct {
		name  string
		build func(edge, centre fyne.CanvasObject) *fyne.Container
		at    func(size, edge fyne.Size) fyne.Position
	}{
		{"left", func(e, c fyne.CanvasObject) *fyne.Container { return container.NewBorder(nil, nil, e, nil, c) },
			func(fyne.Size, fyne.Size) fyne.Position { return fyne.NewPos(0, 0) }},
		{"right", func(e, c fyne.CanvasObject) *fyne.Container { return container.NewBorder(nil, nil, nil, e, c) },
			func(s, e fyne.Size) fyne.Position { return fyne.NewPos(s.Width-e.Width, 0) }},
		{"top", func(e, c fyne.CanvasObject) *fyne.Container { return container.NewBorder(e, nil, nil, nil, c) },
			func(fyne.Size, fyne.Size) fyne.Position { return fyne.NewPos(0, 0) }},
		{"bottom", func(e, c fyne.CanvasObject) *fyne.Container { return container.NewBorder(nil, e, nil, nil, c) },
			func(s, e fyne.Size) fyne.Position { return fyne.NewPos(0, s.Height-e.Height) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edge, centre := widget.NewLabel("Quality 0.0%"), widget.NewLabel("status")
			box := tc.build(edge, centre)
			if missing := TipAll(box, map[fyne.CanvasObject]string{edge: "pass rates", centre: "what was sampled"}); len(missing) > 0 {
				t.Fatalf("not tipped: %v", missing)
			}
			size := fyne.NewSize(600, 200)
			box.Resize(size)
			box.Layout.Layout(box.Objects, size)
			var wrapper fyne.CanvasObject
			for _, o := range box.Objects {
				if tp, ok := o.(*Tipped); ok && tp.Object == edge {
					wrapper = o
				}
			}
			if wrapper == nil {
				t.Fatal("the edge was not wrapped")
			}
			min := edge.MinSize()
			if want := tc.at(size, min); wrapper.Position() != want {
				t.Errorf("the tipped %s edge is at %v, want %v", tc.name, wrapper.Position(), want)
			}
			if s := wrapper.Size(); (tc.name == "left" || tc.name == "right") && s.Width != min.Width ||
				(tc.name == "top" || tc.name == "bottom") && s.Height != min.Height {
				t.Errorf("the tipped %s edge is %v, want its minimum %v across", tc.name, s, min)
			}
		})
	}
}

// A control laid out before it was tipped sits at the wrapper's origin, not at its old
// position inside the wrapper.
func TestTipAllResetsControlPositions(t *testing.T) {
	goldenApp(t)
	a, b := widget.NewButton("first", nil), widget.NewButton("second", nil)
	row := container.NewHBox(a, b)
	row.Resize(fyne.NewSize(400, 40)) // lays the buttons out: b moves right of a
	if b.Position().X == 0 {
		t.Fatal("the row did not lay the buttons out")
	}
	TipAll(row, map[fyne.CanvasObject]string{a: "one", b: "two"})
	w := test.NewWindow(row)
	defer w.Close()
	w.Resize(fyne.NewSize(400, 100))
	for _, o := range row.Objects {
		tp, ok := o.(*Tipped)
		if !ok {
			t.Fatalf("%T not wrapped", o)
		}
		if got := tp.Object.Position(); got != fyne.NewPos(0, 0) {
			t.Errorf("%q is at %v inside its wrapper, want the origin", tp.Object.(*widget.Button).Text, got)
		}
	}
}
