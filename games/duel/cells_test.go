package duel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestLabelCells(t *testing.T) {
	for _, tc := range []struct {
		label      string
		rows, cols int
		want       []Square
	}{
		{"X at row 2, column 3", 3, 3, []Square{{1, 2}}},
		{"O at column 1 row 3", 3, 3, []Square{{2, 0}}},
		{"place at (3, 1)", 3, 3, []Square{{2, 0}}},
		{"move to cell 5", 3, 3, []Square{{1, 1}}},
		{"square 9", 3, 3, []Square{{2, 2}}},
		{"drop into column 2", 3, 4, []Square{{0, 1}, {1, 1}, {2, 1}}},
		{"clear row 1", 2, 3, []Square{{0, 0}, {0, 1}, {0, 2}}},
		{"jump from row 1, col 1 to row 3, col 3", 3, 3, []Square{{0, 0}, {2, 2}}},
		{"X at row 4, column 1", 3, 3, nil}, // outside the board
		{"cell 10", 3, 3, nil},
		{"column 0", 3, 3, nil}, // labels count from 1
		{"take 2 stones from heap 1", 3, 3, nil},
		{"row 1, column 1", 0, 3, nil},
	} {
		got := LabelCells(tc.label, tc.rows, tc.cols)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("LabelCells(%q, %d, %d) = %v, want %v", tc.label, tc.rows, tc.cols, got, tc.want)
		}
	}
}

func TestParseGrid(t *testing.T) {
	for _, tc := range []struct {
		text       string
		rows, cols int
	}{
		{". X .\nO . .\n. . X", 3, 3},
		{"\n. .\n. .\n", 2, 2},
		{"n=5", 0, 0},
		{"heap 3 4 5", 0, 0},
		{". X\n. . .", 0, 0},
		{"10 11\n12 13", 0, 0}, // tokens of more than one character
		{strings.Repeat(". . .\n", MaxGridSide+1), 0, 0},
	} {
		rows, ok := ParseGrid(tc.text)
		if ok != (tc.rows > 0) || len(rows) != tc.rows || ok && len(rows[0]) != tc.cols {
			t.Errorf("ParseGrid(%q) = %v, %v", tc.text, rows, ok)
		}
	}
}

func TestMovesAt(t *testing.T) {
	cells := map[int][]Square{0: {{0, 0}}, 1: {{0, 0}, {1, 0}}, 2: {{1, 1}}, 3: nil}
	for _, tc := range []struct {
		c    Square
		want []int
	}{{Square{0, 0}, []int{0, 1}}, {Square{1, 0}, []int{1}}, {Square{1, 1}, []int{2}}, {Square{2, 2}, nil}} {
		if got := MovesAt(cells, tc.c); !slices.Equal(got, tc.want) {
			t.Errorf("MovesAt(%v) = %v, want %v", tc.c, got, tc.want)
		}
	}
}

// TestMoveCellsOfBuiltins: a click on a cell of the drawn board names the right moves, in this
// process and through a sandbox worker alike: tic-tac-toe by its labels ("row R, column C"),
// connect-four by its action_cells (a whole column, whose labels count from 0).
func TestMoveCellsOfBuiltins(t *testing.T) {
	pool := &Pool{MaxIdle: 1}
	defer pool.Close()
	for _, tc := range []struct {
		game  string
		moves []int // played first
		click Square
		want  []int
	}{
		{"tic-tac-toe", nil, Square{1, 2}, []int{5}},
		{"tic-tac-toe", []int{4}, Square{1, 1}, nil}, // taken: no legal move there
		{"tic-tac-toe", []int{4}, Square{2, 0}, []int{6}},
		{"connect-four", nil, Square{0, 3}, []int{3}},
		{"connect-four", []int{2, 2}, Square{6, 2}, []int{2}}, // the number line under column 2
	} {
		for _, sandboxed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%v/sandboxed=%v", tc.game, tc.click, sandboxed), func(t *testing.T) {
				var g Game
				if sandboxed {
					r, err := pool.Open(context.Background(), tc.game, builtinSource(t, tc.game), SandboxOptions{})
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					g = r
				} else {
					sg, err := LoadBuiltin(tc.game, Limits{})
					if err != nil {
						t.Fatal(err)
					}
					defer sg.Close()
					g = sg
				}
				s, err := NewSession(g, 1, 0)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range tc.moves {
					if err := s.Play(a); err != nil {
						t.Fatal(err)
					}
				}
				board, err := g.Render(s.State())
				if err != nil {
					t.Fatal(err)
				}
				rows, ok := ParseGrid(board)
				if !ok {
					t.Fatalf("render is not a grid:\n%s", board)
				}
				turn, err := s.Turn()
				if err != nil {
					t.Fatal(err)
				}
				cells, err := MoveCells(g, s.State(), turn.Legal, nil, len(rows), len(rows[0]))
				if err != nil {
					t.Fatal(err)
				}
				if got := MovesAt(cells, tc.click); !slices.Equal(got, tc.want) {
					t.Errorf("moves at %v: %v, want %v", tc.click, got, tc.want)
				}
			})
		}
	}
}

func builtinSource(t *testing.T, name string) []byte {
	t.Helper()
	p, err := Open(name, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Source()
}

// TestActionCellsContract: action_cells' answer is checked like every contract function's.
func TestActionCellsContract(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"return [(0, a)]", ""},
		{"return 3", "want a list of (row, column) pairs"},
		{"return [(0,)]", "want a (row, column) pair"},
		{"return [(-1, 0)]", "want two ints"},
		{"return [(0, 0)] * 401", "the limit is 400"},
	} {
		src := gameSource("", map[string]string{}) + "def action_cells(s, a):\n    " + tc.body + "\n"
		p, err := Compile("cells", []byte(src), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := p.New()
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.Initial(1)
		if err != nil {
			t.Fatal(err)
		}
		cells, defined, err := g.ActionCells(s, []int{1})
		switch {
		case !defined:
			t.Errorf("%s: action_cells not seen", tc.body)
		case tc.want == "" && (err != nil || len(cells) != 1 || fmt.Sprint(cells[0]) != "[row 1, column 2]"):
			t.Errorf("%s: %v, %v", tc.body, cells, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.want)
		}
		g.Close()
	}
}

// TestActionLabelsBatch: the labels of many actions come in one round trip and equal the
// labels asked one by one.
func TestActionLabelsBatch(t *testing.T) {
	pool := &Pool{MaxIdle: 1}
	defer pool.Close()
	r, err := pool.Open(context.Background(), "nim", builtinSource(t, "nim"), SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Initial(3)
	if err != nil {
		t.Fatal(err)
	}
	legal, err := r.Legal(s)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := ActionLabels(r, s, legal)
	if err != nil || len(batch) != len(legal) {
		t.Fatalf("%d labels for %d actions: %v", len(batch), len(legal), err)
	}
	for i, a := range legal {
		one, err := r.ActionLabel(s, a)
		if err != nil || one != batch[i] {
			t.Errorf("action %d: batch %q, alone %q (%v)", a, batch[i], one, err)
		}
	}
}

func FuzzLabelCells(f *testing.F) {
	for _, s := range []string{"X at row 2, column 3", "cell 5", "drop into column 2", "(1, 2)", "row 999 col 999"} {
		f.Add(s, 3, 4)
	}
	f.Fuzz(func(t *testing.T, label string, rows, cols int) {
		rows, cols = rows%(MaxGridSide+2), cols%(MaxGridSide+2)
		for _, c := range LabelCells(label, rows, cols) {
			if c.Row < 0 || c.Row >= rows || c.Col < 0 || c.Col >= cols {
				t.Fatalf("%q on %dx%d: cell %v outside the board", label, rows, cols, c)
			}
		}
	})
}

func FuzzParseGrid(f *testing.F) {
	for _, s := range []string{". X .\nO . .\n. . X", "n=5", ". .\n. . .", "é é\nü ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rows, ok := ParseGrid(text)
		if !ok {
			return
		}
		if len(rows) < 2 || len(rows) > MaxGridSide {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if len(r) != len(rows[0]) || len(r) < 2 || len(r) > MaxGridSide {
				t.Fatalf("ragged or oversized row %v", r)
			}
		}
	})
}

func TestParseSquare(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Square
		ok   bool
	}{
		{"@2,3", Square{1, 2}, true},
		{" @1 1 ", Square{0, 0}, true},
		{"@20, 20", Square{19, 19}, true},
		{"@0,1", Square{}, false},
		{"@21,1", Square{}, false},
		{"2,3", Square{}, false},
		{"@2", Square{}, false},
		{"@a,b", Square{}, false},
		{"@1,2,3", Square{}, false},
	} {
		got, ok := ParseSquare(tc.text)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseSquare(%q) = %v, %v", tc.text, got, ok)
		}
	}
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"@2,3", "@ 1 1", "@-1,4", "@99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if sq, ok := ParseSquare(text); ok && (sq.Row < 0 || sq.Col < 0 || sq.Row >= MaxGridSide || sq.Col >= MaxGridSide) {
			t.Fatalf("%q: %v", text, sq)
		}
	})
}

// TestApplyAnswersTheNextTurn: initial and apply bring the new state's outcome, player and
// legal moves with them, so a move costs one round trip; a fault in that inspection is not
// hidden: the next question asks again and names it.
func TestApplyAnswersTheNextTurn(t *testing.T) {
	pool := &Pool{MaxIdle: 1}
	defer pool.Close()
	src := gameSource("", map[string]string{"legal_actions": `if s["n"] >= 2:
    fail("no moves past 2")
return [0, 1]`})
	r, err := pool.Open(context.Background(), "inspect", []byte(src), SandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Initial(1)
	if err != nil {
		t.Fatal(err)
	}
	for ply := 0; ; ply++ {
		before := r.p.calls
		o, errO := r.Outcome(s)
		_, errP := r.ToMove(s)
		legal, errL := r.Legal(s)
		if ply < 1 {
			if errO != nil || errP != nil || errL != nil || o.Done() || len(legal) != 2 {
				t.Fatalf("ply %d: %v %v %v %v %v", ply, o, legal, errO, errP, errL)
			}
			if r.p.calls != before {
				t.Errorf("ply %d: %d round trips to read the turn of a state apply made", ply, r.p.calls-before)
			}
			before = r.p.calls
			if s, err = r.Apply(s, 1); err != nil { // n: 0 -> 2
				t.Fatal(err)
			}
			if r.p.calls != before+1 {
				t.Errorf("apply took %d round trips", r.p.calls-before)
			}
			continue
		}
		if errL == nil || !strings.Contains(errL.Error(), "no moves past 2") {
			t.Fatalf("legal_actions' fault hidden: %v %v", legal, errL)
		}
		if r.p.calls != before+1 {
			t.Errorf("the fault was not asked again: %d round trips", r.p.calls-before)
		}
		break
	}
}
