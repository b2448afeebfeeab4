package building

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
)

func goldenView(t *testing.T, i int) *View {
	t.Helper()
	p, err := problems.Make("building-v0")
	if err != nil {
		t.Fatal(err)
	}
	it := problemtest.LoadGolden(t, "testdata/building-v0.json").Items[i]
	c, err := p.ContentSpace().Normalize(it.Content, "content")
	if err != nil {
		t.Fatal(err)
	}
	v, err := p.(*Problem).View(c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func filled(t *Tower) int {
	n := 0
	for _, c := range t.Volume() {
		if c != 0 {
			n++
		}
	}
	return n
}

func TestViewTurnsWithoutLosingBlocks(t *testing.T) {
	v := goldenView(t, 0)
	want := v.Text()
	cells := filled(v.shown())
	for q := 1; q <= 4; q++ {
		v.Rotate(1)
		if got := filled(v.shown()); got != cells {
			t.Fatalf("after %d quarter turns %d cells, want %d", q, got, cells)
		}
	}
	if got := v.Text(); got != want {
		t.Fatalf("four quarter turns changed the view:\n%s\nwant\n%s", got, want)
	}
	v.Rotate(1)
	if v.Text() == want {
		t.Fatal("a quarter turn did not change the view")
	}
	v.Rotate(-1)
	v.ShowLevels(-100)
	if v.Levels != 1 {
		t.Fatalf("levels %d, want 1", v.Levels)
	}
}

func TestReplayRebuildsTheSameTower(t *testing.T) {
	v := goldenView(t, 1)
	want, failed := v.Text(), v.Failed()
	v.Clear()
	if v.Placed != 0 || filled(v.shown()) != 0 {
		t.Fatal("Clear left blocks")
	}
	for v.Drop() {
	}
	if v.Text() != want || v.Failed() != failed {
		t.Fatalf("replayed tower differs:\n%s\nwant\n%s", v.Text(), want)
	}
	v.Undrop()
	if v.Placed != v.Blocks()-1 {
		t.Fatalf("placed %d after undrop", v.Placed)
	}
}
