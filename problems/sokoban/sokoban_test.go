package sokoban

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func TestGolden(t *testing.T) {
	p, err := problems.Make("sokoban-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/sokoban-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"sokoban-v0", "sokoban-complex-v0", "sokoban-large-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{AsymmetricDiversity: true})
		})
	}
}

func BenchmarkInfo(b *testing.B) {
	p, _ := problems.Make("sokoban-v0")
	g := problemtest.LoadGolden(b, "testdata/sokoban-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

// BenchmarkInfoLongestSolution is the golden level with the longest solution (32 moves, found
// by the fourth agent after three full 5000-step searches); the Python reference takes about
// 1.2 s on it.
func BenchmarkInfoLongestSolution(b *testing.B) {
	p, _ := problems.Make("sokoban-v0")
	g := problemtest.LoadGolden(b, "testdata/sokoban-v0.json")
	contents := g.Contents(b, p)
	longest, n := 0, -1
	for i, it := range g.Items {
		if l := len(it.Info["solution"].([]any)); l > n {
			longest, n = i, l
		}
	}
	problemtest.BenchInfo(b, p, contents[longest:longest+1])
}

func TestVariants(t *testing.T) {
	tests := []struct {
		name       string
		maxCrates  int
		renderSize int
	}{
		{"sokoban-v0", 6, 112},
		{"sokoban-complex-v0", 6, 112},
		{"sokoban-large-v0", 9, 160},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r := p.ControlSpace().Range().(map[string]any)["crates"].(map[string]any)
		if r["min"] != 1 || r["max"] != tc.maxCrates {
			t.Errorf("%s: control range %v, want [1, %d)", tc.name, r, tc.maxCrates)
		}
		img, err := p.Render(p.ContentSpace().Sample(rand.New(rand.NewPCG(1, 2))))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != tc.renderSize || b.Dy() != tc.renderSize {
			t.Errorf("%s: render %v, want %d×%d", tc.name, b, tc.renderSize, tc.renderSize)
		}
		if d, ok := p.(problems.Describer); !ok || d.Description() == "" {
			t.Errorf("%s: no description", tc.name)
		}
	}
}

func TestInfoAndScores(t *testing.T) {
	p, _ := problems.Make("sokoban-v0")
	rows := func(r ...[]int) any { return mustContent(r) }
	tests := []struct {
		name      string
		content   any
		heuristic int
		moves     int
		quality   float64
		control   int
		ctrl      float64
	}{
		// Two players: never played. stats = (R(2,0,1,1,25) + 1 + 1)/3, added = 0.
		{"two players", rows([]int{2, 2, 3, 4, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}),
			-1, 0, (shape.Reward(2, 0, 1, 1, 25) + 2) / 3 / 2, 1, 1},
		// One push solves it: length 1 of the 10 asked for.
		{"one push", rows([]int{2, 3, 4, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}),
			0, 1, (1 + (1+shape.Reward4(1, 0, 10, 625))/2) / 2, 3, shape.Reward(1, 0, 2, 4, 25)},
		// The crate starts in a corner: unsolvable, the heuristic stays at its distance.
		{"crate in a corner", rows([]int{3, 2, 1, 1, 4}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}),
			4, 0, (1 + (shape.Reward(4, 0, 0, 0, 10)+0)/2) / 2, 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info, err := p.Info(tc.content)
			if err != nil {
				t.Fatal(err)
			}
			in := info.(*Info)
			if in.Heuristic != tc.heuristic || len(in.Solution) != tc.moves {
				t.Errorf("heuristic %d with %d moves, want %d with %d", in.Heuristic, len(in.Solution), tc.heuristic, tc.moves)
			}
			if q := p.Quality(info); math.Abs(q-tc.quality) > 1e-12 {
				t.Errorf("quality %v, want %v", q, tc.quality)
			}
			c := p.Controllability(info, map[string]any{"crates": tc.control})
			if math.Abs(c-tc.ctrl) > 1e-12 {
				t.Errorf("controllability %v, want %v", c, tc.ctrl)
			}
		})
	}
}

func TestInfoJSONKeys(t *testing.T) {
	p, _ := problems.Make("sokoban-v0")
	info, err := p.Info(mustContent([][]int{{2, 3, 4, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(info)
	want := `{"players":1,"crates":1,"targets":1,"content":[[2,3,4,1,1],[1,1,1,1,1],[1,1,1,1,1],[1,1,1,1,1],[1,1,1,1,1]],"heuristic":0,"solution":[{"x":1,"y":0}]}`
	if string(b) != want {
		t.Errorf("info JSON\n%s\nwant\n%s", b, want)
	}
}

func TestDiversityIsAsymmetricDifflib(t *testing.T) {
	p, _ := problems.Make("sokoban-v0")
	a, b := &Info{signature: "rdrdrulu"}, &Info{signature: "rdu"}
	want := shape.Reward4(1-shape.Ratio("rdrdrulu", "rdu"), 0, 0.5, 1)
	if d := p.Diversity(a, b); d != want {
		t.Errorf("diversity %v, want %v", d, want)
	}
	if d := p.Diversity(&Info{}, &Info{}); d != 0 {
		t.Errorf("two unsolved levels: diversity %v, want 0", d)
	}
}
