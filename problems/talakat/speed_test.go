package talakat

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// absDiffSum has the bits of shape.PairwiseSum over the vector of |x − y| for every length
// through the blocking's cases (under 8, one block of at most 128, halves above, a tail after
// the blocks of eight), on ordinary shares, exact ties, and special values.
func TestAbsDiffSumIsPairwiseSum(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 1e308, -1e308, 5e-324}
	tests := []struct {
		name     string
		specialP float64
		value    func() float64
	}{
		{"shares", 0, func() float64 { return r.Float64() / float64(1+r.IntN(300)) }},
		{"thirtieths with zeros", 0, func() float64 { return float64(r.IntN(3)) * float64(r.IntN(30)) / 30 }},
		{"signed and large", 0, func() float64 { return (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(80)-40) }},
		{"special values", 0.1, func() float64 { return r.Float64() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for n := 0; n <= 300; n++ {
				x, y := make([]float64, n), make([]float64, n+r.IntN(3))
				for i := range x {
					x[i] = tc.value()
					if r.Float64() < tc.specialP {
						x[i] = specials[r.IntN(len(specials))]
					}
				}
				for i := range y {
					y[i] = tc.value()
				}
				d := make([]float64, n)
				for i := range d {
					d[i] = math.Abs(x[i] - y[i])
				}
				want := shape.PairwiseSum(d)
				got := absDiffSum(x, y)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("n = %d: absDiffSum %.17g, PairwiseSum %.17g", n, got, want)
				}
			}
		})
	}
}

// spanCounts is the histogram count computes, written as the plain loops over each bullet's
// span of cells.
func spanCounts(c *cellCounter, bullets []Bullet) ([]int, int) {
	counts, total := make([]int, c.cols*c.rows), 0
	for _, b := range bullets {
		sx := clampInt((int(math.RoundToEven(4*(b.X-b.Radius)/c.bw))+3)>>2, c.cols)
		ex := clampInt(int(math.RoundToEven(4*(b.X+b.Radius)/c.bw))>>2, c.cols)
		sy := clampInt((int(math.RoundToEven(4*(b.Y-b.Radius)/c.bh))+3)>>2, c.rows)
		ey := clampInt(int(math.RoundToEven(4*(b.Y+b.Radius)/c.bh))>>2, c.rows)
		for y := sy; y <= ey; y++ {
			for x := sx; x <= ex; x++ {
				counts[y*c.cols+x]++
				total++
			}
		}
	}
	return counts, total
}

// count's masked 2×2 path gives the histogram of the span loops, and touched lists exactly the
// non-zero cells: bullets on every edge and corner of the grid, outside it, between the
// quarter-cell marks (empty spans), larger than a cell, and zero-sized; counted one frame after
// another in one counter, as Info does.
func TestCountMatchesTheSpanLoops(t *testing.T) {
	screens := []struct {
		name          string
		width, height int
	}{
		{"200×300 (cells of 20 px)", 200, 300},
		{"30×45 (1×2 cells of 30×22.5 px)", 30, 45},
		{"70×50 (cells of 23.3×25 px)", 70, 50},
	}
	for _, sc := range screens {
		name := sc.name
		p, err := New(problems.Params{"width": sc.width, "height": sc.height, "spawnerComplexity": 3, "maxHealth": 30})
		if err != nil {
			t.Fatal(err)
		}
		var c cellCounter
		c.init(p.(*Talakat))
		r := rand.New(rand.NewPCG(5, 6))
		w, h := float64(c.cols)*c.bw, float64(c.rows)*c.bh
		radii := []float64{0, 2.5, 5, 7, 8, 10, 16, 25, 60}
		for frame := 0; frame < 400; frame++ {
			bullets := make([]Bullet, r.IntN(300))
			for i := range bullets {
				x, y := (r.Float64()*1.4-0.2)*w, (r.Float64()*1.4-0.2)*h
				if r.IntN(4) == 0 {
					// On a quarter-cell mark.
					x, y = float64(r.IntN(4*c.cols+8)-4)*c.bw/4, float64(r.IntN(4*c.rows+8)-4)*c.bh/4
				}
				bullets[i] = Bullet{X: x, Y: y, Radius: radii[r.IntN(len(radii))]}
			}
			c.count(bullets)
			want, total := spanCounts(&c, bullets)
			if !slices.Equal(c.counts, want) || c.total != total {
				t.Fatalf("%s frame %d: counts %v (total %d), want %v (total %d)", name, frame, c.counts, c.total, want, total)
			}
			var nonZero []int
			for i, v := range want {
				if v != 0 {
					nonZero = append(nonZero, i)
				}
			}
			if !slices.Equal(c.touched, nonZero) {
				t.Fatalf("%s frame %d: touched %v, want %v", name, frame, c.touched, nonZero)
			}
		}
	}
}

// evolvedLevels reads testdata/evolved-levels.json: contents and the infos recorded for them.
func evolvedLevels(tb testing.TB, p problems.Problem) ([]problems.Content, []*Info) {
	tb.Helper()
	b, err := os.ReadFile("testdata/evolved-levels.json")
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		Items []struct {
			Content any   `json:"content"`
			Info    *Info `json:"info"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	var contents []problems.Content
	var infos []*Info
	for _, it := range doc.Items {
		c, err := p.ContentSpace().Normalize(it.Content, "content")
		if err != nil {
			tb.Fatal(err)
		}
		contents, infos = append(contents, c), append(infos, it.Info)
	}
	return contents, infos
}

// Evolved levels (full fights with many bullets, where the counting, the bullet updates and
// the trig table do most of their work) still get, bit for bit, the infos recorded before the
// speed work (JSON's shortest decimals read back to the same doubles), evaluated twice in a
// row so that the second run reuses a pooled world's buffers.
func TestEvolvedLevelsKeepTheirInfo(t *testing.T) {
	p, _ := problems.Make("talakat-v0")
	contents, want := evolvedLevels(t, p)
	for round := 0; round < 2; round++ {
		for i, c := range contents {
			info, err := p.Info(c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(info, want[i]) {
				t.Errorf("level %d (round %d): info %+v, want %+v", i, round, info, want[i])
			}
		}
	}
}

// BenchmarkInfoEvolved measures Info on the evolved levels (BenchmarkInfo's golden items are
// mostly short fights).
func BenchmarkInfoEvolved(b *testing.B) {
	p, _ := problems.Make("talakat-v0")
	contents, _ := evolvedLevels(b, p)
	problemtest.BenchInfo(b, p, contents)
}
