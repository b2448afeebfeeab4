package app

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/duel/core"
)

// showBoard shows the render: drawn as cells when it is a grid (rows of one-character
// tokens, like ". X O"), each cell a target for a click; as monospace text otherwise. Board
// keeps the text either way. A mark keeps its colour for the whole game (markColor), and the
// line that won the game is outlined (winLine). prev is the position shown before, if any.
func (dp *duelPanel) showBoard(v, prev *duelView) {
	dp.board.SetText(v.board)
	rows := v.grid
	if rows == nil {
		dp.board.Show()
		dp.grid.Objects = nil
		dp.grid.Refresh()
		return
	}
	dp.board.Hide()
	const cell = 38
	movable := map[core.Square]bool{} // the cells a legal move touches
	if v.yours {
		for _, cs := range v.cells {
			for _, c := range cs {
				movable[c] = true
			}
		}
	}
	won := map[core.Square]bool{}
	if v.winner >= 0 {
		var before [][]string
		if prev != nil && prev.game == v.game && prev.seed == v.seed && prev.ply == v.ply-1 {
			before = prev.grid
		}
		for _, sq := range winLine(rows, before) {
			won[sq] = true
		}
	}
	var objs []fyne.CanvasObject
	for r, row := range rows {
		for c, tok := range row {
			sq := core.Square{Row: r, Col: c}
			bg := canvas.NewRectangle(color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x30})
			bg.StrokeColor, bg.StrokeWidth = color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xa0}, 1
			if movable[sq] {
				bg.FillColor = color.NRGBA{R: 0x2f, G: 0x9f, B: 0x4f, A: 0x30} // a move is there
			}
			if won[sq] {
				bg.FillColor = color.NRGBA{R: 0xf0, G: 0xc0, B: 0x20, A: 0x38}
				bg.StrokeColor, bg.StrokeWidth = color.NRGBA{R: 0xf0, G: 0xa0, B: 0x00, A: 0xff}, 3
			}
			bg.SetMinSize(fyne.NewSize(cell, cell))
			txt := canvas.NewText("", color.Transparent)
			if !emptyCell(tok) {
				txt.Text, txt.Color = tok, dp.markColor(tok)
				txt.TextStyle, txt.TextSize = fyne.TextStyle{Bold: true}, 22
				txt.Alignment = fyne.TextAlignCenter
			}
			bc := newBoardCell(container.NewStack(bg, container.NewCenter(txt)), func() { dp.tapCell(r, c) })
			bc.mark, bc.won = txt.Color, won[sq]
			objs = append(objs, bc)
		}
	}
	dp.grid.Objects = []fyne.CanvasObject{container.NewGridWithColumns(len(rows[0]), objs...)}
	dp.grid.Refresh()
}

// markColor is the colour of a board mark: the first mark seen in a game gets the first
// colour, the next one the second, and each keeps its colour until another game is loaded (an
// O that shows above the first X must not take X's colour).
func (dp *duelPanel) markColor(tok string) color.Color {
	if dp.marks == nil {
		dp.marks = map[string]int{}
	}
	k, ok := dp.marks[tok]
	if !ok {
		k = len(dp.marks)
		dp.marks[tok] = k
	}
	return markColors[k%len(markColors)]
}

// cellAt is the drawn cell (row, col) of the board shown (nil when the board is not a grid).
func (dp *duelPanel) cellAt(row, col int) *boardCell {
	if len(dp.grid.Objects) == 0 || dp.view == nil || len(dp.view.grid) == 0 {
		return nil
	}
	cells := dp.grid.Objects[0].(*fyne.Container).Objects
	i := row*len(dp.view.grid[0]) + col
	if row < 0 || col < 0 || col >= len(dp.view.grid[0]) || i >= len(cells) {
		return nil
	}
	return cells[i].(*boardCell)
}

// winLine finds the line that won a grid game: the longest straight run (a row, a column or
// a diagonal) of one mark, at least three cells long. When before (the position one move
// earlier) is given, only runs through a cell the last move changed count. It returns nil when
// no run qualifies or when runs of different marks tie: the tab then outlines nothing rather
// than a line that did not win.
func winLine(rows, before [][]string) []core.Square {
	if len(rows) == 0 {
		return nil
	}
	changed := func(r, c int) bool {
		if before == nil {
			return true
		}
		return r >= len(before) || c >= len(before[r]) || before[r][c] != rows[r][c]
	}
	at := func(r, c int) (string, bool) {
		if r < 0 || r >= len(rows) || c < 0 || c >= len(rows[r]) || emptyCell(rows[r][c]) {
			return "", false
		}
		return rows[r][c], true
	}
	var best [][]core.Square
	bestLen, bestTok := 0, ""
	tie := false
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		for r := range rows {
			for c := range rows[r] {
				tok, ok := at(r, c)
				if !ok {
					continue
				}
				if p, ok := at(r-d[0], c-d[1]); ok && p == tok {
					continue // not the start of the run
				}
				var run []core.Square
				through := false
				for k := 0; ; k++ {
					rr, cc := r+k*d[0], c+k*d[1]
					if t, ok := at(rr, cc); !ok || t != tok {
						break
					}
					run = append(run, core.Square{Row: rr, Col: cc})
					through = through || changed(rr, cc)
				}
				if len(run) < 3 || !through || len(run) < bestLen {
					continue
				}
				if len(run) > bestLen {
					best, bestLen, bestTok, tie = nil, len(run), tok, false
				} else if tok != bestTok {
					tie = true
				}
				best = append(best, run)
			}
		}
	}
	if tie {
		return nil
	}
	var out []core.Square
	for _, run := range best {
		for _, sq := range run {
			if !slices.Contains(out, sq) {
				out = append(out, sq)
			}
		}
	}
	return out
}

// boardCell is one cell of the drawn board: it answers a click.
type boardCell struct {
	widget.BaseWidget
	face  fyne.CanvasObject
	onTap func()
	mark  color.Color // the colour of the cell's mark (transparent when empty)
	won   bool        // the cell is on the line that won the game
}

func newBoardCell(face fyne.CanvasObject, onTap func()) *boardCell {
	c := &boardCell{face: face, onTap: onTap}
	c.ExtendBaseWidget(c)
	return c
}

func (c *boardCell) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.face) }

// Tapped plays or narrows to the cell's moves.
func (c *boardCell) Tapped(*fyne.PointEvent) { c.onTap() }

var markColors = []color.Color{
	color.NRGBA{R: 0xd0, G: 0x3a, B: 0x2f, A: 0xff},
	color.NRGBA{R: 0x2f, G: 0x6f, B: 0xd0, A: 0xff},
	color.NRGBA{R: 0x2f, G: 0x9f, B: 0x4f, A: 0xff},
	color.NRGBA{R: 0xb0, G: 0x80, B: 0x10, A: 0xff},
}

func emptyCell(tok string) bool { return tok == "." || tok == "_" || tok == "-" || tok == "·" }
