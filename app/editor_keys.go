package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The editor's canvas from the keyboard: Tab reaches it (it takes the focus and outlines a
// cell), the arrow keys move the outlined cell, Enter or Space paints it with the selected
// tile as a click does, and the editor's own keys (the digits choose a tile, Backspace undoes,
// the play keys) work while it has the focus, as they do when nothing has.

var _ fyne.Focusable = (*editorCanvas)(nil)

// takeFocus gives the canvas the keyboard's focus (a click on it does).
func (c *editorCanvas) takeFocus() {
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil && cv.Focused() != c {
		cv.Focus(c)
	}
}

// FocusGained shows the keyboard's cell.
func (c *editorCanvas) FocusGained() {
	c.focused = true
	c.Refresh() // lays the cursor out (placeCursor) and draws it
}

// FocusLost hides it.
func (c *editorCanvas) FocusLost() {
	c.focused = false
	c.Refresh()
}

// TypedRune ignores text (Space and the digits arrive as keys).
func (c *editorCanvas) TypedRune(rune) {}

// TypedKey moves the keyboard's cell, paints it, or hands the key to the editor.
func (c *editorCanvas) TypedKey(e *fyne.KeyEvent) {
	rows, cols := c.grid.Rows, c.grid.Cols
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		if c.ok {
			c.ed.paint(c.curRow, c.curCol)
		}
		return
	case fyne.KeyLeft:
		c.curCol--
	case fyne.KeyRight:
		c.curCol++
	case fyne.KeyUp:
		c.curRow--
	case fyne.KeyDown:
		c.curRow++
	case fyne.KeyHome:
		c.curCol = 0
	case fyne.KeyEnd:
		c.curCol = cols - 1
	default:
		c.ed.handleKey(e)
		return
	}
	c.curRow, c.curCol = min(max(c.curRow, 0), max(rows-1, 0)), min(max(c.curCol, 0), max(cols-1, 0))
	c.Refresh()
}

// Cursor is the keyboard's cell.
func (c *editorCanvas) cursorCell() (row, col int) { return c.curRow, c.curCol }

// placeCursor outlines the keyboard's cell while the canvas has the focus.
func (c *editorCanvas) placeCursor() {
	origin, scale := c.imageRect()
	if !c.focused || !c.ok || scale <= 0 {
		c.cursor.Hide()
		return
	}
	c.curRow, c.curCol = min(c.curRow, max(c.grid.Rows-1, 0)), min(c.curCol, max(c.grid.Cols-1, 0))
	t, ox, oy := float32(c.geom[0])*scale, float32(c.geom[1])*scale, float32(c.geom[2])*scale
	c.cursor.StrokeColor = theme.Color(theme.ColorNameFocus)
	c.cursor.Move(fyne.NewPos(origin.X+ox+float32(c.curCol)*t, origin.Y+oy+float32(c.curRow)*t))
	c.cursor.Resize(fyne.NewSize(t, t))
	c.cursor.Show()
	c.cursor.Refresh()
}
