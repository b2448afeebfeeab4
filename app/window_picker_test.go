package app

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"pcgwb/problems"
)

// On first launch the selected problem is in view: zelda-v0, the default, is near the end
// of the list, and selecting it before the real window was laid out (as New does) scrolled
// nothing. Here too the picker is given its problem before it has a size.
func TestPickerShowsTheSelectedProblemAtFirstLaunch(t *testing.T) {
	test.NewTempApp(t)
	p := newProblemPicker(problems.List(), nil, nil)
	if !p.setSelected("zelda-v0") {
		t.Fatal("zelda-v0 is not registered")
	}
	w := test.NewWindow(p.root)
	defer w.Close()
	w.Resize(fyne.NewSize(300, 400))
	if offset := p.list.GetScrollOffset(); offset <= 0 {
		t.Fatalf("the list is scrolled by %v: the selected row %d is out of view", offset, indexOf(p.shown, "zelda-v0"))
	}
}

// Under the Projector look every row of the problem list has the look's text size: rows made
// before the switch kept the old size and the list mixed two row heights.
func TestPickerRowsFollowTheLook(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.app.Settings().SetTheme(newThemeNamed(themeProjector))
	wb.picker.list.Refresh()
	want := theme.TextSize()
	p := &presser{wb: wb, o: PressOptions{children: rendererChildren}, rep: &PressReport{}}
	n := 0
	p.walk(wb.picker.list, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok && tx.Text != "" {
			n++
			if tx.TextSize != want {
				t.Errorf("row %q has text size %v, the look's is %v", tx.Text, tx.TextSize, want)
			}
		}
	})
	if n == 0 {
		t.Fatal("no row found in the problem list")
	}
}
