package zelda

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func grid(t *testing.T, c problems.Content) shape.Grid {
	t.Helper()
	g, err := shape.GridFromContent(c)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func play(t *testing.T, g shape.Grid, actions []Action) *State {
	t.Helper()
	s, err := NewGame(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		s.Step(a)
	}
	return s
}

// Every golden room the metric calls playable (both distances positive) is won by Solution,
// whose first leg is the info's pk_path.
func TestSolutionWinsEveryPlayableGoldenRoom(t *testing.T) {
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	g := problemtest.LoadGolden(t, "testdata/zelda-v0.json")
	playable := 0
	for _, it := range g.Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		in := info.(*Info)
		room := grid(t, c)
		route := Route(room)
		if in.Players == 0 {
			continue
		}
		if in.PlayerKey <= 0 || in.KeyDoor <= 0 {
			if len(route) != 0 {
				t.Errorf("%s: a route %v although the metric finds none", it.ID, route)
			}
			continue
		}
		playable++
		for i, pt := range in.PKPath {
			if route[i] != (shape.Point{X: pt[0], Y: pt[1]}) {
				t.Fatalf("%s: route %v does not start with pk_path %v", it.ID, route, in.PKPath)
			}
		}
		if len(route)-1 != in.PlayerKey+in.KeyDoor {
			t.Errorf("%s: route of %d steps, metric %d+%d", it.ID, len(route)-1, in.PlayerKey, in.KeyDoor)
		}
		if s := play(t, room, Solution(room)); !s.Win() || s.Lose() {
			t.Errorf("%s: the solution does not win:\n%s", it.ID, s.Text())
		}
	}
	if playable < 10 {
		t.Fatalf("only %d playable golden rooms", playable)
	}
}

func room(rows ...string) shape.Grid {
	g := shape.NewGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		for x, c := range r {
			g.Set(x, y, int(c-'0'))
		}
	}
	return g
}

func TestRules(t *testing.T) {
	// 2 player, 3 key, 4 door, 5 enemy.
	r := room(
		"21350",
		"11114",
	)
	tests := []struct {
		name      string
		actions   []Action
		win, lose bool
		hasKey    bool
		at        shape.Point
	}{
		{"walls block", []Action{Up, Left}, false, false, false, shape.Point{X: 0, Y: 0}},
		{"door closed without the key", []Action{Down, Right, Right, Right, Right}, false, false, false, shape.Point{X: 3, Y: 1}},
		{"walking into an enemy loses", []Action{Right, Right, Right}, false, true, true, shape.Point{X: 3, Y: 0}},
		{"moves after a loss do nothing", []Action{Right, Right, Right, Down}, false, true, true, shape.Point{X: 3, Y: 0}},
		{"the sword clears the way", []Action{Right, Right, Sword, Right, Down, Right}, true, false, true, shape.Point{X: 4, Y: 1}},
		{"key then door wins", []Action{Right, Right, Down, Right, Right}, true, false, true, shape.Point{X: 4, Y: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := play(t, r, tc.actions)
			if s.Win() != tc.win || s.Lose() != tc.lose || s.HasKey != tc.hasKey || s.Player != tc.at {
				t.Fatalf("win %v lose %v key %v at %v\n%s", s.Win(), s.Lose(), s.HasKey, s.Player, s.Text())
			}
		})
	}
	if got := Solution(r); len(got) == 0 {
		t.Fatal("no solution")
	} else if s := play(t, r, got); !s.Win() {
		t.Fatalf("solution %v does not win", got)
	}
}

func TestNoPlayer(t *testing.T) {
	if _, err := NewGame(room("1134")); err == nil {
		t.Fatal("a room without a player must be an error")
	}
}
