package duel

import (
	"context"
	"fmt"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"slices"
	"strings"
	"testing"
)

// TestMoveCellsOfBuiltins: a click on a cell of the drawn board names the right moves, in this
// process and through a sandbox worker alike: tic-tac-toe by its labels ("row R, column C"),
// connect-four by its action_cells (a whole column, whose labels count from 0).
func TestMoveCellsOfBuiltins(t *testing.T) {
	pool := &sandbox.Pool{MaxIdle: 1}
	defer pool.Close()
	for _, tc := range []struct {
		game  string
		moves []int // played first
		click core.Square
		want  []int
	}{
		{"tic-tac-toe", nil, core.Square{Row: 1, Col: 2}, []int{5}},
		{"tic-tac-toe", []int{4}, core.Square{Row: 1, Col: 1}, nil}, // taken: no legal move there
		{"tic-tac-toe", []int{4}, core.Square{Row: 2, Col: 0}, []int{6}},
		{"connect-four", nil, core.Square{Row: 0, Col: 3}, []int{3}},
		{"connect-four", []int{2, 2}, core.Square{Row: 6, Col: 2}, []int{2}}, // the number line under column 2
	} {
		for _, sandboxed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%v/sandboxed=%v", tc.game, tc.click, sandboxed), func(t *testing.T) {
				var g core.Game
				if sandboxed {
					r, err := pool.Open(context.Background(), tc.game, builtinSource(t, tc.game), sandbox.SandboxOptions{})
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					g = r
				} else {
					sg, err := script.LoadBuiltin(tc.game, script.Limits{})
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
				rows, ok := core.ParseGrid(board)
				if !ok {
					t.Fatalf("render is not a grid:\n%s", board)
				}
				turn, err := s.Turn()
				if err != nil {
					t.Fatal(err)
				}
				cells, err := core.MoveCells(g, s.State(), turn.Legal, nil, len(rows), len(rows[0]))
				if err != nil {
					t.Fatal(err)
				}
				if got := core.MovesAt(cells, tc.click); !slices.Equal(got, tc.want) {
					t.Errorf("moves at %v: %v, want %v", tc.click, got, tc.want)
				}
			})
		}
	}
}

func builtinSource(t *testing.T, name string) []byte {
	t.Helper()
	p, err := script.Open(name, script.Limits{})
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
		p, err := script.Compile("cells", []byte(src), script.Limits{})
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
	pool := &sandbox.Pool{MaxIdle: 1}
	defer pool.Close()
	r, err := pool.Open(context.Background(), "nim", builtinSource(t, "nim"), sandbox.SandboxOptions{})
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
	batch, err := core.ActionLabels(r, s, legal)
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
