package ddave

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
)

func TestGolden(t *testing.T) {
	p, err := problems.Make("ddave-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/ddave-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"ddave-v0", "ddave-complex-v0", "ddave-large-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{})
		})
	}
}

func BenchmarkInfo(b *testing.B) {
	p, _ := problems.Make("ddave-v0")
	g := problemtest.LoadGolden(b, "testdata/ddave-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

// BenchmarkInfoPlayed is the golden levels that reach the agents (one game for the door and
// one per diamond each).
func BenchmarkInfoPlayed(b *testing.B) {
	p, _ := problems.Make("ddave-v0")
	g := problemtest.LoadGolden(b, "testdata/ddave-v0.json")
	problemtest.BenchInfo(b, p, g.Played(b, p))
}

func TestVariants(t *testing.T) {
	tests := []struct {
		name          string
		sy, ey, dmd   [2]int
		width, height int
	}{
		{"ddave-v0", [2]int{5, 7}, [2]int{0, 3}, [2]int{0, 7}, 208, 144},
		{"ddave-complex-v0", [2]int{5, 7}, [2]int{0, 3}, [2]int{0, 7}, 208, 144},
		{"ddave-large-v0", [2]int{7, 11}, [2]int{0, 5}, [2]int{0, 11}, 304, 208},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		ranges := p.ControlSpace().Range().(map[string]any)
		for key, want := range map[string][2]int{"sy": tc.sy, "ey": tc.ey, "diamonds": tc.dmd} {
			r := ranges[key].(map[string]any)
			if r["min"] != want[0] || r["max"] != want[1] {
				t.Errorf("%s: control %s range %v, want [%d, %d)", tc.name, key, r, want[0], want[1])
			}
		}
		img, err := p.Render(p.ContentSpace().Sample(rand.New(rand.NewPCG(1, 2))))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != tc.width || b.Dy() != tc.height {
			t.Errorf("%s: render %v, want %d×%d", tc.name, b, tc.width, tc.height)
		}
		if d, ok := p.(problems.Describer); !ok || d.Description() == "" {
			t.Errorf("%s: no description", tc.name)
		}
	}
}

// level reads a picture: '#' solid, '.' empty, '@' player, 'H' exit, '$' diamond, 'V' key,
// '*' spike.
func level(t testing.TB, rows ...string) shape.Grid {
	t.Helper()
	return problemtest.Picture(t, legend, rows...)
}

var legend = map[rune]int{'#': Solid, '.': Empty, '@': Player, 'H': Exit, '$': Diamond, 'V': Key, '*': Spike}

func content(g shape.Grid) any {
	return shape.GridContent(g)
}

func TestRepairKeepsTheIndexQuirk(t *testing.T) {
	// Players 0 and 1 share the small left region (sizes list: [3, 6] — the second player adds
	// no fill), player 2 is in the large right region. argmax of the sizes is 1, which the
	// reference uses as an index into the *players*: player 1, in the small region.
	g := level(t,
		"@@.#@.....",
		"####......",
	)
	got := Repair(g)
	want := level(t,
		"@@.#######",
		"##########",
	)
	if !equalGrid(got, want) {
		t.Errorf("repaired\n%v\nwant\n%v", got.Rows(), want.Rows())
	}
	// One player per region: the largest one is kept.
	g = level(t,
		"@.#@....",
		"###.....",
	)
	want = level(t,
		"###@....",
		"###.....",
	)
	if got := Repair(g); !equalGrid(got, want) {
		t.Errorf("repaired\n%v\nwant\n%v", got.Rows(), want.Rows())
	}
	// No player: unchanged.
	g = level(t, "..#H", "V$*.")
	if got := Repair(g); !equalGrid(got, g) {
		t.Errorf("a level without a player changed: %v", got.Rows())
	}
}

func equalGrid(a, b shape.Grid) bool {
	if a.W != b.W || a.H != b.H {
		return false
	}
	for i := range a.Cells {
		if a.Cells[i] != b.Cells[i] {
			return false
		}
	}
	return true
}

func game(t testing.TB, rows ...string) State {
	t.Helper()
	s, err := NewGame(level(t, rows...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	stay  = solver.Dir{}
	left  = solver.Dir{X: -1}
	right = solver.Dir{X: 1}
	jump  = solver.Dir{Y: -1}
)

func TestJumpPhysics(t *testing.T) {
	s := game(t,
		"......",
		"......",
		"......",
		"@....H",
		"######",
	)
	type step struct {
		d           solver.Dir
		x, y, air   int
		jumps       int
		description string
	}
	// Padded coordinates: the player starts at (1, 4) on the ground.
	steps := []step{
		{jump, 1, 3, 2, 1, "take-off rises one cell"},
		{right, 2, 2, 1, 1, "still rising, and moving"},
		{stay, 2, 2, 0, 1, "hang time"},
		{jump, 2, 3, 0, 1, "no jump in the air: falls"},
		{stay, 2, 4, 0, 1, "lands"},
		{right, 3, 4, 0, 1, "walks"},
	}
	for _, st := range steps {
		s.Step(st.d)
		p := s.Player()
		if p.X != st.x || p.Y != st.y || s.AirTime() != st.air || s.Jumps() != st.jumps {
			t.Fatalf("%s: at (%d, %d) air %d jumps %d, want (%d, %d) air %d jumps %d",
				st.description, p.X, p.Y, s.AirTime(), s.Jumps(), st.x, st.y, st.air, st.jumps)
		}
	}
	// A jump under a ceiling only counts when the cell above is free.
	s = game(t,
		"#.",
		"@H",
		"##",
	)
	s.Step(jump)
	if s.Jumps() != 0 || s.AirTime() != 0 {
		t.Errorf("jumped under a ceiling: jumps %d air %d", s.Jumps(), s.AirTime())
	}
	// Bumping the head cuts the rise short: the air time drops to the hang time.
	s = game(t,
		"##",
		"..",
		"@H",
		"##",
	)
	s.Step(jump)
	if p := s.Player(); p.Y != 2 || s.AirTime() != 2 {
		t.Fatalf("first rise: y %d air %d", p.Y, s.AirTime())
	}
	s.Step(stay)
	if p := s.Player(); p.Y != 2 || s.AirTime() != 1 {
		t.Errorf("head bump: y %d air %d, want y 2 air 1", p.Y, s.AirTime())
	}
}

func TestItemsOnlyAtTheFinalCell(t *testing.T) {
	// Jumping right over the spike: the rise passes above it and lands beyond.
	s := game(t,
		"......",
		"@*V$.H",
		"######",
	)
	s.Step(right) // onto the spike
	if !s.Lose() || s.Status().Status != "lose" || s.Health() != 0 {
		t.Fatalf("walking onto a spike: %+v", s.Status())
	}
	s.Step(right)
	if p := s.Player(); p.X != 2 {
		t.Errorf("a lost game moved on")
	}
	s = game(t,
		"......",
		"@.V$.H",
		"######",
	)
	for _, d := range []solver.Dir{right, right, right, right, right} {
		s.Step(d)
	}
	st := s.Status()
	if st.Status != "win" || st.ColKey != 1 || st.ColDiamonds != 1 || s.Heuristic() != 0 {
		t.Errorf("walk to the door: %+v, heuristic %d", st, s.Heuristic())
	}
}

func TestHeuristicAndKey(t *testing.T) {
	s := game(t,
		"V....",
		"@...H",
		"#####",
	)
	// Key on the map: distance to the key plus padded width and height (7 + 5).
	if h := s.Heuristic(); h != 1+7+5 {
		t.Errorf("heuristic %d, want 13", h)
	}
	// The door without the key is not a win.
	for range 4 {
		s.Step(right)
	}
	if s.Win() {
		t.Error("won without the key")
	}
	target := s.WithTarget(1, 1)
	if h := target.Heuristic(); h != 4+1 {
		t.Errorf("target heuristic %d, want 5", h)
	}
	if _, ok := s.Level().Target(); ok {
		t.Error("WithTarget changed the original level")
	}
}

func TestSolveAndReplay(t *testing.T) {
	s := game(t,
		"...V.",
		".....",
		"@.#.H",
		"#####",
	)
	h, r := Solve(s, 5000)
	if h != 0 || !r.Won {
		t.Fatalf("not solved: heuristic %d", h)
	}
	// Replaying the actions from the start with the public Step reaches the same end.
	replay := s
	for _, a := range r.Actions {
		replay.Step(a)
	}
	if !replay.Win() || replay.Key() != r.Final().Key() {
		t.Errorf("replay does not win")
	}
	locs := solver.PlayerLocations(r)
	if len(locs) != len(r.Actions)+1 || locs[len(locs)-1].Action != (solver.Dir{}) {
		t.Errorf("locations %v", locs)
	}
	if locs[0].X != 1 || locs[0].Y != 3 {
		t.Errorf("first location %v, want the padded start (1, 3)", locs[0])
	}
}

func TestQualityAndControllability(t *testing.T) {
	p, _ := problems.Make("ddave-v0")
	g := level(t,
		"...........",
		"...........",
		"...........",
		"...........",
		"...........",
		"...........",
		"@.....V...H",
	)
	info, err := p.Info(content(g))
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*Info)
	if in.Heuristic != 0 || in.Status != "win" || in.NumJumps != 0 || len(in.Solution) != 11 {
		t.Fatalf("info %+v %+v", in, in.GameStatus)
	}
	// stats: all terms 1 (two on the ground of two; no spikes is in [0, 22]); play: heuristic
	// 1, jumps R(0, 0, 2, 11) = 0; diamonds: none → 1, R(0, 0, 0, 7, 77) = 1.
	want := (1 + 0.5 + 1) / 3.0
	if q := p.Quality(info); math.Abs(q-want) > 1e-12 {
		t.Errorf("quality %v, want %v", q, want)
	}
	control := map[string]any{"sx": 0, "sy": 5, "ex": 10, "ey": 0, "diamonds": 2}
	wantC := (shape.Reward(1, 0, 0, 0, 18) + shape.Reward(6, 0, 0, 0, 18) + shape.Reward(2, 0, 0, 0, 77)) / 3
	if c := p.Controllability(info, control); math.Abs(c-wantC) > 1e-12 {
		t.Errorf("controllability %v, want %v", c, wantC)
	}
	b, _ := json.Marshal(info)
	var keys map[string]any
	json.Unmarshal(b, &keys)
	for _, k := range []string{"status", "health", "airTime", "num_jumps", "col_diamonds", "col_key", "repaired_content"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("info JSON lacks %q", k)
		}
	}
	// A level that is not played has no status keys.
	g.Set(5, 0, Player)
	info, _ = p.Info(content(g))
	b, _ = json.Marshal(info)
	keys = nil
	json.Unmarshal(b, &keys)
	if _, ok := keys["status"]; ok || len(keys) != 13 {
		t.Errorf("unplayed info JSON has keys %v", keys)
	}
}

func TestDiversityHeatMaps(t *testing.T) {
	p, _ := problems.Make("ddave-v0")
	path := func(pts ...[2]int) *Info {
		in := &Info{}
		for _, q := range pts {
			in.Solution = append(in.Solution, solver.Location{X: q[0], Y: q[1]})
		}
		return in
	}
	a := path([2]int{3, 2}, [2]int{4, 2}, [2]int{5, 2})
	// The mirror image of a (shifted by the common minimum x = 3: columns 0..2 → 10..8)
	// differs directly but matches mirrored.
	b := path([2]int{7, 2}, [2]int{8, 2}, [2]int{9, 2})
	if d := p.Diversity(a, a); d != 0 {
		t.Errorf("self diversity %v", d)
	}
	// Shifted: a → columns 0,1,2 and b → 4,5,6; mirrored a → 10,9,8. Direct diff 6, mirrored 6.
	if d, want := p.Diversity(a, b), shape.Reward4(6, 0, 0.4*18, 77); d != want {
		t.Errorf("diversity %v, want %v", d, want)
	}
	c := path([2]int{3, 2}, [2]int{3, 2}, [2]int{10, 6})
	// Common minimum (3, 2): a → (0,0),(1,0),(2,0); c → (0,0)×2, (7,4); direct |1-2|+1+1+1 = 4;
	// mirrored a → (10,0),(9,0),(8,0): 3 + 3 = 6.
	if d, want := p.Diversity(a, c), shape.Reward4(4, 0, 0.4*18, 77); d != want {
		t.Errorf("diversity %v, want %v", d, want)
	}
	if d := p.Diversity(&Info{}, &Info{}); d != 0 {
		t.Errorf("two unsolved levels: %v", d)
	}
}

func TestRenderState(t *testing.T) {
	s := game(t,
		".$.V.",
		"@.*.H",
		"#####",
	)
	img := RenderState(s.WithTarget(2, 1))
	if b := img.Bounds(); b.Dx() != 7*16 || b.Dy() != 5*16 {
		t.Errorf("render %v", b)
	}
}

// The solution in the info replays on the public engine: every listed position is where the
// player stands before its move, and the last move wins.
func TestReplayInfoSolution(t *testing.T) {
	p, _ := problems.Make("ddave-v0")
	g := problemtest.LoadGolden(t, "testdata/ddave-v0.json")
	replayed := 0
	for i, c := range g.Contents(t, p) {
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		sol := info.(*Info).Solution
		if len(sol) == 0 {
			continue
		}
		s, err := p.(*DDave).Game(c)
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range sol {
			if pos := s.Player(); pos.X != l.X+1 || pos.Y != l.Y+1 {
				t.Fatalf("%s step %d: player at %v, solution says (%d, %d) unpadded", g.Items[i].ID, j, pos, l.X, l.Y)
			}
			if j < len(sol)-1 {
				s.Step(l.Action)
			}
		}
		if !s.Win() {
			t.Errorf("%s: the replay does not win", g.Items[i].ID)
		}
		replayed++
	}
	if replayed == 0 {
		t.Fatal("no golden solution to replay")
	}
}
