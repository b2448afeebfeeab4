package zelda

import (
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/shape"
)

func TestGolden(t *testing.T) {
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	problemtest.CheckGolden(t, p, problemtest.LoadGolden(t, "testdata/zelda-v0.json"))
}

func TestConformance(t *testing.T) {
	for _, name := range []string{"zelda-v0", "zelda-enemies-v0", "zelda-large-v0"} {
		t.Run(name, func(t *testing.T) {
			problemtest.Conformance(t, name, problemtest.Options{AsymmetricDiversity: true})
		})
	}
}

func TestControlSpace(t *testing.T) {
	tests := []struct {
		name     string
		min, max int
	}{
		{"zelda-v0", 11, 19},
		{"zelda-enemies-v0", 11, 19},
		{"zelda-large-v0", 18, 54},
	}
	for _, tc := range tests {
		p, err := problems.Make(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"player_key", "key_door"} {
			r := p.ControlSpace().Range().(map[string]any)[key].(map[string]any)
			if r["min"] != tc.min || r["max"] != tc.max {
				t.Errorf("%s %s: range %v, want [%d, %d)", tc.name, key, r, tc.min, tc.max)
			}
		}
	}
}

func level(rows ...string) problems.Content {
	g := shape.NewGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		for x, c := range r {
			g.Set(x, y, int(c-'0'))
		}
	}
	return shape.GridContent(g)
}

// The reference searches the key→door path with the door impassable, so kd_path stays empty
// even when the door is right next to the key; key_door is still measured.
func TestKeyDoorPathAlwaysEmpty(t *testing.T) {
	p, _ := problems.Make("zelda-v0")
	info, err := p.Info(level(
		"21111111111",
		"11111111111",
		"11111111111",
		"11111111111",
		"11111111111",
		"11111115111",
		"11515111134",
	))
	if err != nil {
		t.Fatal(err)
	}
	in := info.(*Info)
	if len(in.KDPath) != 0 || in.KeyDoor != 1 {
		t.Errorf("kd_path %v key_door %d, want [] and 1", in.KDPath, in.KeyDoor)
	}
	if in.PlayerKey != 15 || len(in.PKPath) != 16 {
		t.Errorf("player_key %d, path of %d points; want 15 and 16", in.PlayerKey, len(in.PKPath))
	}
}

// Routes starting in the right or bottom half are mirrored before comparison, so a level and
// its mirror image are not diverse at all.
func TestDiversityIgnoresMirroring(t *testing.T) {
	p, _ := problems.Make("zelda-v0")
	a, _ := p.Info(level(
		"20000000000",
		"11110000000",
		"00013000000",
		"00000000000",
		"00000000000",
		"00000000000",
		"40000000000",
	))
	b, _ := p.Info(level(
		"00000000002",
		"00000001111",
		"00000031000",
		"00000000000",
		"00000000000",
		"00000000000",
		"00000000004",
	))
	if s := a.(*Info).route; s != "0,0|0,1|1,1|2,1|3,1|3,2|4,2|" {
		t.Errorf("route %q", s)
	}
	if d := p.Diversity(a, b); d != 0 {
		t.Errorf("diversity of mirrored levels = %v, want 0", d)
	}
}

func TestRenderSize(t *testing.T) {
	p, _ := problems.Make("zelda-v0")
	img, err := p.Render(shape.GridContent(shape.NewGrid(11, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 208 || b.Dy() != 144 {
		t.Errorf("render %v, want 208×144", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	p, err := problems.Make("zelda-v0")
	if err != nil {
		b.Fatal(err)
	}
	g := problemtest.LoadGolden(b, "testdata/zelda-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}
