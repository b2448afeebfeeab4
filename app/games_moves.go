package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
)

// maxMoveButtons is the largest action count shown as one button per action; larger games
// offer their legal moves in a searchable list.
const maxMoveButtons = 100

// defaultMoveLimit is how many legal moves of a position get labels and board cells. Labels
// cost the script's CPU (one action_label each, batched in few round trips), so the count is
// bounded, but by script.MaxActions: a script declares at most that many actions and its
// legal_actions is checked to be a duplicate-free list of them, so every position of every
// game the tab can open is labelled and clickable in full. The bound only bites if MaxActions
// grows past it, and then the tab says so (moveLimitHint) instead of leaving clicks dead.
const defaultMoveLimit = script.MaxActions

// moveLimitHint says why the board of a position with more than limit legal moves cannot be
// clicked, and what to do instead.
func moveLimitHint(n, limit int) string {
	return fmt.Sprintf("The board cannot be clicked here: %d legal moves are more than the %d the tab labels. Choose from the list (search by move number).", n, limit)
}

// moveView is the state of the move chooser.
type moveView struct {
	labels   map[int]string // the last label each action had while legal
	legal    []int          // the legal moves of the position shown (nil: none to choose)
	filtered []int          // the legal moves the search lets through, for the list
	narrow   []int          // the moves of the clicked cell (nil: all legal moves)
	cell     string         // the clicked cell, named for the status
}

// buildMoves makes the move chooser of a newly loaded game: a button per action, or the
// searchable list.
func (dp *duelPanel) buildMoves(info core.Info) {
	dp.moveView = moveView{labels: map[int]string{}}
	dp.moveButtons = nil
	if info.NumActions <= maxMoveButtons {
		objs := make([]fyne.CanvasObject, info.NumActions)
		for a := 0; a < info.NumActions; a++ {
			b := widget.NewButton(fmt.Sprintf("action %d", a), func() { dp.choose(a) })
			b.Disable()
			dp.moveButtons = append(dp.moveButtons, b)
			objs[a] = b
		}
		dp.moves.Objects = []fyne.CanvasObject{container.NewGridWithColumns(3, objs...)}
	} else {
		dp.moveSearch.SetText("")
		dp.moves.Objects = []fyne.CanvasObject{container.NewBorder(dp.moveSearch, nil, nil, nil,
			container.NewGridWrap(fyne.NewSize(420, 260), dp.moveList))}
	}
	dp.moves.Objects = append(dp.moves.Objects[:1:1], container.NewHBox(dp.allMoves))
	dp.moves.Objects = []fyne.CanvasObject{container.NewVBox(dp.moves.Objects...)}
	dp.allMoves.Hide()
	dp.moves.Refresh()
}

func (dp *duelPanel) buildMoveSearch() {
	dp.moveSearch = widget.NewEntry()
	dp.moveSearch.SetPlaceHolder("search the legal moves: a number or words of the label")
	dp.moveSearch.OnChanged = func(string) { dp.filterMoves() }
	dp.moveList = widget.NewList(
		func() int { return len(dp.moveView.filtered) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(dp.moveView.filtered) {
				a := dp.moveView.filtered[i]
				o.(*widget.Label).SetText(fmt.Sprintf("%d  %s", a, dp.label(a)))
			}
		})
	dp.allMoves = widget.NewButton("Show all moves", func() { dp.narrowTo(nil, "") })
	dp.moveList.OnSelected = func(i widget.ListItemID) {
		dp.moveList.UnselectAll()
		if i < len(dp.moveView.filtered) {
			dp.choose(dp.moveView.filtered[i])
		}
	}
}

// label is the action's label: the one of the position shown, or the last it had while legal
// (a disabled button keeps its text), or its number. The labels come with the view: the UI
// goroutine never asks the worker.
func (dp *duelPanel) label(a int) string {
	if dp.view != nil {
		if l, ok := dp.view.labels[a]; ok {
			dp.moveView.labels[a] = l
			return l
		}
	}
	if l, ok := dp.moveView.labels[a]; ok {
		return l
	}
	return fmt.Sprintf("action %d", a)
}

func (dp *duelPanel) choose(a int) {
	if err := dp.Play(a); err != nil {
		dp.status.SetText(err.Error())
	}
}

// setMoves enables the legal moves of the position shown that the click on a cell (if any)
// left (nil: none may be chosen now).
func (dp *duelPanel) setMoves(legal []int) {
	dp.moveView.legal = legal
	ok := make(map[int]bool, len(legal))
	for _, a := range legal {
		ok[a] = dp.moveView.narrow == nil || slices.Contains(dp.moveView.narrow, a)
	}
	for a, b := range dp.moveButtons {
		if ok[a] {
			b.SetText(dp.label(a))
			b.Enable()
		} else {
			b.Disable()
		}
	}
	dp.filterMoves()
}

// narrowTo offers only moves, those of the clicked cell (nil: all legal moves again).
func (dp *duelPanel) narrowTo(moves []int, cell string) {
	dp.moveView.narrow, dp.moveView.cell = moves, cell
	if moves == nil {
		dp.allMoves.Hide()
	} else {
		dp.allMoves.Show()
	}
	if dp.view != nil && dp.view.yours && !dp.busy {
		dp.setMoves(dp.view.legal)
	}
}

// tapCell is a click on the board's cell (row, col), counted from 0 at the top left: the legal
// move touching it is played; when several do, the moves offered narrow to them.
func (dp *duelPanel) tapCell(row, col int) {
	v := dp.view
	if v == nil || dp.busy || !v.yours {
		return
	}
	sq := core.Square{Row: row, Col: col}
	moves := core.MovesAt(v.cells, sq)
	switch len(moves) {
	case 0:
		if v.cells == nil && len(v.legal) > dp.moveLimit {
			dp.status.SetText(moveLimitHint(len(v.legal), dp.moveLimit))
			return
		}
		dp.status.SetText(fmt.Sprintf("No legal move on %s. %s", sq, v.status))
	case 1:
		dp.choose(moves[0])
	default:
		dp.narrowTo(moves, sq.String())
		dp.status.SetText(fmt.Sprintf("%d moves on %s: choose one.", len(moves), sq))
	}
}

// filterMoves applies the clicked cell and the search to the legal moves of the list.
func (dp *duelPanel) filterMoves() {
	if len(dp.moveButtons) > 0 || dp.moveSearch == nil {
		return
	}
	q := strings.ToLower(strings.TrimSpace(dp.moveSearch.Text))
	legal := dp.moveView.legal
	dp.moveView.filtered = dp.moveView.filtered[:0]
	for _, a := range legal {
		if dp.moveView.narrow != nil && !slices.Contains(dp.moveView.narrow, a) {
			continue
		}
		if q == "" || strings.HasPrefix(strconv.Itoa(a), q) ||
			len(legal) <= dp.moveLimit && strings.Contains(strings.ToLower(dp.label(a)), q) {
			dp.moveView.filtered = append(dp.moveView.filtered, a)
		}
	}
	dp.moveList.Refresh()
}

// legalButtons are the enabled move buttons.
func (dp *duelPanel) legalButtons() []*widget.Button {
	var out []*widget.Button
	for _, b := range dp.moveButtons {
		if !b.Disabled() {
			out = append(out, b)
		}
	}
	return out
}

// setBusy shows that a job is working: the moves wait, Stop can cancel it, and Error details
// goes with the status it explained.
func (dp *duelPanel) setBusy(what string) {
	dp.busy = true
	dp.status.SetText(strings.ToUpper(what[:1]) + what[1:])
	dp.errorButton.Hide()
	dp.setMoves(nil)
	dp.stopButton.Enable()
}

// display shows a view a job computed: board, status, moves and log.
func (dp *duelPanel) display(v *duelView) {
	dp.loading = ""
	if v.failed != nil {
		dp.failedLoad(v.failed)
		return
	}
	if v.lost {
		dp.lostGame(v.fault)
		return
	}
	if v.game != nil && v.game != dp.shown {
		dp.loadedGame(v)
	}
	prev := dp.view
	first := prev == nil || prev.game != v.game || prev.seed != v.seed || prev.ply != v.ply
	if prev == nil || prev.game != v.game || prev.seed != v.seed {
		dp.seed.SetText(strconv.FormatInt(v.seed, 10)) // a new game: its seed (never while one is typed mid-game)
	}
	dp.view, dp.busy = v, v.agentNext
	if first || !v.yours {
		dp.narrowTo(nil, "")
	}
	clear(dp.moveView.labels) // labels may depend on the position
	dp.showBoard(v, prev)
	dp.log.SetText(strings.Join(v.log, "\n"))
	dp.logScroll.ScrollToBottom()
	dp.status.SetText(v.status)
	if v.fault != nil {
		dp.offerError(v.fault.title, v.fault.text)
	} else {
		dp.errorButton.Hide()
	}
	dp.newGameButton.Enable()
	if v.ply == 0 && !dp.busy {
		dp.undoButton.Disable()
	} else {
		dp.undoButton.Enable()
	}
	if dp.busy {
		dp.stopButton.Enable()
	} else {
		dp.stopButton.Disable()
	}
	if v.yours {
		dp.setMoves(v.legal)
	} else {
		dp.setMoves(nil)
	}
}
