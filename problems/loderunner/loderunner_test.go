package loderunner

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/loderunnertile"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func refData(t testing.TB) {
	problemtest.RefDataFiles(t, data.LodeRunnerPatterns, data.LodeRunnerLevels)
}

func TestGolden(t *testing.T) {
	refData(t)
	p, err := problems.Make("loderunner-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/loderunner-v0.json"))
}

func TestConformance(t *testing.T) {
	refData(t)
	for _, name := range []string{"loderunner-v0", "loderunner-gold-v0", "loderunner-enemies-v0"} {
		t.Run(name, func(t *testing.T) { problemtest.Conformance(t, name, problemtest.Options{}) })
	}
}

func TestExpandOverwritesTheBottomRow(t *testing.T) {
	patterns := []data.Pattern{{1, 2, 3, 4}, {5, 6, 5, 6}}
	ids := shape.NewGrid(2, 2)
	ids.Set(1, 0, 1)
	ids.Set(0, 1, 1)
	lv, err := Expand(ids, patterns)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{
		{1, 2, 5, 6},
		{3, 4, 5, 6},
		{5, 6, 1, 2},
		{0, 0, 0, 0},
	}
	for y, row := range want {
		for x, v := range row {
			if lv.At(x, y) != v {
				t.Fatalf("level %v, want %v", lv.Rows(), want)
			}
		}
	}
	ids.Set(0, 0, 2)
	if _, err := Expand(ids, patterns); err == nil {
		t.Error("an unknown pattern id was accepted")
	}
}

func TestRenderSize(t *testing.T) {
	refData(t)
	p, err := problems.Make("loderunner-v0")
	if err != nil {
		t.Fatal(err)
	}
	g := problemtest.LoadGolden(t, "testdata/loderunner-v0.json")
	img, err := p.Render(g.Contents(t, p)[0])
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 512 || b.Dy() != 352 {
		t.Errorf("render is %v, want 512×352", b)
	}
	if _, ok := p.(*loderunnertile.Problem); !ok {
		t.Errorf("loderunner does not use the shared engine: %T", p)
	}
}

func BenchmarkInfo(b *testing.B) {
	refData(b)
	p, err := problems.Make("loderunner-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/loderunner-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}
