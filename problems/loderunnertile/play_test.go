package loderunnertile

import (
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// The play rules reach exactly the cells the metric's Explore reaches.
func TestStepsReachWhatExploreReaches(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		g := shape.NewGrid(4+r.IntN(12), 4+r.IntN(10))
		for i := range g.Cells {
			g.Cells[i] = []int{Brick, Empty, Empty, Empty, Gold, Enemy, Ladder, Ladder, Rope}[r.IntN(9)]
		}
		for x := 0; x < g.W; x++ {
			g.Set(x, g.H-1, Brick)
		}
		g.Set(r.IntN(g.W), r.IntN(g.H-1), Player)
		s, err := NewGame(g)
		if err != nil {
			t.Fatal(err)
		}
		reached := make([]bool, len(g.Cells))
		queue := []shape.Point{s.Player}
		reached[s.Player.Y*g.W+s.Player.X] = true
		for h := 0; h < len(queue); h++ {
			for _, d := range steps {
				if n, moved := s.next(queue[h], d.X, d.Y); moved && !reached[n.Y*g.W+n.X] {
					reached[n.Y*g.W+n.X] = true
					queue = append(queue, n)
				}
			}
		}
		e := Explore(g)
		for i := range reached {
			if reached[i] != (e.Cells[i] != Unreached) {
				t.Fatalf("trial %d: cell (%d, %d) reached %v by steps, Explore %d", trial, i%g.W, i/g.W, reached[i], e.Cells[i])
			}
		}
	}
}

func TestPlayRules(t *testing.T) {
	// 0 brick, 1 empty, 2 player, 3 gold, 4 enemy, 5 ladder, 6 rope.
	lv := level(
		"1111111",
		"2135661",
		"0005001",
		"1113004",
		"0000000",
	)
	tests := []struct {
		name      string
		moves     []shape.Point
		at        shape.Point
		gold      int
		win, lose bool
	}{
		{"bricks block", []shape.Point{{X: -1}, {Y: -1}}, shape.Point{X: 0, Y: 1}, 0, false, false},
		{"walk onto gold", []shape.Point{{X: 1}, {X: 1}}, shape.Point{X: 2, Y: 1}, 1, false, false},
		{"no climbing without a ladder", []shape.Point{{X: 1}, {Y: -1}}, shape.Point{X: 1, Y: 1}, 0, false, false},
		{"down the ladder to the last gold; then nothing moves", []shape.Point{{X: 1}, {X: 1}, {X: 1}, {Y: 1}, {Y: 1}, {X: -1}}, shape.Point{X: 3, Y: 3}, 2, true, false},
		{"cross the ropes, fall onto the guard", []shape.Point{{X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}, {Y: 1}, {}}, shape.Point{X: 6, Y: 3}, 1, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewGame(lv)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.moves {
				s.Step(m.X, m.Y)
			}
			if s.Player != tc.at || s.Collected != tc.gold || s.Win() != tc.win || s.Lose() != tc.lose {
				t.Fatalf("at %v gold %d win %v lose %v\n%s", s.Player, s.Collected, s.Win(), s.Lose(), s.Text())
			}
		})
	}
	s, _ := NewGame(lv)
	playTour(s, s.Tour())
	if !s.Win() {
		t.Fatalf("the tour %v does not win\n%s", s.Tour(), s.Text())
	}
	// Digging clears the guard below while falling onto it.
	s, _ = NewGame(lv)
	for _, m := range []shape.Point{{X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}, {X: 1}, {Y: 1}} {
		s.Step(m.X, m.Y)
	}
	if !s.Dig() || s.Lose() || s.Player != (shape.Point{X: 6, Y: 3}) || s.Trapped != 1 {
		t.Fatalf("dig: lose %v at %v trapped %d\n%s", s.Lose(), s.Player, s.Trapped, s.Text())
	}
}

func playTour(s *State, tour []TourMove) {
	for _, m := range tour {
		if m.Dig {
			s.Dig()
		} else {
			s.Step(m.X, m.Y)
		}
	}
}

// The tour collects all the gold of every golden level whose gold the metric finds within
// reach.
func TestTourWinsWhenTheMetricReachesAllGold(t *testing.T) {
	refData(t)
	p, err := problems.Make("loderunnertile-v0")
	if err != nil {
		t.Fatal(err)
	}
	wins := 0
	for _, it := range problemtest.LoadGolden(t, "testdata/loderunnertile-v0.json").Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			t.Fatal(err)
		}
		lv, err := p.(*Problem).Level(c)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewGame(lv)
		if err != nil {
			continue
		}
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		in := info.(*Info)
		playTour(s, s.Tour())
		if s.Lose() {
			t.Fatalf("%s: the tour lost\n%s", it.ID, s.Text())
		}
		if all := in.CollectedGold == in.Gold; s.Win() != all && in.Player == 1 {
			t.Fatalf("%s: tour won %v, metric collects %d of %d\n%s", it.ID, s.Win(), in.CollectedGold, in.Gold, s.Text())
		}
		if s.Win() {
			wins++
		}
	}
	if wins < 3 {
		t.Fatalf("only %d golden levels won", wins)
	}
}
