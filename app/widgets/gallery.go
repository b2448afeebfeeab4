package widgets

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	pixels "pcgwb/assets"
)

// Gallery shows a set of levels as a grid of thumbnails, as large as the space allows while all of
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
		t.gallery = g
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

// Message is the message shown in place of the cells ("" while the cells are shown).
func (g *Gallery) Message() string {
	if !g.message.Visible() {
		return ""
	}
	return g.message.Text
}

// Columns is the number of columns of the grid as last laid out (0 before that).
func (g *Gallery) Columns() int { return g.layout.plan.cols }

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
