package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tooltip shows a short explanation under a widget while the mouse is over it (Fyne has no
// tooltips of its own). A widget embeds it and calls show from MouseIn, hide from MouseOut.
type tooltip struct {
	popup *widget.PopUp
}

// tipWidth is the widest a tooltip gets before its text wraps.
const tipWidth = 320

// show opens the tooltip below owner (nothing when owner is not on a canvas or text is empty).
func (t *tooltip) show(owner fyne.CanvasObject, text string) {
	t.hide()
	c := fyne.CurrentApp().Driver().CanvasForObject(owner)
	if c == nil || text == "" {
		return
	}
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	back := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	back.CornerRadius = 4
	t.popup = widget.NewPopUp(container.NewStack(back, label), c)
	width := min(float32(tipWidth), fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{}).Width+4*theme.Padding())
	size := fyne.NewSize(width, label.MinSize().Height)
	label.Resize(size) // wrapped height for this width
	size.Height = label.MinSize().Height
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(owner).AddXY(0, owner.Size().Height+2)
	// keep it inside the window
	pos.X = max(0, min(pos.X, c.Size().Width-size.Width))
	if pos.Y+size.Height > c.Size().Height {
		pos.Y = max(0, pos.Y-owner.Size().Height-size.Height-4)
	}
	t.popup.ShowAtPosition(pos)
	t.popup.Resize(size)
}

// hide closes the tooltip.
func (t *tooltip) hide() {
	if t.popup != nil {
		t.popup.Hide()
		t.popup = nil
	}
}

// badgeTips explain the Q, D and C badges.
var badgeTips = map[string]string{
	"Q": "Quality: how well the level meets its problem's rules (playable, the right parts). It passes at 1.00 (green); yellow is from 0.50.",
	"D": "Diversity: how different the level is from the others of its set. It passes at 1.00 (green); yellow is from 0.50.",
	"C": "Controllability: how close the level comes to its control (the asked-for target). It passes at 1.00 (green); yellow is from 0.50.",
}

// MouseIn shows what the badge measures.
func (b *Badge) MouseIn(*desktop.MouseEvent) { b.tip.show(b, badgeTips[b.Label]) }

// MouseMoved does nothing: the tooltip stays while the mouse is over the badge.
func (b *Badge) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tooltip.
func (b *Badge) MouseOut() { b.tip.hide() }
