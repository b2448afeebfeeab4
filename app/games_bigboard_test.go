package app

import (
	"slices"
	"strings"
	"testing"

	"pcgwb/games/duel/script"
)

// fullBoardScript is as many actions as a script can declare (script.MaxActions, 512) on the
// largest board the tab draws (duel.MaxGridSide², 400 cells): action a marks cell a%400 + 1,
// and every action on an empty cell is legal.
const fullBoardScript = `NUM_ACTIONS = 512
def initial_state(seed):
    return {"b": [0] * 400, "p": 0, "n": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [a for a in range(512) if s["b"][a % 400] == 0]
def apply(s, a):
    b = list(s["b"])
    b[a % 400] = 1
    return {"b": b, "p": 1 - s["p"], "n": s["n"] + 1}
def outcome(s):
    return None if s["n"] < 8 else "draw"
def render(s):
    return "\n".join([" ".join([".x"[s["b"][r * 20 + c]] for c in range(20)]) for r in range(20)])
def action_label(s, a):
    return "mark cell %d" % (a % 400 + 1)
`

// TestDuelTabBigBoardsAreClickable: every position a game can have (up to script.MaxActions legal
// moves) gets labels and board cells, so a click plays the move on the cell and the search
// matches labels; when a position has more legal moves than the tab labels (only if that
// bound were lowered below the actions a game may declare), the status and a click on the
// board say why the board cannot be clicked, and the list still finds moves by number.
func TestDuelTabBigBoardsAreClickable(t *testing.T) {
	if defaultMoveLimit < script.MaxActions {
		t.Fatalf("the tab labels %d moves, fewer than the %d a game may have", defaultMoveLimit, script.MaxActions)
	}
	for _, tc := range []struct {
		name, script string
		limit        int
		row, col     int
		want         []int  // the moves the click offers, or plays when one (nil: the hint)
		search       string // a label search, and the moves it lists
		found        []int
	}{
		{"512 legal moves, all mapped", fullBoardScript, defaultMoveLimit, 19, 19, []int{399}, "mark cell 300", []int{299}},
		{"512 legal moves, two on a cell", fullBoardScript, defaultMoveLimit, 0, 4, []int{4, 404}, "mark cell 112", []int{111, 511}},
		{"199 legal moves, all mapped", gridScript, defaultMoveLimit, 2, 3, []int{23, 123}, "big piece on cell 24", []int{123}},
		{"199 legal moves, more than the tab labels", gridScript, 100, 2, 3, nil, "123", []int{123}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dp := newDuelTestPanel(t)
			dp.moveLimit = tc.limit
			dp.Agent.SetText("first")
			dp.Seat.SetSelected(seatFirst)
			dp.loadGame(writeScript(t, "big.star", tc.script))
			waitDuel(t, dp)
			if len(dp.grid.Objects) == 0 || !strings.HasPrefix(dp.status.Text, "Your turn") {
				t.Fatalf("no drawn board or not our turn: status %q", dp.status.Text)
			}
			hinted := strings.Contains(dp.status.Text, "cannot be clicked")
			if hinted != (tc.want == nil) {
				t.Errorf("status %q: hint shown %v, want %v", dp.status.Text, hinted, tc.want == nil)
			}

			dp.moveSearch.SetText(tc.search)
			if !slices.Equal(dp.moveView.filtered, tc.found) {
				t.Errorf("search %q lists %v, want %v", tc.search, dp.moveView.filtered, tc.found)
			}
			dp.moveSearch.SetText("")

			boardCellAt(t, dp, tc.row, tc.col).Tapped(nil)
			switch {
			case tc.want == nil:
				if !strings.HasPrefix(dp.status.Text, "The board cannot be clicked") || dp.session().Ply() != 0 {
					t.Errorf("a click on a board without cells: status %q, ply %d", dp.status.Text, dp.session().Ply())
				}
			case len(tc.want) == 1:
				waitDuel(t, dp)
				if moves := dp.session().Moves(); len(moves) != 2 || moves[0] != tc.want[0] {
					t.Errorf("moves %v after a click on (%d, %d), want %d first", moves, tc.row, tc.col, tc.want[0])
				}
			default:
				if got := dp.moveView.filtered; !slices.Equal(got, tc.want) || dp.session().Ply() != 0 {
					t.Errorf("narrowed to %v, want %v (status %q)", got, tc.want, dp.status.Text)
				}
			}
		})
	}
}
