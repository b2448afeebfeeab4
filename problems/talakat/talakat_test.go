package talakat

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

// Every golden value matches, with the correctly rounded sin/cos/atan2/log of package shape
// (glibc's, which the reference used). The golden items also match with Go's own math, so no
// item here sits on a bucket boundary that a last-bit difference would move.
func TestGolden(t *testing.T) {
	p, err := problems.Make("talakat-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/talakat-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"talakat-v0", "talakat-simple-v0", "talakat-complex-v0", "talakat-long-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{Samples: 6})
		})
	}
}

func BenchmarkInfo(b *testing.B) {
	p, _ := problems.Make("talakat-v0")
	g := problemtest.LoadGolden(b, "testdata/talakat-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}

// The grammar written in grammar.go is the reference's spawnerGrammar.json (with its escaped
// brackets unescaped), and the engine constants are its parameters.json.
func TestGrammarMatchesReferenceData(t *testing.T) {
	dir := problemtest.RefData(t, "talakat/engine/spawnerGrammar.json", "talakat/engine/parameters.json")
	b, err := os.ReadFile(filepath.Join(dir, "talakat", "engine", "spawnerGrammar.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string][]string
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for k, rules := range ref {
		for i := range rules {
			rules[i] = strings.NewReplacer(`\[`, "[", `\]`, "]").Replace(rules[i])
		}
		if !reflect.DeepEqual(rules, grammarRules[k]) {
			t.Errorf("symbol %s:\n got %q\nwant %q", k, grammarRules[k], rules)
		}
	}
	if len(ref) != len(grammarRules) {
		t.Errorf("%d symbols, reference has %d", len(grammarRules), len(ref))
	}
	b, err = os.ReadFile(filepath.Join(dir, "talakat", "engine", "parameters.json"))
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]float64
	if err := json.Unmarshal(b, &params); err != nil {
		t.Fatal(err)
	}
	if params["maxNumBullets"] != MaxBullets || params["maxNumSpawners"] != MaxSpawners {
		t.Errorf("engine limits %v, want bullets %d spawners %d", params, MaxBullets, MaxSpawners)
	}
	// width, height, maxHealth and the bucket counts are overwritten by every problem
	// constructor in the reference, so only the limits above are constants.
}

func row(vals ...int) []int {
	out := make([]int, 100)
	for i := range out {
		out[i] = vals[i%len(vals)]
	}
	return out
}

func TestExpansion(t *testing.T) {
	// Row 0 defines spawner_1, row 1 spawner_0, which may name spawner_1. With all values 0 every
	// tag takes its first rule: the shortest origin with one "bullet".
	s, err := expandScript([][]int{row(0), row(2, 1, 1, 1, 10, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"pattern": ["bullet"], "patternTime": "2", "patternRepeat":"0"}`; s.Spawners[1] != want {
		t.Errorf("spawner_1 = %s, want %s", s.Spawners[1], want)
	}
	// The queue 2,1,1,1,10,0,… : origin 2 (the full form), pattern names recurse on 1, 1 and stop
	// on 10, the three names take 0, 2, 1 (all "bullet"), and so on through every tag in order.
	want := `{"pattern": ["bullet", "bullet", "bullet"], "patternTime": "3", "patternRepeat":"0", ` +
		`"spawnerPhase":"10, 190, -5, 2, circle", "spawnerRadius": "5, 45, -5, 4, reverse", ` +
		`"spawnedNumber": "2, 4, -0.7, 3, reverse", "spawnedAngle": "0", ` +
		`"spawnedSpeed": "2, 5, 0.2, 2, circle", "bulletRadius": "6, 14, -5, 4, reverse"}`
	if s.Spawners[0] != want {
		t.Errorf("spawner_0 =\n%s\nwant\n%s", s.Spawners[0], want)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(s.JSON(150)), &doc); err != nil {
		t.Fatalf("script is not JSON: %v\n%s", err, s.JSON(150))
	}
	sp := doc["spawners"].(map[string]any)
	if len(sp) != 2 || sp["spawner_0"] == nil || sp["spawner_1"] == nil {
		t.Errorf("spawners %v", sp)
	}
}

func TestNameListGrowsWithEarlierRows(t *testing.T) {
	// A name value of 10 picks the 11th entry: only defined once a row has been expanded.
	// origin 0, patternParam 0, patternNames 0 (one name), name 10.
	rows := [][]int{row(0), row(0, 0, 0, 10), row(0, 0, 0, 11)}
	s, err := expandScript(rows)
	if err != nil {
		t.Fatal(err)
	}
	// Row 1 (spawner_1) sees 10 base names + spawner_2: value 10 → spawner_2.
	if !strings.Contains(s.Spawners[1], `"spawner_2"`) {
		t.Errorf("spawner_1 = %s, want it to spawn spawner_2", s.Spawners[1])
	}
	// Row 2 (spawner_0) sees spawner_2, spawner_1: value 11 → spawner_1.
	if !strings.Contains(s.Spawners[0], `"spawner_1"`) {
		t.Errorf("spawner_0 = %s, want it to spawn spawner_1", s.Spawners[0])
	}
}

func TestAllOddRowIsAnError(t *testing.T) {
	p, _ := problems.Make("talakat-simple-v0")
	c := make([]any, 5)
	for i := range c {
		r := make([]any, 100)
		for j := range r {
			r[j] = 2 * j % 100
			if i == 3 {
				r[j] = 2*(j%50) + 1
			}
		}
		c[i] = r
	}
	if _, err := p.Info(c); !errors.Is(err, errEndlessPattern) {
		t.Errorf("all-odd row: error %v, want the endless pattern error", err)
	}
}

func TestModifier(t *testing.T) {
	tests := []struct {
		spec string
		want []float64
	}{
		{"40", []float64{40, 40, 40}},
		// min 10, max 20, rate 5 every 2 frames, reflected at the bounds.
		{"10, 20, 5, 2, reverse", []float64{15, 15, 20, 20, 20, 20, 15, 15, 10}},
		// wrap: 10+5 = 15, 20, 25-20+10 = 15 …
		{"10, 20, 5, 1, circle", []float64{15, 20, 15, 20, 15}},
		// anything else clamps.
		{"10, 20, 5, 1, none", []float64{15, 20, 20, 20}},
		{"10, 20, -3, 1, reverse", []float64{10, 13, 16, 19, 20, 17}},
	}
	for _, tc := range tests {
		m := newModifier(0, 0)
		if err := m.parse(tc.spec); err != nil {
			t.Fatal(err)
		}
		m.start()
		var got []float64
		for range tc.want {
			m.update()
			got = append(got, m.value)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.spec, got, tc.want)
		}
	}
}

func TestCellsUseHalfEvenRounding(t *testing.T) {
	p, _ := problems.Make("talakat-v0")
	var c cellCounter
	c.init(p.(*Talakat))
	tests := []struct {
		x, y, r float64
		cells   []int
	}{
		// 4·(x-r)/20 = 0.5 rounds to 0 (even): starts at column 0; 4·(x+r)/20 = 2.5 → 2 → col 0.
		{5.5, 5.5, 3, []int{0}},
		// 1.5 rounds to 2 → ceil(0.5) = column 1, but 2.5 rounds to 2 → floor(0.5) = column 0:
		// a small bullet between the quarter-cell marks covers no cell at all.
		{10, 10, 2.5, nil},
		// Left of the screen: column ceil(round(-1.6)/4) = ceil(-0.5) = 0; rows 19/4 → 5 and
		// 21/4 → 5.
		{-3, 100, 5, []int{50}},
		// Two by two cells: columns ceil(round(3.2)/4) = 1 … floor(round(6.8)/4) = 1, rows
		// ceil(round(2.8)/4) = 1 … floor(round(7.2)/4) = 1; a wider one spans 1 … 2.
		{25, 25, 9, []int{11}},
		{30, 30, 11, []int{11, 12, 21, 22}},
	}
	for _, tc := range tests {
		c.count([]Bullet{{X: tc.x, Y: tc.y, Radius: tc.r}})
		var got []int
		for i, n := range c.counts {
			if n > 0 {
				got = append(got, i)
			}
		}
		if !reflect.DeepEqual(got, tc.cells) {
			t.Errorf("bullet (%v, %v, r %v): cells %v, want %v", tc.x, tc.y, tc.r, got, tc.cells)
		}
	}
}

func TestPlayableWorld(t *testing.T) {
	p, _ := problems.Make("talakat-v0")
	g := problemtest.LoadGolden(t, "testdata/talakat-v0.json")
	c := g.Contents(t, p)[0]
	w, err := p.(*Talakat).NewWorld(c)
	if err != nil {
		t.Fatal(err)
	}
	w.Player.Invulnerable = false
	for !w.Over() {
		w.Step(-1, 0)
	}
	if w.Player.X != PlayerRadius {
		t.Errorf("player x %v after walking left all fight, want clamped at %d", w.Player.X, PlayerRadius)
	}
	if !w.Lost() && !w.Won() && !w.TooManyBullets && len(w.Spawners) <= MaxSpawners {
		t.Error("the fight ended without a reason")
	}
	if w.Frame == 0 || w.Frame > 150 {
		t.Errorf("%d frames", w.Frame)
	}
}

func TestVariants(t *testing.T) {
	tests := []struct {
		name     string
		sections int
		lo, hi   int
	}{
		{"talakat-v0", 5, 75, 100},
		{"talakat-simple-v0", 5, 22, 118},
		{"talakat-complex-v0", 5, 90, 95},
		{"talakat-long-v0", 10, 75, 100},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r := p.ControlSpace().Range().(map[string]any)["bullets"].(map[string]any)
		if r["min"] != tc.lo || r["max"] != tc.hi {
			t.Errorf("%s: control range %v, want [%d, %d)", tc.name, r, tc.lo, tc.hi)
		}
		c := p.ContentSpace().Sample(rand.New(rand.NewPCG(3, 4)))
		info, err := p.Info(c)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(info.(*Info).BulletLocations); n != tc.sections {
			t.Errorf("%s: %d sections, want %d", tc.name, n, tc.sections)
		}
		img, err := p.Render(c)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 300 {
			t.Errorf("%s: render %v, want 200×300", tc.name, b)
		}
		if d, ok := p.(problems.Describer); !ok || d.Description() == "" {
			t.Errorf("%s: no description", tc.name)
		}
	}
}

func TestDiversityUsesPairwiseSum(t *testing.T) {
	p, _ := problems.Make("talakat-v0")
	a, b := &Info{BulletLocations: [][]float64{make([]float64, 150)}}, &Info{BulletLocations: [][]float64{make([]float64, 150), make([]float64, 150)}}
	var diffs []float64
	for i := range 150 {
		a.BulletLocations[0][i] = 0.001 * float64(i%7)
		b.BulletLocations[1][i] = 0.1 / float64(i+1)
		diffs = append(diffs, math.Abs(a.BulletLocations[0][i]-b.BulletLocations[1][i]))
	}
	// Section 1 of a is missing: its last section stands in. Section 0 of b is all zero.
	d0 := 0.0
	for i := range 150 {
		d0 += a.BulletLocations[0][i]
	}
	want := shape.Reward4(math.Min(shape.PairwiseSum(diffs)/2, shape.PairwiseSum(a.BulletLocations[0])/2), 0, 0.5, 1)
	if got := p.Diversity(a, b); got != want {
		t.Errorf("diversity %v, want %v", got, want)
	}
}

func TestMaxHealthMustFillSections(t *testing.T) {
	for mh, ok := range map[int]bool{20: true, 30: true, 45: false, 150: true, 160: false, 300: true} {
		_, err := New(problems.Params{"width": 200, "height": 300, "spawnerComplexity": 3, "maxHealth": mh})
		if (err == nil) != ok {
			t.Errorf("maxHealth %d: error %v", mh, err)
		}
	}
}

// A content outside the golden set on which Go's math.Sin/Cos/Atan2 move one bullet across a
// bucket boundary (bullet_locations[2][68] and [78] differ); its info was computed by the
// reference's engine under glibc 2.36. The correctly rounded functions of package shape agree.
func TestGlibcTrigonometry(t *testing.T) {
	b, err := os.ReadFile("testdata/glibc-trig.json")
	if err != nil {
		t.Fatal(err)
	}
	var item struct {
		Content any            `json:"content"`
		Info    map[string]any `json:"info"`
	}
	if err := json.Unmarshal(b, &item); err != nil {
		t.Fatal(err)
	}
	p, _ := problems.Make("talakat-v0")
	c, err := p.ContentSpace().Normalize(item.Content, "content")
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.Info(c)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := problemtest.ToJSON(info)
	for _, d := range problemtest.Diff(got, any(item.Info), "info") {
		t.Error(d)
	}
}

// TestDiversityKernelEqualsDiversity compares the kernel with Diversity bit for bit on
// synthetic bullet maps: sparse and dense sections, empty sections, near-equal section sums
// (where the bound is tight), exact duplicates and a NaN.
func TestDiversityKernelEqualsDiversity(t *testing.T) {
	p, err := New(problems.Params{})
	if err != nil {
		t.Fatal(err)
	}
	tk := p.(*Talakat)
	r := rand.New(rand.NewPCG(12, 34))
	const sections, cells = 5, 150
	cases := []struct {
		name    string
		density float64 // share of non-zero cells
		emptyP  float64 // chance of an empty section
		nan     bool
	}{
		{"sparse", 0.08, 0.4, false},
		{"dense", 0.9, 0, false},
		{"no empty sections", 0.2, 0, false},
		{"with a NaN", 0.1, 0.2, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			infos := make([]problems.Info, 80)
			for i := range infos {
				if i > 0 && i%7 == 0 {
					infos[i] = infos[i-1] // duplicates
					continue
				}
				in := &Info{BulletLocations: make([][]float64, sections)}
				for s := range in.BulletLocations {
					l := make([]float64, cells)
					if r.Float64() >= tc.emptyP {
						for c := range l {
							if r.Float64() < tc.density {
								l[c] = float64(r.IntN(30)) / 30 // shares of 30 frames: ties in sums
							}
						}
					}
					in.BulletLocations[s] = l
				}
				infos[i] = in
			}
			if tc.nan {
				infos[3].(*Info).BulletLocations[2][5] = math.NaN()
			}
			k := tk.DiversityKernel(infos)()
			for i := range infos {
				for j := range infos {
					want := tk.Diversity(infos[i], infos[j])
					if got := k(i, j); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("diversity(%d, %d): kernel %.17g, Diversity %.17g", i, j, got, want)
					}
				}
			}
		})
	}
}

// TestKernelIsSymmetric checks the claim of SymmetricDiversityKernel: for random pairs,
// kernel(i, j) and kernel(j, i) have the same bits, and so do Diversity(a, b) and
// Diversity(b, a), on maps with NaN, ±Inf, −0, huge values, empty sections and fights of
// different lengths; and that the kernel gives Diversity's bits on them.
func TestKernelIsSymmetric(t *testing.T) {
	p, err := New(problems.Params{})
	if err != nil {
		t.Fatal(err)
	}
	tk := p.(*Talakat)
	r := rand.New(rand.NewPCG(56, 78))
	const cells = 150
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 1e308, -1e308, 5e-324}
	cases := []struct {
		name     string
		density  float64
		specialP float64 // chance that a non-zero cell holds a special value
		varyLen  bool    // sections per fight from 1 to 6, else 5
	}{
		{"sparse", 0.08, 0, false},
		{"dense", 0.9, 0, false},
		{"different lengths", 0.2, 0, true},
		{"special values", 0.1, 0.05, true},
		{"many special values", 0.3, 0.5, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			infos := make([]problems.Info, 70)
			for i := range infos {
				secs := 5
				if tc.varyLen {
					secs = 1 + r.IntN(6)
				}
				in := &Info{BulletLocations: make([][]float64, secs)}
				for s := range in.BulletLocations {
					l := make([]float64, cells)
					if r.IntN(4) > 0 {
						for c := range l {
							if r.Float64() < tc.density {
								l[c] = float64(r.IntN(30)) / 30
								if r.Float64() < tc.specialP {
									l[c] = specials[r.IntN(len(specials))]
								}
							}
						}
					}
					in.BulletLocations[s] = l
				}
				infos[i] = in
			}
			k := tk.DiversityKernel(infos)()
			for i := range infos {
				for j := range infos {
					if a, b := k(i, j), k(j, i); math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("kernel(%d, %d) = %.17g (%#x), kernel(%d, %d) = %.17g (%#x)", i, j, a, math.Float64bits(a), j, i, b, math.Float64bits(b))
					}
					if a, b := tk.Diversity(infos[i], infos[j]), tk.Diversity(infos[j], infos[i]); math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("Diversity(%d, %d) = %.17g, Diversity(%d, %d) = %.17g", i, j, a, j, i, b)
					}
					// The special values also exercise the kernel's contract (its merge of
					// the two sections' cells with −0, ±Inf and NaN).
					if a, b := k(i, j), tk.Diversity(infos[i], infos[j]); math.Float64bits(a) != math.Float64bits(b) {
						t.Fatalf("kernel(%d, %d) = %.17g, Diversity = %.17g", i, j, a, b)
					}
				}
			}
		})
	}
}
