package building

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

const golden = "testdata/building-v0.json"

func TestGolden(t *testing.T) {
	p, err := problems.Make("building-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, golden))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"building-v0", "building-large-v0", "building-tall-v0", "building-huge-v0"} {
		t.Run(name, func(t *testing.T) { problemtest.Conformance(t, name, problemtest.Options{}) })
	}
}

func blocks(bs ...Block) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		out[i] = map[string]any{"x": b.X, "y": b.Y, "type": b.Type}
	}
	return out
}

func mustMake(t *testing.T, name string) *Problem {
	t.Helper()
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Problem)
}

func TestDrop(t *testing.T) {
	tower, err := NewTower(7, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		b      Block
		landed bool
		z      int
	}{
		{Block{3, 3, Type1x1}, true, 0},
		// A 3×3 slab centred over the pillar rests on it, leaving a hollow underneath.
		{Block{2, 2, Type3x3}, true, 1},
		// Pushed back inside the lot: x=6 becomes x0=4 for a 3-wide block.
		{Block{6, 0, Type1x3}, true, 0},
		{Block{2, 3, Type1x1}, true, 2},
		// The column is full to the ceiling now.
		{Block{2, 3, Type3x1}, false, 0},
	}
	for i, s := range steps {
		if got := tower.Drop(s.b); got != s.landed {
			t.Fatalf("step %d: landed = %v, want %v", i, got, s.landed)
		}
		if s.landed {
			if l := tower.landed[len(tower.landed)-1]; l.z != s.z {
				t.Fatalf("step %d: landed at level %d, want %d", i, l.z, s.z)
			}
		}
	}
	if tower.Failed != 1 {
		t.Fatalf("failed = %d, want 1", tower.Failed)
	}
	if l := tower.landed[2]; l.x0 != 4 || l.y0 != 0 {
		t.Fatalf("clamped footprint at (%d,%d), want (4,0)", l.x0, l.y0)
	}
	// Column (3,3) holds level 0 (pillar) and 1 (slab): one run topped at 2. Column (2,3)
	// holds the slab at 1 and the 1×1 at 2 over a hollow level 0: one run topped at 3.
	h := tower.Heights(nil)
	want := map[[2]int][]int{{3, 3}: {2}, {2, 3}: {3}, {2, 2}: {2}, {4, 0}: {1}, {0, 0}: nil}
	for col, w := range want {
		got := runsOf(tower, col[0], col[1])
		if len(got) != len(w) || (len(w) > 0 && got[0] != w[0]) {
			t.Errorf("column %v runs %v, want %v", col, got, w)
		}
	}
	if len(h) != tower.numRuns() {
		t.Errorf("numRuns %d != len(heights) %d", tower.numRuns(), len(h))
	}
}

func runsOf(tw *Tower, x, y int) []int {
	single := &Tower{W: 1, L: 1, H: tw.H, occupied: []uint64{tw.occupied[y*tw.W+x]}}
	return single.Heights(nil)
}

// Runs separated by a hollow are listed top first.
func TestHeightsRunOrder(t *testing.T) {
	tw := &Tower{W: 1, L: 1, H: 12, occupied: []uint64{0b1110_0011}}
	got := tw.Heights(nil)
	if len(got) != 2 || got[0] != 8 || got[1] != 2 {
		t.Fatalf("heights = %v, want [8 2]", got)
	}
}

// The orientation quirks: the span is measured from the running minimum, and after a swap the
// y shift still rolls axis 1 (now x) and the x shift axis 2.
func TestOrientTransposeRoll(t *testing.T) {
	p := mustMake(t, "building-v0")
	// One 3×1 block (three along y) at x=5, y=1: span x 0, span y 2 → swap axes. Shifts are
	// x=5, y=1, so the cells (5, 1..3) become rows (5-1)=4 and columns (1..3)-5 mod 7 = 3..5.
	info, err := p.Info(blocks(Block{5, 1, Type3x1}))
	if err != nil {
		t.Fatal(err)
	}
	m := info.(*Info).Lvl3x1
	n := 0
	for z := range 12 {
		for y := range 7 {
			for x := range 7 {
				if m.At(x, y, z) {
					n++
					if z != 0 || y != 4 || x < 3 || x > 5 {
						t.Errorf("cell (x=%d, y=%d, z=%d) set", x, y, z)
					}
				}
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d cells set, want 3", n)
	}
	// Without the swap, a 1×3 block (three along x) at (2, 4) is rolled to the origin corner.
	info, _ = p.Info(blocks(Block{2, 4, Type1x3}))
	m = info.(*Info).Lvl1x3
	for x := range 3 {
		if !m.At(x, 0, 0) {
			t.Errorf("1×3 cell (%d, 0, 0) not set after roll", x)
		}
	}
}

// The running minimum: a layer's extent is measured from the smallest x of all layers so far,
// so two lone cubes on different layers, far apart in x, count as a wide footprint.
func TestOrientRunningMinimum(t *testing.T) {
	tw, _ := NewTower(7, 7, 12)
	tw.Drop(Block{0, 0, Type1x1})
	tw.Drop(Block{0, 3, Type1x1}) // level 0: x span 0, y span 3
	tw.Drop(Block{4, 0, Type3x3})
	tw.Drop(Block{6, 0, Type1x1}) // level 1 on the slab: alone, but 6 from level 0's x
	var bounds [4 * maxHeight]int
	o := tw.orient(Type1x1, bounds[:4*12])
	// Measured per layer the x span would be 0 < 3 and the axes would swap.
	if o.shiftX != 0 || o.shiftY != 0 || o.transpose {
		t.Fatalf("orientation %+v, want shift (0,0) without swap", o)
	}
}

func TestQuality(t *testing.T) {
	p := mustMake(t, "building-v0")
	// A failed block: target reward < 1, so the height term is skipped.
	var bs []Block
	for range 13 {
		bs = append(bs, Block{0, 0, Type1x1})
	}
	info, _ := p.Info(blocks(bs...))
	if got := info.(*Info).Blocks; got != 40-1 {
		t.Fatalf("blocks = %d, want 39", got)
	}
	q := p.Quality(info)
	want := (39/(40+0.00000001) + 0) / 2
	if q != want {
		t.Fatalf("quality = %v, want %v", q, want)
	}
}

func TestSampleControl(t *testing.T) {
	for _, name := range []string{"building-v0", "building-huge-v0"} {
		p := mustMake(t, name)
		r := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			c := p.SampleControl(r).(map[string]any)
			sum := 0
			for _, k := range typeKeys {
				v := c[k].(int)
				if v < 0 || v >= p.nBlocks {
					t.Fatalf("%s: %s = %d outside [0, %d)", name, k, v, p.nBlocks)
				}
				sum += v
			}
			if sum != p.nBlocks {
				t.Fatalf("%s: control %v sums to %d, want %d", name, c, sum, p.nBlocks)
			}
		}
	}
}

func TestRenderSize(t *testing.T) {
	for name, want := range map[string][2]int{"building-v0": {112, 156}, "building-huge-v0": {176, 284}} {
		p := mustMake(t, name)
		img, err := p.Render(p.ContentSpace().Sample(rand.New(rand.NewPCG(3, 4))))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != want[0] || b.Dy() != want[1] {
			t.Errorf("%s: %v, want %dx%d", name, b, want[0], want[1])
		}
	}
}

func TestMaskJSONShape(t *testing.T) {
	p := mustMake(t, "building-tall-v0")
	info, _ := p.Info(blocks(Block{1, 1, Type3x3}))
	b, err := json.Marshal(info.(*Info).Lvl3x3)
	if err != nil {
		t.Fatal(err)
	}
	var v [][][]int
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v) != 24 || len(v[0]) != 7 || len(v[0][0]) != 7 || v[0][2][2] != 1 || v[1][2][2] != 0 {
		t.Fatalf("mask JSON shape/content wrong: %d layers", len(v))
	}
}

func BenchmarkInfo(b *testing.B) {
	p, err := problems.Make("building-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, golden)
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}
