package shape

import (
	"math/rand/v2"
	"testing"
)

func TestLongestPathEndsAgreesWithLongestPath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pass := TilesOf(1)
	for trial := 0; trial < 300; trial++ {
		g := NewGrid(1+r.IntN(12), 1+r.IntN(12))
		for i := range g.Cells {
			g.Cells[i] = r.IntN(2)
		}
		length, from, to, ok := LongestPathEnds(g, pass)
		if want := LongestPath(g, pass); length != want {
			t.Fatalf("trial %d: length %d, LongestPath %d", trial, length, want)
		}
		if !ok {
			if Count(g, pass) != 0 {
				t.Fatalf("trial %d: no ends on a grid with open cells", trial)
			}
			continue
		}
		if d := BFS(g, from.X, from.Y, pass)[to.Y*g.W+to.X]; d != length {
			t.Fatalf("trial %d: ends %v %v are %d apart, want %d", trial, from, to, d, length)
		}
	}
}
