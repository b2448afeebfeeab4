package app

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
)

// tipExempt are the controls that need no tooltip, by why: free-text entries whose label or
// placeholder already says what to type. Everything else a tab shows — buttons, selects,
// checks, radio groups, sliders, the workbench's numeric entries, badges — must explain itself.
func tipExempt(o fyne.CanvasObject) bool {
	_, plainEntry := o.(*widget.Entry) // prompts, names, paths, searches: placeholders explain them
	return plainEntry
}

// control names a widget the tooltip rule covers ("" for anything else).
func control(o fyne.CanvasObject) string {
	switch v := o.(type) {
	case *widget.Button:
		return "button " + v.Text
	case *widget.Select:
		return "select " + strings.Join(v.Options, "|")
	case *widget.SelectEntry:
		return "select entry " + v.PlaceHolder
	case *widget.Check:
		return "check " + v.Text
	case *widget.RadioGroup:
		return "radio " + strings.Join(v.Options, "|")
	case *widget.Slider:
		return fmt.Sprintf("slider %g–%g", v.Min, v.Max)
	case *widgets.Entry:
		return "entry " + v.PlaceHolder
	case *widget.Entry:
		return "text entry " + v.PlaceHolder
	case *widgets.Badge:
		return "badge " + v.Label
	}
	return ""
}

// untipped walks a widget tree and lists the controls without a tooltip; skip are subtrees
// exempt as a whole.
func untipped(root fyne.CanvasObject, skip map[fyne.CanvasObject]bool) []string {
	var out []string
	var walk func(o fyne.CanvasObject, inTip bool)
	walk = func(o fyne.CanvasObject, inTip bool) {
		if o == nil || skip[o] {
			return
		}
		if t, ok := o.(*widgets.Tipped); ok {
			walk(t.Object, t.Text != "")
			return
		}
		if name := control(o); name != "" {
			_, badge := o.(*widgets.Badge) // badges explain themselves (badgeTips)
			if !inTip && !badge && !tipExempt(o) {
				out = append(out, name)
			}
			return // a control's insides are not controls
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c, false)
			}
		case *widget.Form: // its items (its own Submit/Cancel are not shown without callbacks)
			for _, it := range v.Items {
				walk(it.Widget, false)
			}
		case *container.AppTabs: // every tab, not only the one in front
			for _, it := range v.Items {
				walk(it.Content, false)
			}
		case fyne.Widget:
			// A tipped composite (an accordion) shows its tip over all of itself: its header
			// button is explained by it.
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c, inTip)
			}
		}
	}
	walk(root, false)
	return out
}

// Every tab's buttons, selects, checks, radio groups, sliders, numeric entries and badges have
// a tooltip (tipExempt lists the exceptions and why). Exempt as a whole: the Games tab's board
// and move buttons, each of which says its move in its own text ("X at row 1, column 2").
func TestEveryControlHasATooltip(t *testing.T) {
	wb := newTestWorkbench(t)
	dp := wb.panels["games"].(*duelPanel)
	skip := map[fyne.CanvasObject]bool{dp.grid: true, dp.moves: true}
	for _, spec := range tabTable {
		t.Run(spec.name, func(t *testing.T) {
			wb.showTab(spec.name)
			if missing := untipped(wb.tabItems[spec.name].Content, skip); len(missing) > 0 {
				t.Errorf("%d controls without a tooltip: %q", len(missing), missing)
			}
		})
	}
}

// In the level dialog the badges and the fitness explain themselves in the dialog's own tip
// layer (a window layer would draw under the dialog).
func TestDetailDialogTooltips(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.samples.Sample()
	wait(t, wb)
	th := wb.samples.gallery.Thumbs()[0]
	test.Tap(th)
	dv := wb.detail
	if dv == nil {
		t.Fatal("no level dialog")
	}
	for _, b := range dv.badges {
		b.MouseIn(&desktop.MouseEvent{})
		if got := b.Tooltip(); got == "" {
			t.Errorf("%s badge in the dialog shows %q", b.Label, got)
		}
		b.MouseOut()
	}
}
