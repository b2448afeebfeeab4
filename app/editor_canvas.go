package app

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// editorCanvas shows the level picture and turns taps and drags into painted cells.
type editorCanvas struct {
	widget.BaseWidget
	ed    *editorPanel
	image *canvas.Image
	back  *canvas.Rectangle
	size  image.Point
	grid  tileGrid
	geom  [3]int // tile, offX, offY in picture pixels
	ok    bool
	// the keyboard's cell (editor_keys.go), outlined by cursor while the canvas has the focus
	curRow, curCol int
	focused        bool
	cursor         *canvas.Rectangle
}

func newEditorCanvas(ed *editorPanel) *editorCanvas {
	c := &editorCanvas{ed: ed, image: &canvas.Image{FillMode: canvas.ImageFillContain, ScaleMode: canvas.ImageScalePixels}}
	c.back = canvas.NewRectangle(colorCard())
	c.back.CornerRadius = 4
	c.cursor = canvas.NewRectangle(color.Transparent)
	c.cursor.StrokeWidth = 3
	c.cursor.Hide()
	c.ExtendBaseWidget(c)
	return c
}

// setImage shows a new picture of a grid.
func (c *editorCanvas) setImage(img image.Image, g tileGrid) {
	c.image.Image = img
	c.size = img.Bounds().Size()
	c.grid = g
	t, ox, oy, ok := gridGeometry(c.size.X, c.size.Y, g.Rows, g.Cols)
	c.geom, c.ok = [3]int{t, ox, oy}, ok
	c.image.Refresh()
}

// picture returns the picture shown.
func (c *editorCanvas) picture() image.Image { return c.image.Image }

// imageRect is where the picture is drawn inside the widget (contain, centred, whole-number
// scale when it fits by that).
func (c *editorCanvas) imageRect() (pos fyne.Position, scale float32) {
	s := c.Size()
	if c.size.X == 0 || c.size.Y == 0 {
		return fyne.Position{}, 0
	}
	pad := float32(8)
	scale = float32(math.Min(float64((s.Width-2*pad)/float32(c.size.X)), float64((s.Height-2*pad)/float32(c.size.Y))))
	if scale >= 1 {
		scale = float32(math.Floor(float64(scale)))
	}
	w, h := float32(c.size.X)*scale, float32(c.size.Y)*scale
	return fyne.NewPos((s.Width-w)/2, (s.Height-h)/2), scale
}

// cellAt maps a position in the widget to a grid cell.
func (c *editorCanvas) cellAt(p fyne.Position) (row, col int, ok bool) {
	origin, scale := c.imageRect()
	if !c.ok || scale <= 0 {
		return 0, 0, false
	}
	px := int(math.Floor(float64((p.X - origin.X) / scale)))
	py := int(math.Floor(float64((p.Y - origin.Y) / scale)))
	if px < 0 || py < 0 {
		return 0, 0, false
	}
	return cellAt(px, py, c.geom[0], c.geom[1], c.geom[2], c.grid.Rows, c.grid.Cols)
}

// cellCenter is the widget position of the middle of cell (row, col) (for tests and keys).
func (c *editorCanvas) cellCenter(row, col int) fyne.Position {
	origin, scale := c.imageRect()
	t, ox, oy := float32(c.geom[0]), float32(c.geom[1]), float32(c.geom[2])
	return fyne.NewPos(origin.X+(ox+(float32(col)+0.5)*t)*scale, origin.Y+(oy+(float32(row)+0.5)*t)*scale)
}

func (c *editorCanvas) Tapped(e *fyne.PointEvent) {
	r, col, ok := c.cellAt(e.Position)
	if ok {
		c.curRow, c.curCol = r, col // the keyboard goes on from the cell clicked
	}
	c.takeFocus()
	if ok {
		c.ed.paint(r, col)
	}
}

func (c *editorCanvas) Dragged(e *fyne.DragEvent) {
	if !c.ed.stroke {
		c.ed.pushUndo()
		c.ed.stroke = true
	}
	if r, col, ok := c.cellAt(e.Position); ok {
		c.ed.paint(r, col)
	}
}

func (c *editorCanvas) DragEnd() { c.ed.stroke = false }

func (c *editorCanvas) Cursor() desktop.Cursor { return desktop.CrosshairCursor }

func (c *editorCanvas) CreateRenderer() fyne.WidgetRenderer {
	return &editorCanvasRenderer{c: c}
}

type editorCanvasRenderer struct{ c *editorCanvas }

func (r *editorCanvasRenderer) Layout(s fyne.Size) {
	r.c.back.Resize(s)
	origin, scale := r.c.imageRect()
	r.c.image.Move(origin)
	r.c.image.Resize(fyne.NewSize(float32(r.c.size.X)*scale, float32(r.c.size.Y)*scale))
	r.c.placeCursor()
}
func (r *editorCanvasRenderer) MinSize() fyne.Size { return fyne.NewSize(200, 160) }
func (r *editorCanvasRenderer) Refresh() {
	r.Layout(r.c.Size())
	r.c.back.FillColor = colorCard() // Fyne refreshes every widget on a theme change
	r.c.back.Refresh()
	r.c.image.Refresh()
	r.c.cursor.Refresh()
}
func (r *editorCanvasRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.c.back, r.c.image, r.c.cursor}
}
func (r *editorCanvasRenderer) Destroy() {}

// tileButton is one palette entry: the tile's sprite, its key and its value.
type tileButton struct {
	widget.BaseWidget
	Value    int
	name     string // the tile's name in the problem's legend
	key      int
	swatch   image.Image
	selected bool
	onTap    func(int)
}

func newTileButton(value, index int, name string, swatch image.Image, onTap func(int)) *tileButton {
	b := &tileButton{Value: value, name: name, key: index + 1, swatch: swatch, onTap: onTap}
	b.ExtendBaseWidget(b)
	return b
}

// Selected reports whether this is the tile being painted.
func (b *tileButton) Selected() bool { return b.selected }

// setSelected marks the tile being painted.
func (b *tileButton) setSelected(on bool) {
	if b.selected != on {
		b.selected = on
		b.Refresh()
	}
}

func (b *tileButton) Tapped(*fyne.PointEvent) { b.onTap(b.Value) }
func (b *tileButton) Cursor() desktop.Cursor  { return desktop.PointerCursor }

func (b *tileButton) CreateRenderer() fyne.WidgetRenderer {
	back := canvas.NewRectangle(colorCard())
	back.CornerRadius = 3
	var pic fyne.CanvasObject
	if b.swatch != nil {
		img := canvas.NewImageFromImage(b.swatch)
		img.ScaleMode = canvas.ImageScalePixels
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(32, 32))
		pic = img
	} else {
		pic = container.NewCenter(widget.NewLabel(strconv.Itoa(b.Value)))
	}
	label := canvas.NewText(fmt.Sprintf("%d · %s", b.key, b.name), theme.Color(theme.ColorNameForeground))
	label.TextSize = theme.Size(theme.SizeNameCaptionText) + 1
	if b.key > 9 {
		label.Text = b.name
	}
	row := container.New(layout.NewCustomPaddedLayout(4, 4, 4, 4), container.NewBorder(nil, nil, pic, nil, container.NewPadded(label)))
	r := &tileButtonRenderer{b: b, back: back, label: label, box: container.NewStack(back, row)}
	r.Refresh()
	return r
}

type tileButtonRenderer struct {
	b     *tileButton
	back  *canvas.Rectangle
	label *canvas.Text
	box   *fyne.Container
}

func (r *tileButtonRenderer) Layout(s fyne.Size)           { r.box.Resize(s) }
func (r *tileButtonRenderer) MinSize() fyne.Size           { return r.box.MinSize() }
func (r *tileButtonRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }
func (r *tileButtonRenderer) Destroy()                     {}
func (r *tileButtonRenderer) Refresh() {
	// the card and its text follow the theme (Fyne refreshes every widget on a change)
	r.back.FillColor = colorCard()
	r.label.Color = theme.Color(theme.ColorNameForeground)
	r.label.Refresh()
	r.back.StrokeWidth = 0
	if r.b.selected {
		r.back.StrokeColor = pal('y')
		r.back.StrokeWidth = 2
	}
	r.back.Refresh()
}
