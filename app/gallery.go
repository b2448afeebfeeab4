package app

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

	pixels "pcgwb/canvas"
	"pcgwb/problems"
)

// Badge is a small coloured value tag such as "Q 1.00": green when the value passes (≥ 1, the
// benchmark's threshold), yellow from one half, red below.
type Badge struct {
	widget.BaseWidget
	Label string
	Value float64
	// Compact badges show only the value (galleries of a hundred levels need narrow cells).
	Compact bool
}

// NewBadge returns a badge for one per-item value.
func NewBadge(label string, value float64) *Badge {
	b := &Badge{Label: label, Value: value}
	b.ExtendBaseWidget(b)
	return b
}

// Text is what the badge shows.
func (b *Badge) Text() string {
	if b.Compact {
		return fmt.Sprintf("%.2f", b.Value)
	}
	return fmt.Sprintf("%s %.2f", b.Label, b.Value)
}

// Passed reports whether the value reaches the benchmark's pass threshold.
func (b *Badge) Passed() bool { return b.Value >= 1 }

// Colors returns the badge's background and text colours.
func (b *Badge) Colors() (back, text color.Color) {
	switch {
	case b.Passed():
		return colorPass, pal('k')
	case b.Value >= 0.5:
		return colorPartial, pal('k')
	default:
		return colorFail, pal('w')
	}
}

// SetValue changes the value (and so the text and colour) shown.
func (b *Badge) SetValue(v float64) {
	b.Value = v
	b.Refresh()
}

func (b *Badge) CreateRenderer() fyne.WidgetRenderer {
	backColor, textColor := b.Colors()
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
	back, text := r.b.Colors()
	r.back.FillColor = back
	r.text.Color = text
	r.text.Text = r.b.Text()
	r.text.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	r.box.Refresh()
}

// Thumb is one gallery cell: the drawn content, its number and its Q / D / C badges.
type Thumb struct {
	widget.BaseWidget
	Index int // 0-based position in the sample set
	Item  problems.Item
	// Image is nil when drawing the content failed; Error then says why.
	Image *canvas.Image
	Error string

	Quality, Diversity, Controllability *Badge

	// OnTapped is called when the cell is tapped (nil: the cell does nothing).
	OnTapped func()

	imgSize  image.Point
	selected bool
}

// NewThumb builds the cell for item i of a sample set.
func NewThumb(set *SampleSet, i int) *Thumb {
	d := set.Eval.Details
	return newThumb(i, set.Items[i], set.Images[i], set.RenderErrors[i],
		valueAt(d.Quality, i), valueAt(d.Diversity, i), valueAt(d.Controllability, i))
}

// newThumb builds a cell showing number index+1, the picture img (or renderErr when img is
// nil) and the three badges.
func newThumb(index int, item problems.Item, img image.Image, renderErr error, quality, diversity, controllability float64) *Thumb {
	t := &Thumb{Index: index, Item: item}
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
		b.Compact = true
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

func valueAt(vals []float64, i int) float64 {
	if i < len(vals) {
		return vals[i]
	}
	return 0
}

// Badges returns the quality, diversity and controllability badges in display order.
func (t *Thumb) Badges() []*Badge { return []*Badge{t.Quality, t.Diversity, t.Controllability} }

const (
	thumbPad = 6 // inside a cell, around the picture and the badge row
	thumbGap = 6 // between the picture and the badge row
)

func (t *Thumb) CreateRenderer() fyne.WidgetRenderer {
	r := &thumbRenderer{t: t}
	r.back = canvas.NewRectangle(colorCard)
	r.back.CornerRadius = 4
	if t.selected {
		r.back.StrokeColor = pal('c')
		r.back.StrokeWidth = 2
	}
	number := canvas.NewText(fmt.Sprintf("#%d", t.Index+1), colorMuted)
	number.TextStyle = fyne.TextStyle{Bold: true}
	number.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	if t.Quality.Compact {
		number.Text = ""
	}
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

func (r *thumbRenderer) Refresh() {
	r.back.FillColor = colorCard
	r.back.StrokeWidth = 0
	if r.t.selected {
		r.back.StrokeColor = pal('c')
		r.back.StrokeWidth = 2
	}
	r.back.Refresh()
	for _, o := range r.objects[1:] {
		o.Refresh()
	}
}

func (r *thumbRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *thumbRenderer) Destroy()                     {}

// Gallery shows a sample set as a grid of thumbnails, as large as the space allows while all of
// them stay visible (scrolling only once they would get too small to read).
type Gallery struct {
	widget.BaseWidget
	// MinWidth is the narrowest the gallery lets itself be laid out (0: 200).
	MinWidth float32
	thumbs   []*Thumb
	imgSize  image.Point // largest picture of the set
	grid     *fyne.Container
	layout   *thumbGrid
	scroll   *container.Scroll
	message  *widget.Label
}

// NewGallery returns an empty gallery showing a hint.
func NewGallery(hint string) *Gallery {
	g := &Gallery{layout: &thumbGrid{}}
	g.grid = container.New(g.layout)
	g.scroll = container.NewVScroll(g.grid)
	g.message = widget.NewLabelWithStyle(hint, fyne.TextAlignCenter, fyne.TextStyle{})
	g.message.Wrapping = fyne.TextWrapWord
	g.ExtendBaseWidget(g)
	return g
}

// SetThumbs replaces the gallery's contents.
func (g *Gallery) SetThumbs(thumbs []*Thumb) {
	g.thumbs = thumbs
	g.imgSize = image.Point{}
	objs := make([]fyne.CanvasObject, len(thumbs))
	for i, t := range thumbs {
		objs[i] = t
		g.imgSize.X = max(g.imgSize.X, t.imgSize.X)
		g.imgSize.Y = max(g.imgSize.Y, t.imgSize.Y)
	}
	if g.imgSize.X == 0 || g.imgSize.Y == 0 {
		g.imgSize = image.Pt(160, 120) // nothing drew: give the failure messages a readable box
	}
	g.grid.Objects = objs
	g.message.Hide()
	g.scroll.ScrollToTop()
	g.Refresh()
}

// ShowMessage empties the gallery and shows a message in its place.
func (g *Gallery) ShowMessage(msg string) {
	g.thumbs = nil
	g.grid.Objects = nil
	g.message.SetText(msg)
	g.message.Show()
	g.Refresh()
}

// Thumbs returns the cells currently shown.
func (g *Gallery) Thumbs() []*Thumb { return g.thumbs }

// Len is the number of cells shown.
func (g *Gallery) Len() int { return len(g.thumbs) }

func (g *Gallery) CreateRenderer() fyne.WidgetRenderer {
	return &galleryRenderer{g: g, objects: []fyne.CanvasObject{g.scroll, g.message}}
}

type galleryRenderer struct {
	g       *Gallery
	objects []fyne.CanvasObject
}

func (r *galleryRenderer) Layout(size fyne.Size) {
	g := r.g
	chrome, minCellW := fyne.Size{}, float32(0)
	for _, t := range g.thumbs { // "#100" needs more room than "#1"
		tm := t.MinSize()
		chrome = fyne.NewSize(2*thumbPad, max(chrome.Height, tm.Height-1))
		minCellW = max(minCellW, tm.Width)
	}
	gap := theme.Padding() * 2
	g.layout.plan = planGallery(len(g.thumbs), g.imgSize, size, chrome, minCellW, gap)
	g.layout.gap = gap
	content := fyne.NewSize(max(g.layout.plan.total.Width, size.Width), max(g.layout.plan.total.Height, size.Height))
	if g.grid.Size() == content {
		g.layout.Layout(g.grid.Objects, content)
	} else {
		g.grid.Resize(content)
	}
	g.scroll.Resize(size)
	g.message.Resize(fyne.NewSize(size.Width, g.message.MinSize().Height))
	g.message.Move(fyne.NewPos(0, size.Height/3))
}

func (r *galleryRenderer) MinSize() fyne.Size {
	if r.g.MinWidth > 0 {
		return fyne.NewSize(r.g.MinWidth, 150)
	}
	return fyne.NewSize(200, 150)
}

func (r *galleryRenderer) Refresh() {
	r.Layout(r.g.Size())
	r.g.scroll.Refresh()
	r.g.message.Refresh()
}

func (r *galleryRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *galleryRenderer) Destroy()                     {}

// galleryPlan is where the cells go: a cols × rows grid of equal cells whose pictures are
// drawn at scale.
type galleryPlan struct {
	cols, rows int
	cell       fyne.Size
	scale      float64
	total      fyne.Size
}

// Thumbnails never get smaller than this (in Fyne units) before the gallery starts scrolling,
// nor larger than maxThumbScale times their pixel size.
const (
	minThumbWidth  = 96
	minThumbHeight = 48
	maxThumbScale  = 8
)

// planGallery picks the column count that makes n pictures of size img as large as possible
// while all of them fit in view; chrome is the space a cell adds around its picture and
// minCellW the narrowest a cell may be (its badge row). When even the smallest readable
// thumbnails do not fit, it plans those and the gallery scrolls.
func planGallery(n int, img image.Point, view, chrome fyne.Size, minCellW, gap float32) galleryPlan {
	if n == 0 || img.X <= 0 || img.Y <= 0 {
		return galleryPlan{}
	}
	iw, ih := float64(img.X), float64(img.Y)
	cellFor := func(scale float64) fyne.Size {
		// Floor, not round: a cell half a unit too wide can push the last column out of view.
		return fyne.NewSize(
			max(float32(math.Floor(iw*scale))+chrome.Width, minCellW),
			float32(math.Floor(ih*scale))+chrome.Height)
	}
	fits := func(cols int, cell fyne.Size) bool {
		rows := (n + cols - 1) / cols
		return float32(cols)*cell.Width+float32(cols-1)*gap <= view.Width &&
			float32(rows)*cell.Height+float32(rows-1)*gap <= view.Height
	}
	minScale := math.Min(1, math.Max(minThumbWidth/iw, minThumbHeight/ih))
	bestScale, bestCols := 0.0, 0
	for c := 1; c <= n; c++ {
		rows := (n + c - 1) / c
		availW := float64((view.Width-gap*float32(c-1))/float32(c) - chrome.Width)
		availH := float64((view.Height-gap*float32(rows-1))/float32(rows) - chrome.Height)
		s := math.Min(pixels.PixelScale(img.X, img.Y, availW, availH), maxThumbScale)
		if s >= minScale && s > bestScale && fits(c, cellFor(s)) {
			bestScale, bestCols = s, c
		}
	}
	scale, cols := bestScale, bestCols
	if cols == 0 {
		// Too many to fit: as many columns of the smallest readable cells as the width
		// takes, then pictures as wide as those columns, and the gallery scrolls.
		cols = int((view.Width + gap) / (cellFor(minScale).Width + gap))
		cols = min(max(cols, 1), n)
		availW := float64((view.Width-gap*float32(cols-1))/float32(cols) - chrome.Width)
		scale = math.Max(minScale, math.Min(pixels.PixelScale(img.X, img.Y, availW, math.Inf(1)), maxThumbScale))
	}
	cell := cellFor(scale)
	rows := (n + cols - 1) / cols
	return galleryPlan{
		cols: cols, rows: rows, cell: cell, scale: scale,
		total: fyne.NewSize(float32(cols)*cell.Width+float32(cols-1)*gap, float32(rows)*cell.Height+float32(rows-1)*gap),
	}
}

// thumbGrid places cells by a plan, centring the grid horizontally.
type thumbGrid struct {
	plan galleryPlan
	gap  float32
}

func (l *thumbGrid) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	p := l.plan
	if p.cols == 0 {
		return
	}
	left := float32(math.Floor(float64(max(0, (size.Width-p.total.Width)/2))))
	for i, o := range objects {
		col, row := i%p.cols, i/p.cols
		o.Move(fyne.NewPos(left+float32(col)*(p.cell.Width+l.gap), float32(row)*(p.cell.Height+l.gap)))
		o.Resize(p.cell)
	}
}

func (l *thumbGrid) MinSize([]fyne.CanvasObject) fyne.Size { return l.plan.total }
