package search

import (
	"context"
	"strings"
	"testing"

	"pcgwb/problems"
	_ "pcgwb/problems/zelda"
)

// MAP-Elites' suggested axes span the range the problem declares for a field (zelda's control
// targets) and the values of random levels on the way there; other fields are fitted to random
// contents alone.
func TestSuggestAxesUsesDeclaredRanges(t *testing.T) {
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Fatal(err)
	}
	r := DeclaredRanges(p)["player_key"]
	if !r.Whole || !(r.Max > r.Min) {
		t.Fatalf("zelda's declared player_key range is %+v", r)
	}
	axes, err := SuggestAxes(context.Background(), p, []string{"player_key", "regions", "quality"}, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a := axes[0]; a.Field != "player_key" || a.Min > r.Min || a.Max < r.Max {
		t.Errorf("player_key axis %+v does not span the declared range %+v", a, r)
	}
	// Random levels mostly miss the targets (a key out of reach is -1): the axis holds them too.
	if a := axes[0]; a.Min > -1 {
		t.Errorf("player_key axis %+v leaves out the levels with no path (-1)", a)
	}
	if axes[1].Field != "regions" || !(axes[1].Max > axes[1].Min) {
		t.Errorf("regions axis %+v: want one fitted to random levels", axes[1])
	}
	if axes[2] != (Axis{Field: "quality", Min: 0, Max: 1, Bins: 10}) {
		t.Errorf("quality axis %+v, want 0…1 in 10 bins", axes[2])
	}
	if _, err := SuggestAxes(context.Background(), p, []string{"no_such_field"}, 10, 1); err == nil || !strings.Contains(err.Error(), "no_such_field") {
		t.Errorf("an unknown field: %v", err)
	}
}

// Values outside an axis's range are kept in its end bins and counted, never silently.
func TestArchiveCountsValuesOutsideTheAxes(t *testing.T) {
	narrow := []Axis{{Field: "ones", Min: 0, Max: 2, Bins: 3}, {Field: "full_rows", Min: 0, Max: 5, Bins: 5}}
	g, _ := newFake(t, "mapelites", Options{Seed: 3, Axes: narrow})
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 3)
	ev := g.Event()
	if ev.Archive == nil || len(ev.Archive.Outside) != 2 || ev.Archive.Outside[0] == 0 {
		t.Fatalf("archive %+v: want the elites with more than 2 ones counted outside the first axis", ev.Archive)
	}
	wide := []Axis{{Field: "ones", Min: 0, Max: 1000, Bins: 10}, {Field: "full_rows", Min: 0, Max: 1000, Bins: 5}}
	g, _ = newFake(t, "mapelites", Options{Seed: 3, Axes: wide})
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 3)
	if out := g.Event().Archive.Outside; out != nil {
		t.Fatalf("outside %v with axes that hold every value: want none (left out of the file)", out)
	}
}
