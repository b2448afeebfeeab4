package loderunnertile

import (
	"math"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func refData(t testing.TB) { problemtest.RefDataFiles(t, data.LodeRunnerLevels) }

func TestGolden(t *testing.T) {
	refData(t)
	p, err := problems.Make("loderunnertile-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/loderunnertile-v0.json"))
}

func TestConformance(t *testing.T) {
	refData(t)
	for _, name := range []string{"loderunnertile-v0", "loderunnertile-gold-v0", "loderunnertile-enemies-v0"} {
		t.Run(name, func(t *testing.T) { problemtest.Conformance(t, name, problemtest.Options{}) })
	}
}

func level(rows ...string) shape.Grid {
	g := shape.NewGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		for x := range r {
			g.Set(x, y, int(r[x]-'0'))
		}
	}
	return g
}

func mapString(m Map) []string {
	out := make([]string, m.H)
	for y := range out {
		b := make([]byte, m.W)
		for x := range b {
			b[x] = byte('0' + m.At(x, y))
		}
		out[y] = string(b)
	}
	return out
}

// The simplified player: climbs ladders both ways, only drops from ropes, falls through
// empty cells not above brick or a ladder, and cannot enter brick.
func TestExploreRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level []string
		want  []string
	}{
		{"walk on a floor", []string{
			"1121",
			"0000",
		}, []string{
			"1111",
			"0000",
		}},
		{"fall into a pit, not out of it", []string{
			"2111",
			"0100",
			"0100",
			"0000",
		}, []string{
			"1400",
			"0400",
			"0100",
			"0000",
		}},
		{"ladder up, rope hang and drop", []string{
			"1166",
			"1510",
			"2511",
			"0000",
		}, []string{
			"4133",
			"4240",
			"1211",
			"0000",
		}},
		{"no player", []string{
			"1111",
			"0000",
		}, []string{
			"0000",
			"0000",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mapString(Explore(level(tc.level...)))
			for y := range got {
				if got[y] != tc.want[y] {
					t.Fatalf("got\n%v\nwant\n%v", got, tc.want)
				}
			}
		})
	}
}

func TestHistogramsKeepTheRunStart(t *testing.T) {
	g := level("0110101", "1111111")
	got := shape.HorzHist(g, shape.TilesOf(1))
	// Row 0: first match at x=1; the zeros at x=3 and x=5 add at 2 and 4. Row 1: no gap.
	want := []float64{0, 0, 1, 0, 1, 0, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("HorzHist = %v, want %v", got, want)
		}
	}
	if v := shape.VertHist(g, shape.TilesOf(0)); v[1] != 3 || v[0] != 0 {
		t.Fatalf("VertHist = %v", v)
	}
}

func TestJSDistance(t *testing.T) {
	p := []float64{1, 0}
	q := []float64{0, 1}
	if d := JSDistance(p, q); math.Abs(d-1) > 1e-15 {
		t.Errorf("disjoint JS = %v, want 1", d)
	}
	if d := JSDistance(p, p); d != 0 {
		t.Errorf("JS(p, p) = %v", d)
	}
	if d := JSDistance([]float64{0, 0}, q); math.Abs(d-math.Sqrt(0.5)) > 1e-15 {
		t.Errorf("JS(0, q) = %v, want sqrt(0.5)", d)
	}
}

func TestRenderSize(t *testing.T) {
	refData(t)
	p, err := problems.Make("loderunnertile-v0")
	if err != nil {
		t.Fatal(err)
	}
	img, err := p.Render(p.ContentSpace().Sample(zeroRand{}))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 512 || b.Dy() != 352 {
		t.Errorf("render is %v, want 512×352", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	refData(b)
	p, err := problems.Make("loderunnertile-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/loderunnertile-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

// literalPlay follows the reference's search literally: states (x, y, falling) in a FIFO that
// holds duplicates, each state expanded on its first pop, every pop overwriting the cell.
// Explore searches positions only; this checks the two agree.
func literalPlay(level shape.Grid) Map {
	w, h := level.W, level.H
	e := Map{W: w, H: h, Cells: make([]uint8, w*h)}
	s, ok := shape.First(level, shape.TilesOf(Player))
	if !ok {
		return e
	}
	lv := level.Clone()
	for i, t := range lv.Cells {
		if t == Player || t == Gold || t == Enemy {
			lv.Cells[i] = Empty
		}
	}
	type state struct{ x, y, falling int }
	fall := func(x, y int) int {
		if y < h-1 && lv.At(x, y) == Empty && lv.At(x, y+1) != Brick && lv.At(x, y+1) != Ladder {
			return 1
		}
		return 0
	}
	open := []state{{s.X, s.Y, fall(s.X, s.Y)}}
	seen := map[state]bool{}
	for len(open) > 0 {
		cur := open[0]
		open = open[1:]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		v := uint8(Walking)
		switch {
		case cur.falling == 1:
			v = Falling
		case lv.At(cur.x, cur.y) == Rope:
			v = Hanging
		case lv.At(cur.x, cur.y) == Ladder:
			v = Climbing
		}
		e.Cells[cur.y*w+cur.x] = v
		for _, a := range [5][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			n := cur
			if n.falling == 1 {
				n.y++
			} else {
				if a[1] != 0 {
					ny := min(max(n.y+a[1], 0), h-1)
					if lv.At(n.x, ny) != Brick {
						if lv.At(n.x, n.y) == Ladder || lv.At(n.x, n.y) == Rope && a[1] > 0 {
							n.y = ny
						}
					}
				}
				if a[0] != 0 {
					nx := min(max(n.x+a[0], 0), w-1)
					if lv.At(nx, n.y) != Brick {
						n.x = nx
					}
				}
			}
			n.falling = fall(n.x, n.y)
			open = append(open, n)
		}
	}
	return e
}

func TestExploreMatchesTheLiteralSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		g := shape.NewGrid(12, 9)
		for k := range g.Cells {
			// Mostly empty, so the player gets somewhere.
			g.Cells[k] = []int{0, 1, 1, 1, 1, 5, 6, 3, 4}[r.IntN(9)]
		}
		for x := 0; x < g.W; x++ {
			g.Set(x, g.H-1, Brick)
		}
		g.Set(r.IntN(g.W), r.IntN(g.H-1), Player)
		got, want := Explore(g), literalPlay(g)
		for k := range got.Cells {
			if got.Cells[k] != want.Cells[k] {
				t.Fatalf("level %d: Explore\n%v\nliteral\n%v", i, mapString(got), mapString(want))
			}
		}
	}
}
