package search

import (
	"context"
	"image/color"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"

	"pcgwb/problems"
)

// TestBuiltinDescriptors pins what the built-in generators declare: the capabilities callers
// test instead of names, and the colours the report has always drawn them in (plotutil's
// palette by rank), so figures stay byte-identical.
func TestBuiltinDescriptors(t *testing.T) {
	want := map[string]Descriptor{
		"random":       {Name: "random"},
		"es":           {Name: "es"},
		"ga":           {Name: "ga"},
		"mapelites":    {Name: "mapelites", UsesAxes: true},
		"constructive": {Name: "constructive", Constructive: true},
	}
	for i, name := range Generators()[:5] {
		d, ok := Describe(name)
		if !ok {
			t.Fatalf("%s has no descriptor", name)
		}
		w := want[name]
		w.Color = d.Color
		if d != w {
			t.Errorf("%s: descriptor %+v, want %+v", name, d, w)
		}
		if !sameColor(d.Color, plotutil.Color(i)) {
			t.Errorf("%s: colour %v, the report's %v", name, d.Color, plotutil.Color(i))
		}
	}
	if d, ok := Describe("nosuch"); ok || d.Color != nil || d.UsesAxes {
		t.Errorf("unknown generator described as %+v", d)
	}
}

// TestEveryGeneratorHasAColour checks every registered generator has its own colour: no two
// registered generators share one (a figure with both could not tell them apart). The tests'
// own registrations ("test-…") are left out. problems/all checks the same with the LLM
// generators registered.
func TestEveryGeneratorHasAColour(t *testing.T) {
	var ds []Descriptor
	for _, d := range Descriptors() {
		if !strings.HasPrefix(d.Name, "test-") {
			ds = append(ds, d)
		}
	}
	checkColours(t, ds)
}

func checkColours(t *testing.T, ds []Descriptor) {
	t.Helper()
	for i, d := range ds {
		if d.Color == nil {
			t.Errorf("%s has no colour", d.Name)
		}
		for _, e := range ds[:i] {
			if d.Color != nil && e.Color != nil && sameColor(d.Color, e.Color) {
				t.Errorf("%s and %s share the colour %v", e.Name, d.Name, d.Color)
			}
		}
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// TestRegisterGeneratorKeepsItsDescriptor registers a generator with capabilities and reads
// them back; one registered without a colour gets a palette colour.
func TestRegisterGeneratorKeepsItsDescriptor(t *testing.T) {
	f := func(ctx context.Context, s Spec) (Generator, error) { return nil, ErrNeedsRuntime }
	teal := color.RGBA{1, 2, 3, 255}
	RegisterGenerator(Descriptor{Name: "test-described", NeedsRuntime: true, AsksModel: true, UsesAxes: true, Color: teal}, f)
	d, ok := Describe("test-described")
	if !ok || !d.AsksModel || !d.UsesAxes || !d.NeedsRuntime || d.Color != teal || !NeedsRuntime("test-described") {
		t.Fatalf("descriptor %+v", d)
	}
	Register("test-plain", f)
	if d, _ := Describe("test-plain"); d.Color == nil || d.AsksModel || d.UsesAxes || d.Constructive {
		t.Fatalf("plain descriptor %+v", d)
	}
	if !slices.Contains(All(), "test-described") || slices.Contains(Generators(), "test-described") {
		t.Fatalf("listing %v", All())
	}
}

// TestConstructiveFamilies checks the constructive generator's builders are keyed by family:
// each builder's family has a registered problem, and every variant of those families builds.
func TestConstructiveFamilies(t *testing.T) {
	fams := ConstructiveFamilies()
	if len(fams) == 0 {
		t.Fatal("no constructive builder")
	}
	for _, f := range fams {
		n := 0
		for _, name := range problems.List() {
			if problems.FamilyOf(name) != f {
				continue
			}
			n++
			if !HasBuilder(name) {
				t.Errorf("%s has no builder", name)
			}
			p := makeProblem(t, name)
			g, err := New(p, "constructive", Options{Problem: name, Seed: 1, PopSize: 2})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := g.Reset(context.Background()); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if n == 0 {
			t.Errorf("builder of family %s, which has no registered problem", f)
		}
	}
	if HasBuilder("ddave-v0") {
		t.Error("ddave has a builder")
	}
}
