package core

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Moves chosen on the board. A grid game's render is read as a board of cells (ParseGrid); a
// move touches some of its cells. The relation comes from the script when it defines
// action_cells(s, a), and otherwise from the move's label (LabelCells). A click on a cell then
// offers the legal moves that touch it (MovesAt): the GUI plays the move when there is one and
// narrows its list when there are several; a text front end can do the same with a typed cell.

// Square is one cell of a grid board: Row 0 is the render's top line, Col 0 its leftmost token.
type Square struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

func (c Square) String() string { return fmt.Sprintf("row %d, column %d", c.Row+1, c.Col+1) }

// Grid sizes read from a render: a board has 2 to MaxGridSide rows and columns.
const MaxGridSide = 20

// ParseGrid reads a render as a board: 2 to MaxGridSide lines, each of the same number (2 to
// MaxGridSide) of space-separated one-character tokens, like ". X O". Anything else is not a
// grid (ok false): the render is then shown as text.
func ParseGrid(text string) (rows [][]string, ok bool) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) < 2 || len(lines) > MaxGridSide {
		return nil, false
	}
	for _, line := range lines {
		toks := strings.Fields(line)
		if len(toks) < 2 || len(toks) > MaxGridSide || len(rows) > 0 && len(toks) != len(rows[0]) {
			return nil, false
		}
		for _, t := range toks {
			if len([]rune(t)) != 1 {
				return nil, false
			}
		}
		rows = append(rows, toks)
	}
	return rows, true
}

// The label patterns LabelCells understands. Numbers in labels count from 1, as rulebooks do.
var (
	rowColRE = regexp.MustCompile(`(?i)\brow\s*(\d{1,3})\s*[,;/]?\s*(?:and\s+)?(?:column|col)\s*(\d{1,3})\b`)
	colRowRE = regexp.MustCompile(`(?i)\b(?:column|col)\s*(\d{1,3})\s*[,;/]?\s*(?:and\s+)?row\s*(\d{1,3})\b`)
	colRE    = regexp.MustCompile(`(?i)\b(?:column|col)\s*(\d{1,3})\b`)
	rowRE    = regexp.MustCompile(`(?i)\brow\s*(\d{1,3})\b`)
	cellRE   = regexp.MustCompile(`(?i)\b(?:cell|square)\s*(\d{1,4})\b`)
	pairRE   = regexp.MustCompile(`\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)`)
)

// LabelCells is the default move→cells relation of a game without action_cells: the cells of
// a rows×cols board that a move's label names, counting from 1 as people do:
//
//   - "row R, column C" (or "col", in either order, "(R, C)"): that cell;
//   - "cell N" or "square N": the N-th cell, row by row from the top left;
//   - "column C" alone: every cell of that column (a drop game); "row R" alone: every cell of
//     that row.
//
// A label naming no cell inside the board gives none: that move cannot be chosen on the board.
func LabelCells(label string, rows, cols int) []Square {
	if rows <= 0 || cols <= 0 {
		return nil
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n - 1 }
	inside := func(c Square) bool { return c.Row >= 0 && c.Row < rows && c.Col >= 0 && c.Col < cols }
	var out []Square
	named := false // a cell was named, perhaps outside the board
	add := func(c Square) {
		if inside(c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	pairs := func(re *regexp.Regexp, rowFirst bool) {
		for _, m := range re.FindAllStringSubmatch(label, -1) {
			named = true
			r, c := num(m[1]), num(m[2])
			if !rowFirst {
				r, c = c, r
			}
			add(Square{r, c})
		}
	}
	pairs(rowColRE, true)
	pairs(colRowRE, false)
	pairs(pairRE, true)
	for _, m := range cellRE.FindAllStringSubmatch(label, -1) {
		named = true
		if n := num(m[1]); n >= 0 && n < rows*cols {
			add(Square{n / cols, n % cols})
		}
	}
	if named {
		return out
	}
	// a whole line only when no cell was named: "row 2, column 3" is one cell, not two lines
	for _, m := range colRE.FindAllStringSubmatch(label, -1) {
		for r := 0; r < rows; r++ {
			add(Square{r, num(m[1])})
		}
	}
	for _, m := range rowRE.FindAllStringSubmatch(label, -1) {
		for c := 0; c < cols; c++ {
			add(Square{num(m[1]), c})
		}
	}
	return out
}

// CellMapper is a game that can tell which cells its moves touch (a script's action_cells).
type CellMapper interface {
	// ActionCells returns the cells each action touches in s. defined is false when the game
	// does not say (the script has no action_cells): the labels are used instead.
	ActionCells(s State, actions []int) (cells [][]Square, defined bool, err error)
}

// MoveCells maps each action in actions to the cells it touches on the rows×cols board of s:
// the game's own relation when it has one (CellMapper), otherwise the labels (LabelCells).
// labels, when not nil, holds the actions' labels already fetched (a missing one is asked).
func MoveCells(g Game, s State, actions []int, labels map[int]string, rows, cols int) (map[int][]Square, error) {
	out := make(map[int][]Square, len(actions))
	if m, ok := g.(CellMapper); ok {
		cells, defined, err := m.ActionCells(s, actions)
		if err != nil {
			return nil, err
		}
		if defined {
			for i, a := range actions {
				var in []Square
				for _, c := range cells[i] {
					if c.Row >= 0 && c.Row < rows && c.Col >= 0 && c.Col < cols {
						in = append(in, c)
					}
				}
				out[a] = in
			}
			return out, nil
		}
	}
	for _, a := range actions {
		l, ok := labels[a]
		if !ok {
			var err error
			if l, err = g.ActionLabel(s, a); err != nil {
				return nil, err
			}
		}
		out[a] = LabelCells(l, rows, cols)
	}
	return out, nil
}

// MovesAt lists, sorted, the actions of cells that touch c.
func MovesAt(cells map[int][]Square, c Square) []int {
	var out []int
	for a, cs := range cells {
		if slices.Contains(cs, c) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// ActionLabels labels several actions of s: in one round trip for a sandboxed game.
func ActionLabels(g Game, s State, actions []int) ([]string, error) {
	if b, ok := g.(interface {
		ActionLabels(State, []int) ([]string, error)
	}); ok {
		return b.ActionLabels(s, actions)
	}
	out := make([]string, len(actions))
	for i, a := range actions {
		l, err := g.ActionLabel(s, a)
		if err != nil {
			return nil, err
		}
		out[i] = l
	}
	return out, nil
}

// ParseSquare reads a cell typed by a person, "@R,C" (or "@R C"), counted from 1 as people
// count: "@2,3" is Square{Row: 1, Col: 2}.
func ParseSquare(text string) (Square, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "@")
	if !ok {
		return Square{}, false
	}
	f := strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(f) != 2 {
		return Square{}, false
	}
	r, err1 := strconv.Atoi(f[0])
	c, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || r < 1 || c < 1 || r > MaxGridSide || c > MaxGridSide {
		return Square{}, false
	}
	return Square{Row: r - 1, Col: c - 1}, true
}

// MovesOnSquare lists the legal moves of t touching sq on the board of t's position, or ok
// false when the render is not a grid: what a text front end does with a typed cell.
func MovesOnSquare(g Game, t Turn, sq Square) (moves []int, ok bool, err error) {
	board, err := g.Render(t.State)
	if err != nil {
		return nil, false, err
	}
	rows, ok := ParseGrid(board)
	if !ok {
		return nil, false, nil
	}
	cells, err := MoveCells(g, t.State, t.Legal, nil, len(rows), len(rows[0]))
	if err != nil {
		return nil, true, err
	}
	return MovesAt(cells, sq), true, nil
}
