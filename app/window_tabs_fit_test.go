package app

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
)

// In a narrow window the tabs drop their icons so that every title shows (under the Projector
// look a real 1024×700 window hid Games and LLM behind the tab bar's overflow button); wide
// again, the icons come back.
func TestTabsFitANarrowWindow(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.app.Settings().SetTheme(newThemeNamed(themeProjector))
	icons := func() int {
		n := 0
		for _, it := range wb.tabs.Items {
			if it.Icon != nil {
				n++
			}
		}
		return n
	}
	// needed is what the tab buttons ask for, measured on their renderers.
	needed := func() float32 {
		p := &presser{wb: wb, o: PressOptions{children: rendererChildren}, rep: &PressReport{}}
		var w float32
		p.walk(wb.tabs, func(o fyne.CanvasObject) {
			if reflect.TypeOf(o).String() == "*container.tabButton" {
				w += o.MinSize().Width
			}
		})
		return w
	}
	for _, size := range []fyne.Size{{Width: 1600, Height: 900}, {Width: 1024, Height: 700}, {Width: 900, Height: 700}, {Width: 1600, Height: 900}} {
		wb.Window.Resize(size)
		if got, have := needed(), wb.tabs.Size().Width; got > have {
			t.Errorf("at %v the tab buttons need %v and the bar has %v: titles are clipped", size, got, have)
		}
		if size.Width == 1600 && icons() != len(tabTable) {
			t.Errorf("at %v only %d of %d tabs have their icon", size, icons(), len(tabTable))
		}
	}
	wb.Window.Resize(fyne.NewSize(1024, 700))
	if icons() != 0 {
		t.Errorf("%d tabs keep their icon in a 1024-pixel window under the Projector look (the bar has %v, titles with icons need %v)",
			icons(), wb.tabs.Size().Width, tabBarWidth(true))
	}
}
