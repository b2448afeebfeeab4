package problems

import (
	"slices"
	"testing"
)

// TestFamilyOf pins the one rule that derives a problem's family from its registered name.
func TestFamilyOf(t *testing.T) {
	for name, want := range map[string]Family{
		"zelda-v0": "zelda", "zelda-large-v0": "zelda", "loderunnertile-v0": "loderunnertile",
		"binary": "binary", "": "",
	} {
		if got := FamilyOf(name); got != want {
			t.Errorf("FamilyOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestFamilyTable checks the per-family table: lookups by family and by problem name, the
// sorted listing, and the panics on a second registration or a name that is not a family.
func TestFamilyTable(t *testing.T) {
	tab := NewFamilyTable[int]("test datum")
	tab.Register("zelda", 1)
	tab.Register("binary", 2)
	if v, ok := tab.Of("zelda-large-v0"); !ok || v != 1 {
		t.Errorf("Of(zelda-large-v0) = %d, %v", v, ok)
	}
	if _, ok := tab.Of("zeldax-v0"); ok {
		t.Error("zeldax-v0 found under zelda")
	}
	if got := tab.Families(); !slices.Equal(got, []Family{"binary", "zelda"}) {
		t.Errorf("Families() = %v", got)
	}
	for _, f := range []Family{"zelda", "", "zelda-v0"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", f)
				}
			}()
			tab.Register(f, 3)
		}()
	}
}
