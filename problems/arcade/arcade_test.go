package arcade

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// Every golden value matches: the traces of all three agents state by state, quality,
// controllability, the diversity matrix and the set evaluations.
func TestGolden(t *testing.T) {
	p, err := problems.Make("arcade-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/arcade-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"arcade-v0", "arcade-wide-v0", "arcade-large-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{Samples: 8})
		})
	}
}

// BenchmarkInfo evaluates the golden items with a new problem each pass: a problem keeps the
// games it played (the game memo), so reusing one would time memo look-ups after the first.
func BenchmarkInfo(b *testing.B) {
	fresh := func() problems.Problem {
		p, err := problems.Make("arcade-v0")
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	g := problemtest.LoadGolden(b, "testdata/arcade-v0.json")
	problemtest.BenchInfoFresh(b, fresh, g.Contents(b, fresh()))
}

func TestFixedLayout(t *testing.T) {
	tests := []struct {
		w, h  int
		walls [][2]int // x, y
	}{
		{7, 7, [][2]int{{2, 1}, {3, 1}, {4, 1}, {2, 5}, {3, 5}, {4, 5}, {0, 3}, {1, 3}, {5, 3}, {6, 3}}},
		{15, 7, [][2]int{{4, 1}, {10, 1}, {4, 5}, {10, 5}, {0, 3}, {3, 3}, {11, 3}, {14, 3}}},
	}
	for _, tc := range tests {
		g := fixedLayout(tc.w, tc.h)
		want := 0
		for _, c := range tc.walls {
			if g.At(c[0], c[1]) != 0 {
				t.Errorf("%d×%d: (%d, %d) is not a wall", tc.w, tc.h, c[0], c[1])
			}
		}
		if tc.w == 7 {
			want = len(tc.walls)
		} else {
			want = 7 + 7 + 8
		}
		if got := shape.Count(g, shape.TilesOf(0)); got != want {
			t.Errorf("%d×%d: %d walls, want %d\n%v", tc.w, tc.h, got, want, g.Rows())
		}
	}
}

// rules builds a content: everything still and harmless unless changed.
func rules(change func(m map[string]any)) map[string]any {
	m := map[string]any{"x": 0, "y": 0, "seed": 7, "win": 0}
	for _, c := range []string{"red", "yellow", "green"} {
		m[c] = Still
		m[c+"Start"] = map[string]any{"num": 0, "x": []any{0, 0, 0, 0}, "y": []any{0, 0, 0, 0}}
	}
	for _, k := range ruleKeys {
		m[k.name] = map[string]any{"action": 0, "score": 0}
	}
	change(m)
	return m
}

func starts(num int, xy ...int) map[string]any {
	s := map[string]any{"num": num, "x": []any{0, 0, 0, 0}, "y": []any{0, 0, 0, 0}}
	for i := 0; i < len(xy)/2; i++ {
		s["x"].([]any)[i] = xy[2*i]
		s["y"].([]any)[i] = xy[2*i+1]
	}
	return s
}

func engineFor(t *testing.T, c map[string]any) *Engine {
	t.Helper()
	p, _ := problems.Make("arcade-v0")
	e, err := p.(*Arcade).Engine(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Two pieces whose records are equal field for field never collide (the reference compares
// them as dicts); a third that differs in value does.
func TestEqualRecordsDoNotCollide(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["redStart"] = starts(2, 6, 6, 6, 6)
		m["red-red"] = map[string]any{"action": 3, "score": 3}
	}))
	s := e.Initialize()
	e.Update(&s, Action{})
	if !s.Pieces[Red][0].Alive || !s.Pieces[Red][1].Alive || s.Player.Score != 0 {
		t.Errorf("identical pieces collided: %+v score %d", s.Pieces[Red][:2], s.Player.Score)
	}
	e = engineFor(t, rules(func(m map[string]any) {
		m["red"] = Flicker // flickering keeps them alive for 4 steps, values equal
		m["redStart"] = starts(2, 6, 6, 6, 6)
		m["green"] = Still
		m["greenStart"] = starts(1, 6, 6)
		m["red-green"] = map[string]any{"action": 2, "score": 1}
	}))
	s = e.Initialize()
	e.Update(&s, Action{})
	// The green has the reds' cell, value, state and life: equal to them across colours, so
	// the red-green rule never fires either.
	if !s.Pieces[Green][0].Alive {
		t.Errorf("a green equal to a red was killed")
	}
}

func TestCollisionsScoreAndKill(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["win"] = WinScore5
		m["x"], m["y"] = 5, 6
		m["yellowStart"] = starts(1, 6, 6)
		m["player-yellow"] = map[string]any{"action": KillSecond, "score": 3}
	}))
	s := e.Initialize()
	e.Update(&s, Directions[1]) // right, onto the yellow piece
	if s.Player.Score != 4 || s.Pieces[Yellow][0].Alive || !s.Player.Alive {
		t.Errorf("after the hit: %+v, yellow %+v", s.Player, s.Pieces[Yellow][0])
	}
}

// A wanderer turns round when blocked, but only moves the new way on its next step: the
// reference retries the old direction.
func TestWanderTurnsOnTheNextStep(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["red"] = WanderHorz
		m["redStart"] = starts(1, 0, 0)
	}))
	s := e.Initialize()
	var xs []int16
	var states []int16
	for i := 0; i < 4; i++ {
		e.Update(&s, Action{})
		xs = append(xs, s.Pieces[Red][0].X)
		states = append(states, s.Pieces[Red][0].State)
	}
	// Whatever the first draw, a blocked step leaves x unchanged and flips the state.
	for i := 1; i < len(xs); i++ {
		if xs[i] == xs[i-1] && states[i] == states[i-1] {
			t.Errorf("blocked without turning: x %v state %v", xs, states)
		}
	}
}

func TestFlickerRevives(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["green"] = Flicker
		m["greenStart"] = starts(1, 6, 6)
	}))
	s := e.Initialize()
	var alive []bool
	for i := 0; i < 12; i++ {
		e.Update(&s, Action{})
		alive = append(alive, s.Pieces[Green][0].Alive)
	}
	want := []bool{true, true, true, true, false, false, false, false, false, true, true, true}
	if !reflect.DeepEqual(alive, want) {
		t.Errorf("flicker %v, want %v", alive, want)
	}
}

// Chasers sort left, right, up, down by distance and try only the first: a wall (-1) sorts
// first, so a chaser beside a wall pushes into it and stays.
func TestChaserStuckAtWall(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["red"] = Chase
		m["redStart"] = starts(2, 0, 0, 3, 3) // a corner (wall on the left), the open middle
		m["x"], m["y"] = 6, 0
	}))
	s := e.Initialize()
	e.Update(&s, Action{})
	if got := s.Pieces[Red][0]; got.X != 1 || got.Y != 1 {
		t.Errorf("cornered chaser moved to %d,%d", got.X, got.Y)
	}
	// From the middle (3,3), right and up are both 5 steps from the player at (6,0): the stable
	// sort keeps right first.
	if got := s.Pieces[Red][1]; got.X != 5 || got.Y != 4 {
		t.Errorf("open chaser moved to %d,%d (padded), want 5,4", got.X, got.Y)
	}
}

// Replaying an agent's moves reproduces its game when the agent does not draw from the
// engine's generator (the random agent uses its own); MCTS traces hold every state instead.
func TestReplay(t *testing.T) {
	p, _ := problems.Make("arcade-v0")
	g := problemtest.LoadGolden(t, "testdata/arcade-v0.json")
	for i, c := range g.Contents(t, p) {
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		in := info.(*Info)
		if len(in.Random) == 0 {
			continue
		}
		e, _ := p.(*Arcade).Engine(c)
		if got := Replay(e, in.Random.Actions()); !reflect.DeepEqual(got, in.Random) {
			t.Errorf("item %d: the replayed random game differs", i)
		}
	}
}

func TestLogTableIsGlibcs(t *testing.T) {
	for n, want := range map[int]float64{5: 1.6094379124341003, 14: 2.6390573296152584, 45: 3.8066624897703196} {
		if logVisits()[n] != want {
			t.Errorf("log(%d) = %v, glibc %v", n, logVisits()[n], want)
		}
	}
}

func TestDiversityNeverReachesOne(t *testing.T) {
	p, _ := problems.Make("arcade-v0")
	a := &Info{visits: make([]int16, 49)}
	b := &Info{visits: make([]int16, 49)}
	for i := 0; i < 6; i++ {
		b.visits[i] = 1
	}
	// (0 + 6)/2 = 3 → 3/(12.25 + 1e-8), in float64 arithmetic.
	v, plateau := 3.0, 12.25
	if got, want := p.Diversity(a, b), v/(plateau+1e-8); got != want {
		t.Errorf("diversity %v, want %v", got, want)
	}
	for i := 0; i < 49; i++ {
		b.visits[i] = 2
	}
	if got := p.Diversity(a, b); got != 0 {
		t.Errorf("very different games: diversity %v, want 0 (the upper bound is W = 7)", got)
	}
}

func TestControllability(t *testing.T) {
	p, _ := problems.Make("arcade-v0")
	grid := func(open ...[2]int) any {
		g := shape.NewGrid(7, 7)
		for _, o := range open {
			g.Set(o[0], o[1], 1)
		}
		return shape.GridContent(g)
	}
	none := &Info{Player: Pos{1, 1}}
	if got := p.Controllability(none, grid()); got != 1 {
		t.Errorf("no pieces: %v, want 1", got)
	}
	in := &Info{Player: Pos{1, 1}, Red: []Pos{{2, 2}, {3, 3}}, Green: []Pos{{4, 4}}}
	if got := p.Controllability(in, grid([2]int{1, 1}, [2]int{2, 2})); got != (1.0/3+1)/2 {
		t.Errorf("controllability %v, want %v", got, (1.0/3+1)/2)
	}
}

func TestSampleControlIsConnected(t *testing.T) {
	for _, name := range []string{"arcade-v0", "arcade-wide-v0", "arcade-large-v0"} {
		p, _ := problems.Make(name)
		r := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 20; i++ {
			c := problems.SampleControl(p, r)
			g, err := shape.GridFromContent(c)
			if err != nil {
				t.Fatal(err)
			}
			if shape.Regions(g, shape.TilesOf(1)) != 1 {
				t.Fatalf("%s: control %v is not one region", name, g.Rows())
			}
		}
	}
}

func TestScriptAndRender(t *testing.T) {
	p, _ := problems.Make("arcade-v0")
	g := problemtest.LoadGolden(t, "testdata/arcade-v0.json")
	c := g.Contents(t, p)[0]
	r, err := ParseRules(c)
	if err != nil {
		t.Fatal(err)
	}
	want := "Start: 4,2 - 814387\nBehavior:\n  red: flicker \n  yellow: still - 5,1 - 4,4 - 3,1 - 1,2 \n" +
		"  green: wanderHorz - 5,6 - 6,4 - 3,0 - 0,5 \nRules:\n  player-red: none - 1\n" +
		"  player-green: none - 4\n  player-yellow: killFirst - 0\n  red-red: none - 2\n" +
		"  red-green: killBoth - 1\n  red-yellow: killFirst - 0\n  green-green: killFirst - 0\n" +
		"  green-yellow: none - 0\n  yellow-yellow: none - 4\nWin: score5"
	if got := r.Script(); got != want {
		t.Errorf("script\n%s\nwant\n%s", got, want)
	}
	for _, name := range []string{"arcade-v0", "arcade-wide-v0", "arcade-large-v0"} {
		p, _ := problems.Make(name)
		img, err := p.Render(p.ContentSpace().Sample(rand.New(rand.NewPCG(1, 2))))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 230 {
			t.Errorf("%s: render %v, want 300×230", name, b)
		}
		if d, ok := p.(problems.Describer); !ok || !strings.Contains(d.Description(), "arcade") {
			t.Errorf("%s: no description", name)
		}
	}
}

func TestTraceJSON(t *testing.T) {
	e := engineFor(t, rules(func(m map[string]any) {
		m["redStart"] = starts(1, 6, 6)
	}))
	tr := RunGame(e, DoNothing{})
	b, err := json.Marshal(tr[:1])
	if err != nil {
		t.Fatal(err)
	}
	want := `[[{"_player":{"x":1,"y":1,"score":0,"time":0,"alive":true},"_reds":[{"x":7,"y":7,"state":0,"value":0,"alive":true}],"_yellows":[],"_greens":[],"isWin":false,"isLose":false},{"x":0,"y":0}]]`
	if string(b) != want {
		t.Errorf("trace JSON\n%s\nwant\n%s", b, want)
	}
	if len(tr) != 41 || tr[40].HasAction || !tr[40].Win {
		t.Errorf("a survival game without danger lasts 40 steps and is won: %d steps, last %+v", len(tr), tr[len(tr)-1])
	}
}
