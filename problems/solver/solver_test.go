package solver

import (
	"slices"
	"testing"

	"pcgwb/problems/shape"
)

// toy is a synthetic game with many equal priorities, so the expansion order exercises heapq's
// tie-breaking. Children of i are 4i+d+1 (dropped when ≡ 3 mod 7), keys collide mod 50, states
// ≡ 10 mod 11 lose. Every popped state is logged (Lose is the first test on a popped node).
type toy struct {
	id, win int
	log     *[]int
}

func (s toy) Next(d Dir) (toy, bool) {
	c := s.id*4 + d.X + 1
	return toy{id: c, win: s.win, log: s.log}, c%7 != 3
}
func (s toy) Key() int       { return s.id % 50 }
func (s toy) Heuristic() int { return (s.id*37 + 3) % 5 }
func (s toy) Win() bool      { return s.id == s.win }
func (s toy) Lose() bool {
	*s.log = append(*s.log, s.id)
	return s.id%11 == 10
}

func (s toy) Player() shape.Point { return shape.Point{X: s.id, Y: -s.id} }

// Directions carry the child index in X so that toy can tell them apart.
var toyDirs = []Dir{{X: 0}, {X: 1}, {X: 2}, {X: 3}}

// The expected values were produced by the reference's agent code (Node.__lt__ in a
// queue.PriorityQueue, list.pop(0) for BFS) run on the same toy game.
func TestAgentsMatchReferenceOrder(t *testing.T) {
	tests := []struct {
		name       string
		bfs        bool
		balance    float64
		win, limit int
		final      int
		iterations int
		path       []int
		popped     []int // the first popped states
	}{
		{"astar 0, budget", false, 0, -1, 40, 1, 40, []int{0},
			[]int{0, 1, 6, 26, 106, 4, 19, 79, 319, 7, 29, 77, 309, 1239, 32, 317, 1271, 5086, 20346, 81386, 1269, 1272, 5091, 5089, 81387, 325551, 325549, 5087, 20367, 20347, 81391, 81389, 1302197, 107, 1237, 27, 4957, 2, 11, 46}},
		{"astar 0.5, budget", false, 0.5, -1, 40, 1, 40, []int{0},
			[]int{0, 1, 6, 4, 26, 19, 106, 79, 2, 11, 46, 9, 186, 39, 319, 159, 12, 51, 49, 7, 29, 77, 309, 32, 37, 151, 149, 47, 191, 189, 27, 152, 312, 317, 1271, 5086, 1269, 20346, 5, 21}},
		{"astar 1, budget", false, 1, -1, 40, 1, 40, []int{0},
			[]int{0, 1, 4, 6, 19, 2, 11, 26, 9, 46, 12, 51, 79, 7, 39, 29, 49, 186, 106, 32, 159, 5, 21, 319, 22, 91, 77, 89, 366, 27, 20, 81, 84, 326, 37, 151, 47, 191, 309, 149}},
		{"astar 0.5, win", false, 0.5, 93, 1000, 93, 138, []int{0, 0, 2, 0}, nil},
		{"astar 0, frontier exhausted", false, 0, 93, 1000, 1, 164, []int{0}, nil},
		{"bfs, budget", true, 0, -1, 30, 1, 30, []int{0},
			[]int{0, 1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 18, 19, 20, 21, 22, 23, 25, 26, 27, 28, 29, 30, 32, 33, 34, 35, 36, 37, 39}},
		{"bfs, win", true, 0, 93, 1000, 93, 52, []int{0, 0, 2, 0}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log []int
			root := toy{id: 0, win: tc.win, log: &log}
			agents := NewAgents[toy, int](Config{Directions: toyDirs, MaxIterations: tc.limit})
			var r Result[toy]
			if tc.bfs {
				r = agents.BFS(root)
			} else {
				r = agents.AStar(root, tc.balance)
			}
			path := make([]int, len(r.Actions))
			for i, a := range r.Actions {
				path[i] = a.X
			}
			if r.Final().id != tc.final || r.Iterations != tc.iterations || !slices.Equal(path, tc.path) {
				t.Errorf("final %d after %d iterations via %v, want %d after %d via %v",
					r.Final().id, r.Iterations, path, tc.final, tc.iterations, tc.path)
			}
			if r.Won != (tc.final == tc.win) {
				t.Errorf("won = %v", r.Won)
			}
			if tc.popped != nil && !slices.Equal(log[:len(tc.popped)], tc.popped) {
				t.Errorf("popped %v\nwant   %v", log[:len(tc.popped)], tc.popped)
			}
			// The agents reuse their memory: a second run must not be affected by the first.
			log = log[:0]
			again := agents.BFS(root)
			fresh := BFS[toy, int](root, Config{Directions: toyDirs, MaxIterations: tc.limit})
			if again.Final().id != fresh.Final().id || again.Iterations != fresh.Iterations {
				t.Errorf("reused agents differ from fresh ones")
			}
		})
	}
}

func TestLocations(t *testing.T) {
	var log []int
	r := BFS[toy, int](toy{id: 0, win: 93, log: &log}, Config{Directions: toyDirs})
	locs := Locations(r, func(s toy) (int, int) { return s.id, -s.id })
	want := []Location{{0, 0, Dir{X: 0}}, {1, -1, Dir{X: 0}}, {5, -5, Dir{X: 2}}, {23, -23, Dir{X: 0}}, {93, -93, Dir{}}}
	if !slices.Equal(locs, want) {
		t.Errorf("locations %v, want %v", locs, want)
	}
	if pl := PlayerLocations(r); !slices.Equal(pl, want) {
		t.Errorf("player locations %v, want %v", pl, want)
	}
	if r.Depth() != 4 || len(r.States) != 5 || r.Heuristic != (93*37+3)%5 {
		t.Errorf("depth %d, %d states, heuristic %d", r.Depth(), len(r.States), r.Heuristic)
	}
}

// Every popped node losing leaves the agent without a best node; the result says so instead of
// crashing like the reference.
func TestNothingExpanded(t *testing.T) {
	var log []int
	r := AStar[toy, int](toy{id: 10, win: -1, log: &log}, 1, Config{Directions: toyDirs, MaxIterations: 5})
	if r.Won || len(r.States) != 0 || r.Heuristic != -1 || r.Iterations != 1 {
		t.Errorf("got %+v", r)
	}
}

type ending struct{ win, lose bool }

func (e ending) Win() bool  { return e.win }
func (e ending) Lose() bool { return e.lose }

func TestStatusText(t *testing.T) {
	for _, c := range []struct {
		e    ending
		want string
	}{
		{ending{}, "running"},
		{ending{win: true}, "win"},
		{ending{lose: true}, "lose"},
		{ending{win: true, lose: true}, "lose"},
	} {
		if got := StatusText(c.e); got != c.want {
			t.Errorf("StatusText(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}
