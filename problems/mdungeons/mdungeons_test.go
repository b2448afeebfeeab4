package mdungeons

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
	p, err := problems.Make("mdungeons-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/mdungeons-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"mdungeons-v0", "mdungeons-enemies-v0", "mdungeons-large-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{AsymmetricDiversity: true})
		})
	}
}

func BenchmarkInfo(b *testing.B) {
	p, _ := problems.Make("mdungeons-v0")
	g := problemtest.LoadGolden(b, "testdata/mdungeons-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

// BenchmarkInfoPlayed is the golden levels that reach the agents.
func BenchmarkInfoPlayed(b *testing.B) {
	p, _ := problems.Make("mdungeons-v0")
	g := problemtest.LoadGolden(b, "testdata/mdungeons-v0.json")
	problemtest.BenchInfo(b, p, g.Played(b, p))
}

// mutatedInfos evaluates n levels: the golden contents and mutations of its played levels (a
// few tiles changed each), so that most of them are solved and carry event strings.
func mutatedInfos(tb testing.TB, p problems.Problem, n int) []problems.Info {
	g := problemtest.LoadGolden(tb, "testdata/mdungeons-v0.json")
	contents, playedContents := g.Contents(tb, p), g.Played(tb, p)
	played := make([]shape.Grid, len(playedContents))
	for i, c := range playedContents {
		played[i], _ = shape.GridFromContent(c)
	}
	r := rand.New(rand.NewPCG(7, 11))
	infos := make([]problems.Info, 0, n)
	for _, c := range contents {
		if len(infos) == n {
			break
		}
		info, err := p.Info(c)
		if err != nil {
			tb.Fatal(err)
		}
		infos = append(infos, info)
	}
	for len(infos) < n {
		gr := played[r.IntN(len(played))].Clone()
		for range 3 {
			i := r.IntN(len(gr.Cells))
			if v := gr.Cells[i]; v != Player && v != Exit {
				gr.Cells[i] = []int{Solid, Empty, Potion, Treasure, Goblin, Ogre}[r.IntN(6)]
			}
		}
		info, err := p.Info(shape.GridContent(gr))
		if err != nil {
			tb.Fatal(err)
		}
		infos = append(infos, info)
	}
	return infos
}

// BenchmarkDiversity200 is the set diversity of 200 levels: the 200×200 diversity matrix and
// the greedy selection over it. The Python reference takes about 32 s.
func BenchmarkDiversity200(b *testing.B) {
	p, _ := problems.Make("mdungeons-v0")
	infos := mutatedInfos(b, p, 200)
	solved := 0
	for _, in := range infos {
		if in.(*Info).events != "" {
			solved++
		}
	}
	b.ResetTimer()
	for range b.N {
		problems.Diversities(p, infos)
	}
	b.ReportMetric(float64(solved), "solved-items")
}

func TestVariants(t *testing.T) {
	tests := []struct {
		name          string
		length        [2]int
		treasures     int
		width, height int
	}{
		{"mdungeons-v0", [2]int{16, 48}, 20, 160, 224},
		{"mdungeons-enemies-v0", [2]int{32, 48}, 20, 160, 224},
		{"mdungeons-large-v0", [2]int{32, 192}, 40, 288, 416},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		ranges := p.ControlSpace().Range().(map[string]any)
		r := ranges["solution_length"].(map[string]any)
		if r["min"] != tc.length[0] || r["max"] != tc.length[1] {
			t.Errorf("%s: solution_length range %v, want %v", tc.name, r, tc.length)
		}
		if r := ranges["col_treasures"].(map[string]any); r["max"] != tc.treasures {
			t.Errorf("%s: col_treasures range %v", tc.name, r)
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

// level reads a picture: '#' solid, '.' empty, '@' hero, 'H' exit, 'p' potion, '$' treasure,
// 'g' goblin, 'o' ogre.
func level(t testing.TB, rows ...string) shape.Grid {
	t.Helper()
	return problemtest.Picture(t, legend, rows...)
}

var legend = map[rune]int{'#': Solid, '.': Empty, '@': Player, 'H': Exit, 'p': Potion, '$': Treasure, 'g': Goblin, 'o': Ogre}

func game(t testing.TB, rows ...string) State {
	t.Helper()
	s, err := NewGame(level(t, rows...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	left  = solver.Dir{X: -1}
	right = solver.Dir{X: 1}
	up    = solver.Dir{Y: -1}
	down  = solver.Dir{Y: 1}
)

func TestCombat(t *testing.T) {
	s := game(t, "@oogp$.H")
	steps := []struct {
		event  Event
		health int
	}{
		{'2', 3}, {'2', 1}, {'1', 0},
	}
	for i, st := range steps {
		if e := s.Step(right); e != st.event || s.Health() != st.health {
			t.Fatalf("step %d: event %q health %d, want %q %d", i, e, s.Health(), st.event, st.health)
		}
	}
	if !s.Lose() || s.Status().Status != "lose" {
		t.Fatalf("dead hero: %+v", s.Status())
	}
	if e := s.Step(right); e != 0 || s.Player().X != 4 {
		t.Errorf("a lost game moved on")
	}
	// Potions heal 2 up to 5; treasure is counted; walls stop; diagonal moves do nothing.
	s = game(t,
		"@gp$H",
		"#####",
	)
	if s.Step(down) != 0 || s.Player().X != 1 || s.Step(solver.Dir{X: 1, Y: 1}) != 0 || s.Player().X != 1 {
		t.Fatal("moved into a wall or diagonally")
	}
	s.Step(right)
	if e := s.Step(right); e != 'p' || s.Health() != 5 {
		t.Errorf("potion: event %q health %d", e, s.Health())
	}
	if e := s.Step(right); e != '$' {
		t.Errorf("treasure: event %q", e)
	}
	h := s.Heuristic()
	// One step from the exit, full health, one treasure: 1 + 0 - 2 + 7*4 (padded area).
	if h != 1-2+28 {
		t.Errorf("heuristic %d, want 27", h)
	}
	s.Step(right)
	st := s.Status()
	if st != (GameStatus{Status: "win", Health: 5, ColTreasures: 1, ColPotions: 1, ColEnemies: 1}) {
		t.Errorf("status %+v", st)
	}
	// A {0, 0} move on a finished game resolves nothing.
	if e := s.Step(solver.Dir{}); e != 0 {
		t.Errorf("no-move event %q", e)
	}
}

func TestSolveAvoidsDeath(t *testing.T) {
	// The direct way passes three ogres (6 damage); the detour through the goblin costs 1.
	s := game(t,
		"@ooo.H",
		".####.",
		"..g...",
	)
	h, r := Solve(s, 5000)
	if h != 0 || !r.Won {
		t.Fatalf("not solved: %d", h)
	}
	if ev := Events(s, r.Actions); ev != "1" {
		t.Errorf("events %q, want the goblin only", ev)
	}
	locs := solver.PlayerLocations(r)
	if len(locs) != len(r.Actions)+1 || locs[0] != (solver.Location{X: 1, Y: 1, Action: r.Actions[0]}) {
		t.Errorf("locations %v", locs)
	}
	// Unsolvable: the exit is walled in by ogres the hero cannot survive.
	s = game(t,
		"@ooooH",
	)
	h, r = Solve(s, 5000)
	if h == 0 || r.Won {
		t.Fatal("solved an impossible level")
	}
}

func TestInfoQualityControllability(t *testing.T) {
	p, _ := problems.Make("mdungeons-v0")
	g := level(t,
		"@.......",
		"........",
		"........",
		"........",
		"........",
		"........",
		"........",
		"........",
		"........",
		"........",
		"........",
		"g......H",
	)
	info, err := p.Info(shape.GridContent(g))
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*Info)
	if in.Heuristic != 0 || in.Status != "win" || in.SolutionLength != 19 || in.events != "" {
		t.Fatalf("info %+v %+v", in, in.GameStatus)
	}
	// stats: enemies R(1, 0, 8, 96) = 1/8; layout R(93, 0, 48, 96) = 1; solution: heuristic 1,
	// length R(19, 0, 10, 9216) = 1; the goblin at (0, 11) is 0 from the path? The path runs
	// right along the top, then down the right side: nearest point (8, 12) padded, distance 7.
	path := 0
	for _, l := range in.Solution {
		if l.X == 1 && l.Y == 12 {
			path = 1
		}
	}
	if path != 0 {
		t.Fatalf("unexpected path %v", in.Solution)
	}
	stats := (1 + 1 + 1 + shape.Reward4(1, 0, 8, 96) + 1) / 5
	want := (stats + 1 + shape.Reward(float64(m(p).enemyDistance(in)), 0, 0, 0, 160)) / 3
	if q := p.Quality(info); math.Abs(q-want) > 1e-12 {
		t.Errorf("quality %v, want %v", q, want)
	}
	control := map[string]any{"col_treasures": 2, "solution_length": 20}
	wantC := (shape.Reward4(0, 0, 2-4, 2+4) + shape.Reward4(19, 0, 16, 24)) / 2
	if c := p.Controllability(info, control); c != wantC {
		t.Errorf("controllability %v, want %v", c, wantC)
	}
	b, _ := json.Marshal(info)
	var keys map[string]any
	json.Unmarshal(b, &keys)
	if len(keys) != 17 {
		t.Errorf("info JSON keys %d: %v", len(keys), keys)
	}
	// Two regions: not played, no status keys, controllability 0.
	g.Set(3, 3, Solid)
	g.Set(4, 4, Solid)
	g.Set(3, 5, Solid)
	g.Set(2, 4, Solid)
	info, _ = p.Info(shape.GridContent(g))
	if c := p.Controllability(info, control); c != 0 {
		t.Errorf("unplayed controllability %v", c)
	}
	b, _ = json.Marshal(info)
	keys = nil
	json.Unmarshal(b, &keys)
	if _, ok := keys["status"]; ok || len(keys) != 12 {
		t.Errorf("unplayed info JSON keys %v", keys)
	}
}

func m(p problems.Problem) *MDungeons { return p.(*MDungeons) }

func TestDiversityMixesEventsAndTiles(t *testing.T) {
	p, _ := problems.Make("mdungeons-v0")
	a := &Info{cells: make([]int8, 96), events: "1p$2"}
	b := &Info{cells: make([]int8, 96), events: "1$"}
	b.cells[5] = 1
	want := shape.Reward4((1-shape.Ratio("1p$2", "1$"))*0.8+(1.0/96)*0.2, 0, 0.4, 1)
	if d := p.Diversity(a, b); d != want {
		t.Errorf("diversity %v, want %v", d, want)
	}
	if d := p.Diversity(a, a); d != 0 {
		t.Errorf("self diversity %v", d)
	}
}

func TestRenderState(t *testing.T) {
	s := game(t, "@oogp$.H")
	s.Step(right)
	img := RenderState(s)
	if b := img.Bounds(); b.Dx() != 10*16 || b.Dy() != 3*16 {
		t.Errorf("render %v", b)
	}
	if s.Tile(2, 1) != Empty || s.Tile(3, 1) != Ogre || s.Tile(8, 1) != Exit || s.Tile(0, 0) != Solid {
		t.Error("tiles after one fight")
	}
}

// The solution in the info replays on the public engine: every listed (padded) position is
// where the hero stands before its move, the last move wins, and the events are the ones
// diversity compares.
func TestReplayInfoSolution(t *testing.T) {
	p, _ := problems.Make("mdungeons-v0")
	g := problemtest.LoadGolden(t, "testdata/mdungeons-v0.json")
	replayed := 0
	for i, c := range g.Contents(t, p) {
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		in := info.(*Info)
		if len(in.Solution) == 0 {
			continue
		}
		s, err := p.(*MDungeons).Game(c)
		if err != nil {
			t.Fatal(err)
		}
		var events []byte
		for j, l := range in.Solution {
			if pos := s.Player(); pos.X != l.X || pos.Y != l.Y {
				t.Fatalf("%s step %d: hero at %v, solution says (%d, %d)", g.Items[i].ID, j, pos, l.X, l.Y)
			}
			if e := s.Step(l.Action); e != 0 {
				events = append(events, byte(e))
			}
		}
		if !s.Win() || string(events) != in.events {
			t.Errorf("%s: replay won %v with events %q, want %q", g.Items[i].ID, s.Win(), events, in.events)
		}
		replayed++
	}
	if replayed == 0 {
		t.Fatal("no golden solution to replay")
	}
}
