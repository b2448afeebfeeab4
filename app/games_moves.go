package app

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/duel"
)

// maxMoveButtons is the largest action count shown as one button per action; larger games
// offer their legal moves in a searchable list.
const maxMoveButtons = 100

// maxLabelSearch is how many legal moves the search also matches by label (each label is a
// call into the sandbox); beyond it the search matches move numbers only.
const maxLabelSearch = 2000

// moveView is the state of the move chooser.
type moveView struct {
	labels   map[int]string // the last label each action had while legal
	legal    []int          // the legal moves of the position shown (nil: none to choose)
	filtered []int          // the legal moves the search lets through, for the list
}

// buildMoves makes the move chooser of a newly loaded game: a button per action, or the
// searchable list.
func (dp *DuelPanel) buildMoves(info duel.Info) {
	dp.moveView = moveView{labels: map[int]string{}}
	dp.MoveButtons = nil
	if info.NumActions <= maxMoveButtons {
		objs := make([]fyne.CanvasObject, info.NumActions)
		for a := 0; a < info.NumActions; a++ {
			b := widget.NewButton(fmt.Sprintf("action %d", a), func() { dp.choose(a) })
			b.Disable()
			dp.MoveButtons = append(dp.MoveButtons, b)
			objs[a] = b
		}
		dp.moves.Objects = []fyne.CanvasObject{container.NewGridWithColumns(3, objs...)}
	} else {
		dp.MoveSearch.SetText("")
		dp.moves.Objects = []fyne.CanvasObject{container.NewBorder(dp.MoveSearch, nil, nil, nil,
			container.NewGridWrap(fyne.NewSize(420, 260), dp.MoveList))}
	}
	dp.moves.Refresh()
}

func (dp *DuelPanel) buildMoveSearch() {
	dp.MoveSearch = widget.NewEntry()
	dp.MoveSearch.SetPlaceHolder("search the legal moves: a number or words of the label")
	dp.MoveSearch.OnChanged = func(string) { dp.filterMoves() }
	dp.MoveList = widget.NewList(
		func() int { return len(dp.moveView.filtered) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(dp.moveView.filtered) {
				a := dp.moveView.filtered[i]
				o.(*widget.Label).SetText(fmt.Sprintf("%d  %s", a, dp.label(a)))
			}
		})
	dp.MoveList.OnSelected = func(i widget.ListItemID) {
		dp.MoveList.UnselectAll()
		if i < len(dp.moveView.filtered) {
			dp.choose(dp.moveView.filtered[i])
		}
	}
}

// label is the action's label in the position shown (remembered, so a disabled button keeps
// the text it had).
func (dp *DuelPanel) label(a int) string {
	if l, ok := dp.moveView.labels[a]; ok {
		return l
	}
	l := fmt.Sprintf("action %d", a)
	if dp.session != nil {
		if got, err := dp.game.ActionLabel(dp.session.State(), a); err == nil {
			l = got
		}
	}
	dp.moveView.labels[a] = l
	return l
}

func (dp *DuelPanel) choose(a int) {
	if err := dp.Play(a); err != nil {
		dp.Status.SetText(err.Error())
	}
}

// setMoves enables the legal moves of the position shown (nil: none may be chosen now).
func (dp *DuelPanel) setMoves(legal []int) {
	dp.moveView.legal = legal
	clear(dp.moveView.labels) // labels may depend on the position
	ok := make(map[int]bool, len(legal))
	for _, a := range legal {
		ok[a] = true
	}
	for a, b := range dp.MoveButtons {
		if ok[a] {
			b.SetText(dp.label(a))
			b.Enable()
		} else {
			b.Disable()
		}
	}
	dp.filterMoves()
}

// filterMoves applies the search to the legal moves.
func (dp *DuelPanel) filterMoves() {
	if len(dp.MoveButtons) > 0 || dp.MoveSearch == nil {
		return
	}
	q := strings.ToLower(strings.TrimSpace(dp.MoveSearch.Text))
	legal := dp.moveView.legal
	dp.moveView.filtered = dp.moveView.filtered[:0]
	for _, a := range legal {
		if q == "" || strings.HasPrefix(strconv.Itoa(a), q) ||
			len(legal) <= maxLabelSearch && strings.Contains(strings.ToLower(dp.label(a)), q) {
			dp.moveView.filtered = append(dp.moveView.filtered, a)
		}
	}
	dp.MoveList.Refresh()
}

// LegalButtons are the enabled move buttons.
func (dp *DuelPanel) LegalButtons() []*widget.Button {
	var out []*widget.Button
	for _, b := range dp.MoveButtons {
		if !b.Disabled() {
			out = append(out, b)
		}
	}
	return out
}

func (dp *DuelPanel) showFault(err error) {
	dp.Status.SetText("⚠ " + err.Error())
	dp.setMoves(nil)
}

// refresh shows the position: board, status, move buttons and log.
func (dp *DuelPanel) refresh() {
	s := dp.session
	if s == nil {
		return
	}
	board, err := s.Game.Render(s.State())
	if err != nil {
		board = "(render failed: " + err.Error() + ")"
	}
	dp.showBoard(board)
	dp.Log.SetText(strings.Join(dp.log, "\n"))
	dp.logScroll.ScrollToBottom()
	dp.UndoButton.Enable()
	if s.Ply() == 0 {
		dp.UndoButton.Disable()
	}
	o, truncated, err := s.Status()
	info := dp.game.Info()
	switch {
	case err != nil:
		dp.showFault(err)
	case o.Done():
		msg := "Draw."
		switch o.Winner() {
		case dp.human:
			msg = "You win!"
		case 1 - dp.human:
			msg = "The agent wins."
		}
		dp.Status.SetText(fmt.Sprintf("%s (%d moves)", msg, s.Ply()))
		dp.setMoves(nil)
	case truncated:
		dp.Status.SetText(fmt.Sprintf("Stopped at the %d-move cap: no winner.", s.MaxPlies))
		dp.setMoves(nil)
	case dp.thinking:
		dp.Status.SetText("The agent is thinking…")
		dp.setMoves(nil)
	default:
		t, err := s.Turn()
		if err != nil {
			dp.showFault(err)
			return
		}
		if t.Player != dp.human {
			dp.Status.SetText("The agent's turn.")
			dp.setMoves(nil)
			return
		}
		dp.Status.SetText(fmt.Sprintf("Your turn (%s, player %d).", info.PlayerName(dp.human), dp.human))
		dp.setMoves(t.Legal)
	}
}

// showBoard shows the render: drawn as cells when it is a grid (rows of one-character
// tokens, like ". X O"), as monospace text otherwise. Board keeps the text either way.
func (dp *DuelPanel) showBoard(text string) {
	dp.Board.SetText(text)
	rows, ok := gridOf(text)
	if !ok {
		dp.Board.Show()
		dp.grid.Objects = nil
		dp.grid.Refresh()
		return
	}
	dp.Board.Hide()
	const cell = 38
	marks := map[string]int{}
	var objs []fyne.CanvasObject
	for _, row := range rows {
		for _, tok := range row {
			bg := canvas.NewRectangle(color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x30})
			bg.StrokeColor, bg.StrokeWidth = color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xa0}, 1
			bg.SetMinSize(fyne.NewSize(cell, cell))
			txt := canvas.NewText("", color.Transparent)
			if !emptyCell(tok) {
				if _, seen := marks[tok]; !seen {
					marks[tok] = len(marks)
				}
				txt.Text, txt.Color = tok, markColors[marks[tok]%len(markColors)]
				txt.TextStyle, txt.TextSize = fyne.TextStyle{Bold: true}, 22
				txt.Alignment = fyne.TextAlignCenter
			}
			objs = append(objs, container.NewStack(bg, container.NewCenter(txt)))
		}
	}
	dp.grid.Objects = []fyne.CanvasObject{container.NewGridWithColumns(len(rows[0]), objs...)}
	dp.grid.Refresh()
}

var markColors = []color.Color{
	color.NRGBA{R: 0xd0, G: 0x3a, B: 0x2f, A: 0xff},
	color.NRGBA{R: 0x2f, G: 0x6f, B: 0xd0, A: 0xff},
	color.NRGBA{R: 0x2f, G: 0x9f, B: 0x4f, A: 0xff},
	color.NRGBA{R: 0xb0, G: 0x80, B: 0x10, A: 0xff},
}

func emptyCell(tok string) bool { return tok == "." || tok == "_" || tok == "-" || tok == "·" }

// gridOf reads a render as a grid: at least two rows, all with the same number (2 to 20) of
// space-separated one-character tokens.
func gridOf(text string) ([][]string, bool) {
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		toks := strings.Fields(line)
		if len(toks) < 2 || len(toks) > 20 || len(rows) > 0 && len(toks) != len(rows[0]) {
			return nil, false
		}
		for _, t := range toks {
			if len([]rune(t)) != 1 {
				return nil, false
			}
		}
		rows = append(rows, toks)
	}
	return rows, len(rows) >= 2 && len(rows) <= 20
}
