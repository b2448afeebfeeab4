package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
)

// problemPicker lists every registered problem, narrowed by a filter as you type.
type problemPicker struct {
	filter *widgets.Entry
	list   *widget.List

	names    []string        // all registered names, sorted
	shown    []string        // names matching the filter
	missing  map[string]bool // registered, but its data files are not on this machine
	selected string
	// onPick is called when the user (or SetSelected) picks a different problem.
	onPick func(name string)
	root   fyne.CanvasObject
}

func newProblemPicker(names []string, keys keyHandler, onPick func(string)) *problemPicker {
	p := &problemPicker{names: names, shown: names, onPick: onPick, missing: map[string]bool{}}
	for _, n := range names {
		p.missing[n] = problems.Unavailable(n) != nil
	}
	p.filter = newEntry(keys)
	p.filter.SetPlaceHolder("Filter problems…  (Ctrl+F)")
	p.filter.OnChanged = p.applyFilter
	p.filter.OnSubmitted = func(string) {
		// Enter picks the first match, so typing "sok⏎" is enough to switch problem.
		if len(p.shown) > 0 {
			p.list.Select(0)
		}
	}
	// Compact rows (text with a small padding): ten problems or more fit at the default size.
	p.list = widget.NewList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject {
			t := canvas.NewText("binary-large-v0", theme.Color(theme.ColorNameForeground))
			t.TextSize = theme.TextSize()
			return container.New(layout.NewCustomPaddedLayout(1, 1, 6, 6), t)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			t := o.(*fyne.Container).Objects[0].(*canvas.Text)
			name := p.shown[id]
			// The size is the theme's now, not the template's: rows made before a theme change
			// (Projector's larger text) would keep the old size and the list mix row heights.
			t.TextSize = theme.TextSize()
			t.Text, t.Color = name, theme.Color(theme.ColorNameForeground)
			if p.missing[name] {
				t.Text, t.Color = name+"  · needs data", colorMuted()
			}
			t.Refresh()
		},
	)
	p.list.OnSelected = func(id widget.ListItemID) {
		if id < 0 || id >= len(p.shown) || p.shown[id] == p.selected {
			return
		}
		p.selected = p.shown[id]
		if p.onPick != nil {
			p.onPick(p.selected)
		}
	}
	p.root = container.NewBorder(p.filter, nil, nil, nil, container.New(&scrollToSelected{p: p}, p.list))
	return p
}

// scrollToSelected lays out the list and, the first time it gets a real size, scrolls the
// selected problem into view: selecting it before the window was laid out scrolled nothing, so
// on first launch the default problem (zelda, near the end) was out of view.
type scrollToSelected struct {
	p    *problemPicker
	done bool
}

func (l *scrollToSelected) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
	if l.done || size.Height <= 0 {
		return
	}
	l.done = true
	if i := indexOf(l.p.shown, l.p.selected); i >= 0 {
		l.p.list.ScrollTo(i)
	}
}

// MinSize is a stack's: the largest of its objects'.
func (l *scrollToSelected) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return layout.NewStackLayout().MinSize(objects)
}

// Names returns the names currently listed (after filtering).
func (p *problemPicker) Names() []string { return p.shown }

// Selected is the picked problem's name ("" before any).
func (p *problemPicker) Selected() string { return p.selected }

// setSelected picks a problem by name; it reports false when the name is not registered.
func (p *problemPicker) setSelected(name string) bool {
	if indexOf(p.names, name) < 0 {
		return false
	}
	if indexOf(p.shown, name) < 0 {
		p.filter.SetText("") // the filter hid it: show everything again
	}
	if i := indexOf(p.shown, name); i >= 0 {
		p.list.Select(i)
	}
	return true
}

func (p *problemPicker) applyFilter(text string) {
	words := strings.Fields(strings.ToLower(text))
	p.shown = p.shown[:0:0]
	for _, n := range p.names {
		if matchesAll(n, words) {
			p.shown = append(p.shown, n)
		}
	}
	p.list.UnselectAll()
	p.list.Refresh()
	if i := indexOf(p.shown, p.selected); i >= 0 {
		p.list.Select(i) // same name again: no onPick
	}
}

func matchesAll(name string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(name, w) {
			return false
		}
	}
	return true
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
