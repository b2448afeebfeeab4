package sokoban

import (
	"encoding/json"
	"strings"
	"testing"

	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
)

// level reads a picture: '#' solid, '.' empty, '@' player, '$' crate, 't' target.
func level(t testing.TB, rows ...string) shape.Grid {
	t.Helper()
	return problemtest.Picture(t, legend, rows...)
}

var legend = map[rune]int{'#': Solid, '.': Empty, '@': Player, '$': Crate, 't': Target}

func game(t testing.TB, rows ...string) State {
	t.Helper()
	s, err := NewGame(level(t, rows...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The expected maps (padded, 'x' = deadlock) were produced by the reference's
// intializeDeadlocks on the same levels.
func TestDeadlocks(t *testing.T) {
	tests := []struct {
		name  string
		level []string
		want  []string
	}{
		{"open room: corners and the wall runs between them",
			[]string{
				"@....",
				".....",
				"..#..",
				".....",
				".....",
			},
			[]string{
				"#######",
				"#xxxxx#",
				"#x...x#",
				"#x.#.x#",
				"#x...x#",
				"#xxxxx#",
				"#######",
			}},
		{"a target breaks a run and is never a corner",
			[]string{
				"@.t..",
				".....",
				".....",
				".....",
				"....t",
			},
			[]string{
				"#######",
				"#x...x#",
				"#x....#",
				"#x....#",
				"#x....#",
				"#x....#",
				"#######",
			}},
		{"inner walls make corners; a run needs a wall beside every cell",
			[]string{
				"@..#.",
				"#....",
				".....",
				"..##.",
				".....",
			},
			[]string{
				"#######",
				"#xxx#x#",
				"##...x#",
				"#x...x#",
				"#x.##x#",
				"#xxxxx#",
				"#######",
			}},
		{"large level",
			[]string{
				"@......#",
				"....#...",
				".#......",
				"........",
				"...##...",
				"........",
				"#.....t.",
				"..#.....",
			},
			[]string{
				"##########",
				"#xxxxxxx##",
				"#x...#..x#",
				"#x#.....x#",
				"#x......x#",
				"#x..##..x#",
				"#x......x#",
				"##......x#",
				"#xx#xxxxx#",
				"##########",
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := game(t, tc.level...).Level()
			for y, row := range tc.want {
				for x, ch := range row {
					if got := l.Deadlock(x, y); got != (ch == 'x') {
						t.Errorf("deadlock(%d, %d) = %v, want %v", x, y, got, ch == 'x')
					}
				}
			}
		})
	}
}

func dirs(moves string) []solver.Dir {
	m := map[rune]solver.Dir{'L': {X: -1}, 'R': {X: 1}, 'U': {Y: -1}, 'D': {Y: 1}}
	out := make([]solver.Dir, 0, len(moves))
	for _, c := range moves {
		out = append(out, m[c])
	}
	return out
}

func TestChildrenPruning(t *testing.T) {
	s := game(t,
		"..$.t",
		".@...",
		".....",
		".....",
		".....",
	)
	if _, keep := s.Next(solver.Dir{Y: -1}); !keep {
		t.Error("walking up onto free floor should be a child")
	}
	up, _ := s.Next(solver.Dir{Y: -1})
	if _, keep := up.Next(solver.Dir{Y: -1}); keep {
		t.Error("walking into the wall leaves the player in place: no child")
	}
	// Pushing the crate right keeps it on the top edge run, which holds the target: fine.
	if _, keep := up.Next(solver.Dir{X: 1}); !keep {
		t.Error("pushing along an edge run that holds a target is not a deadlock")
	}
	// A crate pushed into a corner is pruned.
	c := game(t,
		".....",
		".$...",
		".@...",
		".....",
		"....t",
	)
	if _, keep := c.Next(solver.Dir{Y: -1}); keep {
		t.Error("pushing a crate onto the top wall run (no target on it) should be pruned")
	}
	// Any crate on a deadlock cell prunes every push, even of another crate (reference rule).
	d := game(t,
		"$....",
		"..t..",
		".$@..",
		"....t",
		".....",
	)
	if _, keep := d.Next(solver.Dir{X: -1}); keep {
		t.Error("a crate already in a corner should prune every push")
	}
	if _, keep := d.Next(solver.Dir{Y: 1}); !keep {
		t.Error("plain walks are never pruned")
	}
}

func TestMoveAndWin(t *testing.T) {
	s := game(t, "@$t..", ".....", ".....", ".....", ".....")
	if moved, pushed := s.Move(solver.Dir{X: 1}); !moved || !pushed {
		t.Fatalf("push: moved %v pushed %v", moved, pushed)
	}
	if !s.Win() {
		t.Fatal("the only crate is on the only target")
	}
	if moved, _ := s.Move(solver.Dir{Y: 1}); moved {
		t.Error("a won level ignores moves")
	}
	b := game(t, "@$$t.", ".....", ".....", ".....", "....t")
	if moved, _ := b.Move(solver.Dir{X: 1}); moved {
		t.Error("two crates in a row cannot be pushed")
	}
	if moved, _ := b.Move(solver.Dir{X: 1, Y: 1}); moved {
		t.Error("diagonal moves do nothing")
	}
}

func TestHeuristicGreedyMatching(t *testing.T) {
	// The first crate (scan order) at (0,0) has both targets at distance 4 and takes the first,
	// (4,0); the crate at (3,0), right next to it, is left the far target: 4 + 7, not the
	// optimal 4 + 1.
	s := game(t,
		"$..$t",
		"@....",
		".....",
		".....",
		"t....",
	)
	if h := s.Heuristic(); h != 4+7 {
		t.Errorf("heuristic %d, want 11", h)
	}
	// Equal distances: the first remaining target in scan order wins.
	e := game(t,
		"t.$.t",
		"@....",
		".....",
		".....",
		"..$..",
	)
	// crate (2,0): targets (0,0) and (4,0) both at 2, takes (0,0); crate (2,4) takes (4,0): 2+2+4.
	if h := e.Heuristic(); h != 2+6 {
		t.Errorf("heuristic %d, want 8", h)
	}
}

func TestKeyKeepsCrateIdentity(t *testing.T) {
	// Swapping which crate is where gives a different key, as in the reference.
	s := game(t, "$.$..", ".@...", ".....", ".....", "t...t")
	a, b := s, s
	a.crates[0], a.crates[1] = s.crates[1], s.crates[0]
	if a.Key() == b.Key() {
		t.Error("permuted crates must be different states")
	}
	if s.Key() != b.Key() {
		t.Error("copies must share a key")
	}
}

// Levels the reference's agents solve only with a later agent; the solutions (and the final
// heuristic of an unsolved level) come from the reference's _run_game.
func TestSolveMatchesReference(t *testing.T) {
	tests := []struct {
		name    string
		level   [][]int
		power   int
		h       int
		actions string
	}{
		{"A* 1", [][]int{{4, 1, 1, 3, 4}, {1, 1, 1, 1, 4}, {1, 3, 2, 1, 1}, {3, 1, 1, 1, 1}, {1, 1, 1, 1, 1}},
			5000, 0, "DLULURDDDLUUURRRLUR"},
		{"A* 0.5", [][]int{{0, 1, 0, 1, 4}, {1, 1, 4, 3, 1}, {1, 1, 1, 1, 4}, {2, 1, 3, 3, 1}, {1, 3, 1, 1, 4}},
			5000, 0, "DRRRULURDRUULDDDLLULURRR"},
		{"A* 0 with a small budget", [][]int{{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 0, 3, 1}, {1, 2, 1, 3, 4}, {4, 1, 1, 3, 4}},
			150, 0, "UURURRDDDLLLDRRLLUULDRRRRUULDULLDDDRUR"},
		{"unsolved within the budget", [][]int{{1, 3, 4, 1, 1}, {1, 3, 1, 2, 1}, {1, 1, 1, 3, 1}, {1, 4, 1, 3, 1}, {1, 1, 4, 1, 4}},
			150, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := shape.GridFromContent(mustContent(tc.level))
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewGame(g)
			if err != nil {
				t.Fatal(err)
			}
			h, r := Solve(s, tc.power)
			var got strings.Builder
			if r.Won {
				for _, a := range r.Actions {
					got.WriteByte("LRUD"[map[solver.Dir]int{{X: -1}: 0, {X: 1}: 1, {Y: -1}: 2, {Y: 1}: 3}[a]])
				}
			}
			if h != tc.h || got.String() != tc.actions {
				t.Errorf("got (%d, %s), want (%d, %s)", h, got.String(), tc.h, tc.actions)
			}
			if r.Won {
				replay := s
				for _, a := range dirs(tc.actions) {
					replay.Move(a)
				}
				if !replay.Win() {
					t.Error("replaying the solution does not win")
				}
			}
		})
	}
}

func mustContent(rows [][]int) any {
	b, _ := json.Marshal(rows)
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// The expected strings come from the reference's _sol2str (plus the duplicate-letter collapse of
// its diversity) on the same level and moves. The level is "@.$.t": the third R pushes the crate
// onto the target, after which moves do nothing (and count as walks).
func TestSignature(t *testing.T) {
	s := game(t, "@.$.t", ".....", ".....", ".....", ".....")
	tests := []struct{ moves, want string }{
		{"", ""},
		{"RRR", "re"},           // walk, push, push
		{"DRRUL", "rdlu"},       // first move vertical: transposed
		{"LRR", "rlk"},          // first move left: mirrored (the bumped L still counts)
		{"DDU", "rl"},           // transposed, then collapsed
		{"RDDUR", "rdur"},       // first vertical move down: kept
		{"RUUDR", "rdur"},       // first vertical move up: flipped
		{"UUDD", "rl"},          // transposed and mirrored
		{"RRRD", "red"},         // the move after the win is a walk
		{"DRRRUL", "rdly"},      // a vertical push after transposition
		{"RDRRUL", "rdruk"},     // a push to the left
		{"RRLDRRUR", "reldrur"}, // pushes and walks interleaved
	}
	for _, tc := range tests {
		if got := Signature(s, dirs(tc.moves)); got != tc.want {
			t.Errorf("Signature(%s) = %q, want %q", tc.moves, got, tc.want)
		}
	}
}
