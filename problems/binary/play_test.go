package binary

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// The walk's ends are the metric's path: the fewest moves that win equal Info.Path, and the
// solution takes exactly that many.
func TestSolutionWalksTheMetricsLongestPath(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range problemtest.LoadGolden(t, "testdata/binary-v0.json").Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := shape.GridFromContent(c)
		s, err := NewGame(g)
		if err != nil {
			continue // an all-solid maze
		}
		if s.Length != info.(*Info).Path || s.Remaining() != s.Length {
			t.Fatalf("%s: walk of %d (remaining %d), metric path %d", it.ID, s.Length, s.Remaining(), info.(*Info).Path)
		}
		sol := s.Solution()
		for _, d := range sol {
			if !s.Step(d.X, d.Y) {
				t.Fatalf("%s: step %v blocked", it.ID, d)
			}
		}
		if !s.Win() || s.Moves != info.(*Info).Path {
			t.Fatalf("%s: after the solution win %v in %d moves, want %d\n%s", it.ID, s.Win(), s.Moves, info.(*Info).Path, s.Text())
		}
	}
}

func TestStepRules(t *testing.T) {
	g := shape.NewGrid(3, 2)
	copy(g.Cells, []int{1, 1, 1, 0, 0, 1})
	s, err := NewGame(g)
	if err != nil {
		t.Fatal(err)
	}
	if s.Length != 3 {
		t.Fatalf("length %d, want 3", s.Length)
	}
	start := s.Player
	if s.Step(1, 1) || s.Step(0, 0) {
		t.Fatal("diagonal and empty steps must not move")
	}
	if s.Player != start {
		t.Fatal("moved")
	}
	all := shape.NewGrid(2, 2)
	if _, err := NewGame(all); err == nil {
		t.Fatal("an all-solid maze must be an error")
	}
}
