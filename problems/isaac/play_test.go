package isaac

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// The solution wins every golden floor whose three special rooms are rooms connected to the
// start, and never steps through a wall.
func TestSolutionFindsEveryReachableSpecialRoom(t *testing.T) {
	p, err := problems.Make("isaac-v0")
	if err != nil {
		t.Fatal(err)
	}
	is := p.(*Isaac)
	wins := 0
	for _, it := range problemtest.LoadGolden(t, "testdata/isaac-v0.json").Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		s, err := is.Game(c)
		if err != nil {
			continue // the start is not a room
		}
		dist := shape.BFS(s.maze, 3*(s.Room%s.w)+1, 3*(s.Room/s.w)+1, passable)
		reachable := true
		for _, sp := range s.Specials() {
			reachable = reachable && sp.Exists && dist[(3*(sp.Room/s.w)+1)*s.maze.W+3*(sp.Room%s.w)+1] >= 0
		}
		for _, d := range s.Solution() {
			if !s.Step(d.X, d.Y) {
				t.Fatalf("%s: step %v blocked\n%s", it.ID, d, s.Text())
			}
		}
		if s.Win() != reachable {
			t.Fatalf("%s: win %v, all specials reachable %v\n%s", it.ID, s.Win(), reachable, s.Text())
		}
		if s.Win() {
			wins++
		}
	}
	if wins < 5 {
		t.Fatalf("only %d golden floors won", wins)
	}
}

func TestDoorsMustFaceEachOther(t *testing.T) {
	// Two rooms side by side: the left one has a right door; the right one has a left door only
	// in the second case.
	for _, tc := range []struct {
		right int
		moves bool
	}{{DoorUp, false}, {DoorLeft, true}} {
		c := Content{Layout: []int{DoorRight, tc.right}, Start: 0, Boss: 1, Shop: 1, Treasure: 1}
		s, err := NewGame(c, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Step(1, 0); got != tc.moves {
			t.Fatalf("right door %d: moved %v, want %v", tc.right, got, tc.moves)
		}
		if s.Win() != tc.moves {
			t.Fatalf("win %v after finding the one special room %v", s.Win(), tc.moves)
		}
	}
	if _, err := NewGame(Content{Layout: []int{0, 1}}, 2, 1); err == nil {
		t.Fatal("a start that is not a room must be an error")
	}
}
