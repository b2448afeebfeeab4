package widgets

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	pixels "pcgwb/assets"
)

// Badge is a small coloured value tag such as "Q 1.00": green when the value passes (≥ 1, the
// benchmark's threshold), yellow from one half, red below.
type Badge struct {
	widget.BaseWidget
	Label string
	Value float64
	// compact badges show only the value (galleries of a hundred levels need narrow cells).
	compact bool
	tip     tooltip // what the badge measures, while the mouse is over it
}

// NewBadge returns a badge for one per-item value.
func NewBadge(label string, value float64) *Badge {
	b := &Badge{Label: label, Value: value}
	b.ExtendBaseWidget(b)
	return b
}

// Text is what the badge shows.
func (b *Badge) Text() string {
	if b.compact {
		return fmt.Sprintf("%.2f", b.Value)
	}
	return fmt.Sprintf("%s %.2f", b.Label, b.Value)
}

// Passed reports whether the value reaches the benchmark's pass threshold.
func (b *Badge) Passed() bool { return b.Value >= 1 }

// colors returns the badge's background and text colours.
func (b *Badge) colors() (back, text color.Color) {
	switch {
	case b.Passed():
		return colorPass, Pal('k')
	case b.Value >= 0.5:
		return colorPartial, Pal('k')
	default:
		return colorFail, Pal('w')
	}
}

// SetValue changes the value (and so the text and colour) shown.
func (b *Badge) SetValue(v float64) {
	b.Value = v
	b.Refresh()
}

func (b *Badge) CreateRenderer() fyne.WidgetRenderer {
	backColor, textColor := b.colors()
	r := &badgeRenderer{b: b, back: canvas.NewRectangle(backColor), text: canvas.NewText(b.Text(), textColor)}
	r.back.CornerRadius = 3
	r.text.TextStyle = fyne.TextStyle{Bold: true, Monospace: true}
	r.text.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	r.box = container.NewStack(r.back, container.New(layout.NewCustomPaddedLayout(1, 1, 5, 5), r.text))
	return r
}

type badgeRenderer struct {
	b    *Badge
	back *canvas.Rectangle
	text *canvas.Text
	box  *fyne.Container
}

func (r *badgeRenderer) Layout(s fyne.Size)           { r.box.Resize(s) }
func (r *badgeRenderer) MinSize() fyne.Size           { return r.box.MinSize() }
func (r *badgeRenderer) Destroy()                     {}
func (r *badgeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }
func (r *badgeRenderer) Refresh() {
	back, text := r.b.colors()
	r.back.FillColor = back
	r.text.Color = text
	r.text.Text = r.b.Text()
	r.text.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	r.box.Refresh()
}

// Thumb is one gallery cell: the drawn content, its number and its Q / D / C badges.
type Thumb struct {
	widget.BaseWidget
	Index int // 0-based position in the set shown
	// Image is nil when drawing the content failed; Error then says why.
	Image *canvas.Image
	Error string

	Quality, Diversity, Controllability *Badge

	// OnTapped is called when the cell is tapped (nil: the cell does nothing).
	OnTapped func()

	imgSize  image.Point
	selected bool
	focused  bool     // the keyboard's focus is on the cell
	gallery  *Gallery // the gallery showing it (arrow keys move through it)
}

// NewThumb builds a cell showing number index+1, the picture img (or renderErr when img is
// nil) and the three badges.
func NewThumb(index int, img image.Image, renderErr error, quality, diversity, controllability float64) *Thumb {
	t := &Thumb{Index: index}
	t.Quality = NewBadge("Q", quality)
	t.Diversity = NewBadge("D", diversity)
	t.Controllability = NewBadge("C", controllability)
	if img != nil {
		t.imgSize = img.Bounds().Size()
		t.Image = canvas.NewImageFromImage(img)
		t.Image.FillMode = canvas.ImageFillStretch // the layout keeps the aspect and picks the scale
		t.Image.ScaleMode = canvas.ImageScalePixels
	} else if renderErr != nil {
		t.Error = renderErr.Error()
	}
	t.ExtendBaseWidget(t)
	return t
}

// SetCompact makes the badges show only their values and drops the number (for narrow cells).
func (t *Thumb) SetCompact() {
	for _, b := range t.Badges() {
		b.compact = true
	}
}

// Tapped opens the cell (OnTapped), if anyone listens.
func (t *Thumb) Tapped(*fyne.PointEvent) {
	if t.OnTapped != nil {
		t.OnTapped()
	}
}

// Cursor shows a hand over cells that open.
func (t *Thumb) Cursor() desktop.Cursor {
	if t.OnTapped != nil {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

// SetSelected outlines the cell (the one whose details are open).
func (t *Thumb) SetSelected(on bool) {
	if t.selected != on {
		t.selected = on
		t.Refresh()
	}
}

// Selected reports whether the cell is outlined.
func (t *Thumb) Selected() bool { return t.selected }

// Badges returns the quality, diversity and controllability badges in display order.
func (t *Thumb) Badges() []*Badge { return []*Badge{t.Quality, t.Diversity, t.Controllability} }

const (
	thumbPad = 6 // inside a cell, around the picture and the badge row
	thumbGap = 6 // between the picture and the badge row
)

func (t *Thumb) CreateRenderer() fyne.WidgetRenderer {
	r := &thumbRenderer{t: t}
	r.back = canvas.NewRectangle(Color(ColorNameCard))
	r.back.CornerRadius = 4
	r.outline()
	number := canvas.NewText(fmt.Sprintf("#%d", t.Index+1), Color(ColorNameCardMuted))
	number.TextStyle = fyne.TextStyle{Bold: true}
	number.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	if t.Quality.compact {
		number.Text = ""
	}
	r.number = number
	r.badges = container.NewHBox(number, layout.NewSpacer(), t.Quality, t.Diversity, t.Controllability)
	r.objects = []fyne.CanvasObject{r.back}
	if t.Image != nil {
		r.objects = append(r.objects, t.Image)
	} else {
		msg := t.Error
		if msg == "" {
			msg = "no picture"
		}
		r.failure = widget.NewLabel(msg)
		r.failure.Wrapping = fyne.TextWrapWord
		r.failure.Importance = widget.DangerImportance
		r.objects = append(r.objects, r.failure)
	}
	r.objects = append(r.objects, r.badges)
	return r
}

type thumbRenderer struct {
	t       *Thumb
	back    *canvas.Rectangle
	number  *canvas.Text
	badges  *fyne.Container
	failure *widget.Label
	objects []fyne.CanvasObject
}

func (r *thumbRenderer) Layout(size fyne.Size) {
	r.back.Resize(size)
	badgeH := r.badges.MinSize().Height
	r.badges.Move(fyne.NewPos(thumbPad, size.Height-thumbPad-badgeH))
	r.badges.Resize(fyne.NewSize(size.Width-2*thumbPad, badgeH))
	area := fyne.NewSize(size.Width-2*thumbPad, size.Height-2*thumbPad-badgeH-thumbGap)
	if r.failure != nil {
		r.failure.Move(fyne.NewPos(thumbPad, thumbPad))
		r.failure.Resize(area)
		return
	}
	w, h := r.t.imgSize.X, r.t.imgSize.Y
	s := pixels.PixelScale(w, h, float64(area.Width), float64(area.Height))
	if s < 1 {
		// Shrinking pixel art by dropping pixels loses thin lines; filtering keeps them visible.
		r.t.Image.ScaleMode = canvas.ImageScaleSmooth
	} else {
		r.t.Image.ScaleMode = canvas.ImageScalePixels
	}
	img := fyne.NewSize(float32(math.Round(float64(w)*s)), float32(math.Round(float64(h)*s)))
	r.t.Image.Resize(img)
	r.t.Image.Move(fyne.NewPos(float32(math.Floor(float64(thumbPad+(area.Width-img.Width)/2))), thumbPad))
}

func (r *thumbRenderer) MinSize() fyne.Size {
	b := r.badges.MinSize()
	return fyne.NewSize(b.Width+2*thumbPad, b.Height+2*thumbPad+thumbGap+1)
}

// Refresh re-reads the theme's card colours (Fyne refreshes every widget on a theme change).
func (r *thumbRenderer) Refresh() {
	r.back.FillColor = Color(ColorNameCard)
	r.number.Color = Color(ColorNameCardMuted)
	r.number.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	r.outline()
	r.back.Refresh()
	for _, o := range r.objects[1:] {
		o.Refresh()
	}
}

// outline marks the cell whose details are open and, more strongly, the cell the keyboard's
// focus is on.
func (r *thumbRenderer) outline() {
	r.back.StrokeWidth = 0
	switch {
	case r.t.focused:
		r.back.StrokeColor = theme.Color(theme.ColorNameFocus)
		r.back.StrokeWidth = 3
	case r.t.selected:
		r.back.StrokeColor = Pal('c')
		r.back.StrokeWidth = 2
	}
}

func (r *thumbRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *thumbRenderer) Destroy()                     {}
