package widgets

import (
	"reflect"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fyne has no tooltips. A tooltip here is drawn into a tip layer: a layout-less container
// stacked above a window's content (or a dialog's), which nothing in it can tap or hover, so
// the controls under it keep their clicks and hover highlights. A pop-up would not do: while
// an overlay is up Fyne sends hover events only to the overlay, so a pop-up tooltip would close
// at the next mouse move and swallow the next click.

// tooltip shows a short explanation under a widget while the mouse is over it. A widget embeds
// it and calls show from MouseIn, hide from MouseOut.
type tooltip struct {
	layer *fyne.Container
	box   fyne.CanvasObject
}

// tipWidth is the widest a tooltip gets before its text wraps.
const tipWidth = 320

// show puts the tooltip below owner (nothing when owner is on no canvas with a tip layer, or
// text is empty).
func (t *tooltip) show(owner fyne.CanvasObject, text string) {
	t.hide()
	c := fyne.CurrentApp().Driver().CanvasForObject(owner)
	if c == nil || text == "" {
		return
	}
	layer := layerFor(c, owner)
	if layer == nil {
		return
	}
	label := widget.NewLabel(text)
	label.Wrapping = fyne.TextWrapWord
	back := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	back.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	back.StrokeWidth = 1
	back.CornerRadius = 4
	box := container.NewStack(back, label)
	width := min(float32(tipWidth), fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{}).Width+4*theme.Padding())
	label.Resize(fyne.NewSize(width, label.MinSize().Height)) // wrapped height for this width
	size := fyne.NewSize(width, label.MinSize().Height)
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(owner).Subtract(d.AbsolutePositionForObject(layer))
	box.Move(placeTip(at, owner.Size(), size, layer.Size()))
	box.Resize(size)
	layer.Add(box)
	t.layer, t.box = layer, box
}

// placeTip is where a tip of size goes for an owner at (at, owner) in a layer of size area:
// below the owner, else above, right or left of it, the first that fits in the layer without
// covering the owner; when none does (a tall owner in a short window), the place that covers
// the least of it. A tip that covered what it describes hid the thing being explained.
func placeTip(at fyne.Position, owner, tip, area fyne.Size) fyne.Position {
	const gap = 2
	clampX := func(x float32) float32 { return max(0, min(x, area.Width-tip.Width)) }
	clampY := func(y float32) float32 { return max(0, min(y, area.Height-tip.Height)) }
	candidates := []fyne.Position{
		{X: clampX(at.X), Y: at.Y + owner.Height + gap}, // below
		{X: clampX(at.X), Y: at.Y - tip.Height - gap},   // above
		{X: at.X + owner.Width + gap, Y: clampY(at.Y)},  // right
		{X: at.X - tip.Width - gap, Y: clampY(at.Y)},    // left
	}
	inside := func(p fyne.Position) bool {
		return p.X >= 0 && p.Y >= 0 && p.X+tip.Width <= area.Width && p.Y+tip.Height <= area.Height
	}
	overlap := func(p fyne.Position) float32 {
		w := min(p.X+tip.Width, at.X+owner.Width) - max(p.X, at.X)
		h := min(p.Y+tip.Height, at.Y+owner.Height) - max(p.Y, at.Y)
		return max(0, w) * max(0, h)
	}
	for _, p := range candidates {
		if inside(p) && overlap(p) == 0 {
			return p
		}
	}
	best, least := fyne.NewPos(clampX(at.X), clampY(at.Y+owner.Height+gap)), float32(-1)
	for _, p := range candidates {
		p = fyne.NewPos(clampX(p.X), clampY(p.Y))
		if o := overlap(p); least < 0 || o < least {
			best, least = p, o
		}
	}
	return best
}

// hide removes the tooltip.
func (t *tooltip) hide() {
	if t.layer != nil {
		t.layer.Remove(t.box)
		t.layer, t.box = nil, nil
	}
}

// shown is the tooltip's text on screen ("" when hidden), for tests.
func (t *tooltip) shown() string {
	if t.box == nil {
		return ""
	}
	return t.box.(*fyne.Container).Objects[1].(*widget.Label).Text
}

// Tipped is a control with a tooltip: it shows the control, and a transparent hover target
// over it that shows the text and passes the hover on to the control (so a button still
// lights up). Taps, drags and the cursor go to the control itself, as the target takes none.
type Tipped struct {
	widget.BaseWidget
	Object fyne.CanvasObject
	Text   string
	hover  *tipHover
}

// Tip gives obj a tooltip; use the result where obj would have been laid out.
func Tip(obj fyne.CanvasObject, text string) *Tipped {
	t := &Tipped{Object: obj, Text: text}
	t.hover = &tipHover{owner: t}
	t.hover.ExtendBaseWidget(t.hover)
	t.ExtendBaseWidget(t)
	return t
}

// Visible follows the control, so a layout leaves no gap for a hidden control.
func (t *Tipped) Visible() bool { return t.Object.Visible() }

// Hide hides the control (and so its tooltip).
func (t *Tipped) Hide() { t.Object.Hide(); t.hover.tip.hide() }

// Show shows the control.
func (t *Tipped) Show() { t.Object.Show() }

// SetText changes the explanation (shown from the next hover).
func (t *Tipped) SetText(text string) { t.Text = text }

// Shown is the tooltip's text on screen ("" when hidden).
func (t *Tipped) Shown() string { return t.hover.tip.shown() }

func (t *Tipped) CreateRenderer() fyne.WidgetRenderer { return &tippedRenderer{t: t} }

type tippedRenderer struct{ t *Tipped }

func (r *tippedRenderer) Layout(s fyne.Size) {
	// The control may have been laid out in its old container before it was wrapped: its
	// position there would now offset it inside the wrapper (the Compare toolbar's buttons
	// drifted right by their own x).
	r.t.Object.Move(fyne.NewPos(0, 0))
	r.t.Object.Resize(s)
	r.t.hover.Move(fyne.NewPos(0, 0))
	r.t.hover.Resize(s)
}
func (r *tippedRenderer) MinSize() fyne.Size { return r.t.Object.MinSize() }
func (r *tippedRenderer) Refresh()           { r.t.Object.Refresh() }
func (r *tippedRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.t.Object, r.t.hover}
}
func (r *tippedRenderer) Destroy() {}

// tipHover is Tipped's hover target. It is drawn after the control, so Fyne, which gives a
// hover to the last hoverable object under the mouse, gives it to this one.
type tipHover struct {
	widget.BaseWidget
	owner *Tipped
	tip   tooltip
}

var _ desktop.Hoverable = (*tipHover)(nil)

func (h *tipHover) MouseIn(e *desktop.MouseEvent) {
	if o, ok := h.owner.Object.(desktop.Hoverable); ok {
		o.MouseIn(e)
	}
	h.tip.show(h.owner, h.owner.Text)
}

func (h *tipHover) MouseMoved(e *desktop.MouseEvent) {
	if o, ok := h.owner.Object.(desktop.Hoverable); ok {
		o.MouseMoved(e)
	}
}

func (h *tipHover) MouseOut() {
	if o, ok := h.owner.Object.(desktop.Hoverable); ok {
		o.MouseOut()
	}
	h.tip.hide()
}

func (h *tipHover) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// badgeTips explain the Q, D and C badges.
var badgeTips = map[string]string{
	"Q": "Quality: how well the level meets its problem's rules (playable, the right parts). It passes at 1.00 (green); yellow is from 0.50.",
	"D": "Diversity: how different the level is from the others of its set. It passes at 1.00 (green); yellow is from 0.50.",
	"C": "Controllability: how close the level comes to its control (the asked-for target). It passes at 1.00 (green); yellow is from 0.50.",
}

// MouseIn shows what the badge measures.
func (b *Badge) MouseIn(*desktop.MouseEvent) { b.tip.show(b, badgeTip(b.Label)) }

// badgeTip explains a badge by its label, short ("Q") or long ("Quality").
func badgeTip(label string) string {
	if label == "" {
		return ""
	}
	return badgeTips[label[:1]]
}

// MouseMoved does nothing: the tooltip stays while the mouse is over the badge.
func (b *Badge) MouseMoved(*desktop.MouseEvent) {}

// MouseOut hides the tooltip.
func (b *Badge) MouseOut() { b.tip.hide() }

// Tooltip is the badge's explanation on screen ("" when hidden).
func (b *Badge) Tooltip() string { return b.tip.shown() }

// TipAll gives the controls of a built panel their tooltips: each object of tips found in the
// tree under root (through containers, splits, scrolls, tabs and forms) is replaced in its
// parent by Tip(object, text). Its owner calls it once, before the tree is first drawn, so
// the explanations sit in one table per panel instead of at every layout call. It returns the
// objects it did not find (a control that is not in the tree yet).
func TipAll(root fyne.CanvasObject, tips map[fyne.CanvasObject]string) []fyne.CanvasObject {
	todo := make(map[fyne.CanvasObject]string, len(tips))
	for o, text := range tips {
		todo[o] = text
	}
	var walk func(o fyne.CanvasObject) fyne.CanvasObject
	walk = func(o fyne.CanvasObject) fyne.CanvasObject {
		if o == nil {
			return nil
		}
		if text, ok := todo[o]; ok {
			delete(todo, o)
			return Tip(o, text)
		}
		switch v := o.(type) {
		case *fyne.Container:
			before := slices.Clone(v.Objects)
			for i := range v.Objects {
				v.Objects[i] = walk(v.Objects[i])
			}
			v.Layout = borderAfterWrap(v.Layout, before, v.Objects)
		case *container.Split:
			v.Leading, v.Trailing = walk(v.Leading), walk(v.Trailing)
		case *container.Scroll:
			v.Content = walk(v.Content)
		case *container.AppTabs:
			for _, it := range v.Items {
				it.Content = walk(it.Content)
			}
		case *widget.Form:
			for _, it := range v.Items {
				it.Widget = walk(it.Widget)
			}
		}
		return o
	}
	walk(root)
	var missing []fyne.CanvasObject
	for o := range todo {
		missing = append(missing, o)
	}
	return missing
}

// borderAfterWrap gives a border layout its edges back after TipAll wrapped some of them. Fyne's
// border layout remembers its top, bottom, left and right objects itself, so a wrapped edge
// would be laid out as centre content, on top of the others (a Border header's label slid
// over its neighbour). before and after are the container's objects before and after the
// wrapping; any other layout is returned as it is.
func borderAfterWrap(l fyne.Layout, before, after []fyne.CanvasObject) fyne.Layout {
	rv := reflect.ValueOf(l)
	if rv.Kind() != reflect.Pointer || rv.Type() != borderLayoutType || slices.Equal(before, after) {
		return l
	}
	var edges [4]fyne.CanvasObject
	for k, name := range []string{"top", "bottom", "left", "right"} {
		f := rv.Elem().FieldByName(name)
		if f.IsNil() {
			continue
		}
		if f.Elem().Kind() != reflect.Pointer {
			return l
		}
		// The fields are unexported: they are matched by address, never read as values.
		i := slices.IndexFunc(before, func(o fyne.CanvasObject) bool {
			ov := reflect.ValueOf(o)
			return ov.Kind() == reflect.Pointer && ov.Pointer() == f.Elem().Pointer()
		})
		if i < 0 {
			return l // an edge that is not one of the container's objects: leave it be
		}
		edges[k] = after[i]
	}
	return layout.NewBorderLayout(edges[0], edges[1], edges[2], edges[3])
}

// borderLayoutType is the type of Fyne's border layout (container.NewBorder's).
var borderLayoutType = reflect.TypeOf(layout.NewBorderLayout(nil, nil, nil, nil))
