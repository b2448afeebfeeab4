package problemtest

import (
	"testing"

	"pcgwb/problems/shape"
)

// Picture reads a tile map drawn as text, one string per row and one character per tile, each
// character looked up in tiles (a problem's legend, such as '#' solid and '@' player). An
// unknown character or a row of another width fails the test.
func Picture(t testing.TB, tiles map[rune]int, rows ...string) shape.Grid {
	t.Helper()
	if len(rows) == 0 {
		t.Fatal("picture has no rows")
	}
	g := shape.NewGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		if len(r) != g.W {
			t.Fatalf("picture row %d is %d characters wide, want %d", y, len(r), g.W)
		}
		for x, ch := range r {
			v, ok := tiles[ch]
			if !ok {
				t.Fatalf("bad tile %q", ch)
			}
			g.Set(x, y, v)
		}
	}
	return g
}
