package binary

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func TestGolden(t *testing.T) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/binary-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"binary-v0", "binary-wide-v0", "binary-large-v0"} {
		t.Run(name, func(t *testing.T) { problemtest.Conformance(t, name, problemtest.Options{}) })
	}
}

func TestControlSpace(t *testing.T) {
	tests := []struct {
		name     string
		min, max int
	}{
		{"binary-v0", 35, 98},
		{"binary-wide-v0", 52, 196},
		{"binary-large-v0", 70, 392},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		r := p.ControlSpace().Range().(map[string]any)["path"].(map[string]any)
		if r["min"] != tc.min || r["max"] != tc.max {
			t.Errorf("%s: control range %v, want [%d, %d)", tc.name, r, tc.min, tc.max)
		}
	}
}

// A single snake-shaped corridor is one region whose longest path (103 steps over 104 tiles)
// is past the 28-step target: a perfect score.
func TestQualityRewardsOneLongPath(t *testing.T) {
	p, _ := problems.Make("binary-v0")
	g := shape.NewGrid(14, 14)
	for y := 0; y < 14; y += 2 {
		for x := 0; x < 14; x++ {
			g.Set(x, y, Empty)
		}
		if y+2 < 14 {
			if (y/2)%2 == 0 {
				g.Set(13, y+1, Empty)
			} else {
				g.Set(0, y+1, Empty)
			}
		}
	}
	info, err := p.Info(shape.GridContent(g))
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*Info)
	if in.Regions != 1 || in.Path != 7*14+6-1 {
		t.Fatalf("regions %d path %d, want 1 and %d", in.Regions, in.Path, 7*14+6-1)
	}
	if q := p.Quality(info); q != 1 {
		t.Errorf("quality %v, want 1", q)
	}
	if d := p.Diversity(info, info); d != 0 {
		t.Errorf("self diversity %v", d)
	}
}

func TestRenderSize(t *testing.T) {
	p, _ := problems.Make("binary-v0")
	img, err := p.Render(shape.GridContent(shape.NewGrid(14, 14)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 256 || b.Dy() != 256 {
		t.Errorf("render %v, want 256×256", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	p, err := problems.Make("binary-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/binary-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}
