package core

import (
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
