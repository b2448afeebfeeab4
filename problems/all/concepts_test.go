package all_test

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"pcgwb/games/play"
	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
	"pcgwb/problems/search"
)

// The workbench's named concepts hold for every registered problem and generator: a problem's
// family (problems.Family) has a play view and prompts, every family-keyed table names only
// families that exist, and every generator has a descriptor with a colour of its own. Adding a
// problem or a generator that misses a part fails here (docs/recipes).

// TestEveryFamilyHasAPromptAndAPlayView checks each registered problem's family has a play
// view, and that each problem's generation and evolution prompts load (its family's templates,
// or generic.tmpl and generic-evolve.tmpl: llm.Candidates).
func TestEveryFamilyHasAPromptAndAPlayView(t *testing.T) {
	if len(problems.Families()) == 0 {
		t.Fatal("no problem registered")
	}
	for _, name := range problems.List() {
		if !play.Playable(name) {
			t.Errorf("%s (family %s) has no play view (games/play.Register)", name, problems.FamilyOf(name))
		}
		if _, err := (llm.Templates{}).LoadEvolve(name, ""); err != nil {
			t.Errorf("%s: its prompts do not load: %v", name, err)
		}
	}
}

// TestFamilyTablesNameRegisteredFamilies checks that no family-keyed table holds a family
// without a registered problem (a misspelt family would be silently unused).
func TestFamilyTablesNameRegisteredFamilies(t *testing.T) {
	fams := problems.Families()
	for what, keys := range map[string][]problems.Family{
		"play view":            play.Families(),
		"tile legend":          levelio.LegendFamilies(),
		"constructive builder": search.ConstructiveFamilies(),
	} {
		for _, f := range keys {
			if !slices.Contains(fams, f) {
				t.Errorf("%s of family %q, which has no registered problem", what, f)
			}
		}
	}
	// Prompt templates are files named after a family, a problem or a problem without -v0
	// (llm.Candidates), or one of the shared ones.
	known := map[string]bool{llm.CommonTemplate: true, llm.GenericTemplate: true, llm.EvolveCommonTemplate: true}
	for _, name := range problems.List() {
		for _, c := range llm.Candidates(name) {
			known[c] = true
		}
	}
	for _, n := range (llm.Templates{}).Names() {
		if !known[strings.TrimSuffix(n, llm.EvolveSuffix)] {
			t.Errorf("prompt template %s.tmpl names no registered problem or family", n)
		}
	}
}

// TestEveryLegendFitsItsFamily checks that a family's tile legend has as many tiles as each of
// its tile problems: a legend of another size is silently replaced by the generic one.
func TestEveryLegendFitsItsFamily(t *testing.T) {
	for _, name := range problems.List() {
		f := problems.FamilyOf(name)
		if !slices.Contains(levelio.LegendFamilies(), f) {
			continue
		}
		p, err := problems.Make(name)
		if err != nil {
			t.Logf("%s: %v", name, err) // its data is not on this machine
			continue
		}
		if _, ok := levelio.GridOf(p); !ok {
			continue
		}
		l, _, err := levelio.LegendOf(name, p)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if slices.ContainsFunc(l.Names, func(s string) bool { return strings.HasPrefix(s, "tile ") }) {
			t.Errorf("%s: the %s legend does not fit its %d tiles", name, f, len(l.Chars))
		}
	}
}

// TestEveryGeneratorHasADescriptorAndAColour checks every registered generator (the LLM ones
// included) has a descriptor, a colour no other generator has, and consistent capabilities.
func TestEveryGeneratorHasADescriptorAndAColour(t *testing.T) {
	ds := search.Descriptors()
	if len(ds) != len(search.All()) {
		t.Fatalf("%d descriptors for %d generators", len(ds), len(search.All()))
	}
	for i, d := range ds {
		if got, ok := search.Describe(d.Name); !ok || got.Name != d.Name {
			t.Errorf("%s: Describe gives %+v", d.Name, got)
		}
		if d.Color == nil {
			t.Errorf("%s has no colour", d.Name)
			continue
		}
		for _, e := range ds[:i] {
			if same(d.Color, e.Color) {
				t.Errorf("%s and %s share the colour %v", e.Name, d.Name, d.Color)
			}
		}
		if d.AsksModel && !d.NeedsRuntime {
			t.Errorf("%s asks a model without needing its runtime (the client)", d.Name)
		}
	}
	for _, name := range []string{llm.GeneratorName, llm.GAName, llm.MapElitesName} {
		if d, _ := search.Describe(name); !d.AsksModel {
			t.Errorf("%s does not say it asks a model", name)
		}
	}
	if d, _ := search.Describe(llm.MapElitesName); !d.UsesAxes {
		t.Errorf("%s does not say it uses axes", llm.MapElitesName)
	}
}

func same(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
