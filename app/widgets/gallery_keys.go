package widgets

import (
	"fyne.io/fyne/v2"
)

// The gallery from the keyboard: Tab reaches its cells (a Thumb takes the focus), the arrow
// keys move the focus from cell to cell (up and down by a row of the grid shown, Home and End
// to the first and last), and Enter or Space opens the focused cell as a click does.

var _ fyne.Focusable = (*Thumb)(nil)

// FocusGained outlines the cell and scrolls it into view.
func (t *Thumb) FocusGained() {
	t.focused = true
	t.Refresh()
	if t.gallery != nil {
		t.gallery.reveal(t)
	}
}

// FocusLost takes the focus outline away.
func (t *Thumb) FocusLost() {
	t.focused = false
	t.Refresh()
}

// Focused reports whether the keyboard's focus is on the cell.
func (t *Thumb) Focused() bool { return t.focused }

// TypedRune ignores text (Space arrives as a key).
func (t *Thumb) TypedRune(rune) {}

// TypedKey opens the cell (Enter, Space) or moves the focus (arrows, Home, End).
func (t *Thumb) TypedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		t.Tapped(nil)
	case fyne.KeyLeft:
		t.moveFocus(-1, 0)
	case fyne.KeyRight:
		t.moveFocus(1, 0)
	case fyne.KeyUp:
		t.moveFocus(0, -1)
	case fyne.KeyDown:
		t.moveFocus(0, 1)
	case fyne.KeyHome:
		t.moveFocus(-len(t.galleryThumbs()), 0)
	case fyne.KeyEnd:
		t.moveFocus(len(t.galleryThumbs()), 0)
	}
}

func (t *Thumb) galleryThumbs() []*Thumb {
	if t.gallery == nil {
		return nil
	}
	return t.gallery.thumbs
}

// moveFocus gives the focus to the cell dx cells and dy rows away (clamped to the gallery).
func (t *Thumb) moveFocus(dx, dy int) {
	thumbs := t.galleryThumbs()
	i := -1
	for k, o := range thumbs {
		if o == t {
			i = k
		}
	}
	if i < 0 {
		return
	}
	cols := max(t.gallery.layout.plan.cols, 1)
	j := i + dx + dy*cols
	if dy != 0 && (j < 0 || j >= len(thumbs)) {
		return // no row above or below: stay
	}
	j = min(max(j, 0), len(thumbs)-1)
	if j == i {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(t); c != nil {
		c.Focus(thumbs[j])
	}
}

// reveal scrolls the gallery so that cell t is in view.
func (g *Gallery) reveal(t *Thumb) {
	top, bottom := t.Position().Y, t.Position().Y+t.Size().Height
	view := g.scroll.Size().Height
	off := g.scroll.Offset.Y
	switch {
	case top < off:
		off = top
	case bottom > off+view:
		off = bottom - view
	default:
		return
	}
	g.scroll.ScrollToOffset(fyne.NewPos(g.scroll.Offset.X, max(off, 0)))
}
