package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"pcgwb/problems"
)

// smbDetailMember is the first level of a seeded smbtile-v0 sample with its info and
// metrics: a 150×16 Super Mario Bros map, the widest level any problem draws (2400 pixels at
// one pixel per atlas pixel). smbtile needs no data files, unlike smb-v0 whose picture has
// the same size, so the test does not depend on which data other tests installed.
func smbDetailMember(t *testing.T) (problems.Problem, member) {
	t.Helper()
	const name = "smbtile-v0"
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	items, err := problems.SampleN(context.Background(), p, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.Info(items[0].Content)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Quality(info)
	return p, newMember(0, problems.Scored{Content: items[0].Content, Control: items[0].Control, Info: info,
		Quality: q, Fitness: q, Cell: problems.NoCell})
}

// insideWindow fails the test unless o is shown and lies wholly inside a window of size win.
func insideWindow(t *testing.T, what string, o fyne.CanvasObject, win fyne.Size) {
	t.Helper()
	if o == nil || !o.Visible() {
		t.Errorf("%s is not shown", what)
		return
	}
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	size := o.Size()
	if size.Width <= 0 || size.Height <= 0 {
		t.Errorf("%s has no size (%v)", what, size)
		return
	}
	if pos.X < 0 || pos.Y < 0 || pos.X+size.Width > win.Width+0.5 || pos.Y+size.Height > win.Height+0.5 {
		t.Errorf("%s at %v, size %v, is not inside the %v window", what, pos, size, win)
	}
}

// The level dialog of the widest level (Super Mario Bros) fits a 1024×700 and a 1600×1000
// window: the picture is scaled (and scrolls), the metrics and every button are inside the
// window. Its markup is a golden file per size.
func TestGoldenLevelDetailFits(t *testing.T) {
	for _, tc := range []struct {
		w, h float32
	}{{1024, 700}, {1600, 1000}} {
		t.Run(fmt.Sprintf("%vx%v", tc.w, tc.h), func(t *testing.T) {
			wb := newTestWorkbench(t)
			wb.app.Settings().SetTheme(newTheme()) // the golden files do not follow a saved theme
			win := fyne.NewSize(tc.w, tc.h)
			wb.Window.Resize(win)
			p, m := smbDetailMember(t)
			dv := wb.showDetail("smbtile-v0", p, m, nil)
			defer dv.dialog.Hide()
			eventually(t, "the solution lookup", func() bool { return !strings.Contains(dv.watchNote.Text, "looking") })
			if got := wb.Window.Canvas().Size(); got != win {
				t.Fatalf("the dialog resized the window to %v", got)
			}
			if dv.picture == nil {
				t.Fatal("no picture")
			}
			objects := map[string]fyne.CanvasObject{
				"the picture's view": dv.pictureView, "the title": dv.title, "the fitness": dv.fitness,
				"the control": dv.control, "Edit": dv.editButton, "PNG": dv.pngButton, "JSON": dv.jsonButton,
				"Tiled / text": dv.levelsButton, "Play": dv.playButton, "Watch": dv.watchButton,
				"Watch my play": dv.watchPlayButton,
			}
			for i, b := range dv.badges {
				objects[fmt.Sprintf("badge %d", i)] = b
			}
			for what, o := range objects {
				insideWindow(t, what, o, win)
			}
			top := wb.Window.Canvas().Overlays().Top()
			if top == nil {
				t.Fatal("the dialog is not shown")
			}
			checkGoldenMarkup(t, fmt.Sprintf("level_detail_%vx%v.xml", tc.w, tc.h), top)
		})
	}
}
