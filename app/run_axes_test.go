package app

import (
	"strings"
	"testing"

	"pcgwb/problems/search"
)

// MAP-Elites from the Run tab starts on the axes whose range the problem declares (zelda's
// control targets), and those axes span the declared range: fitted to random levels they left
// the archive's elites piled in the end bins (0 feasible zelda levels with the defaults).
func TestRunTabMapElitesDefaultsToDeclaredAxes(t *testing.T) {
	wb := newTestWorkbench(t, Options{Problem: "zelda-v0"})
	rp := wb.run
	wb.showTab("run")
	rp.generator.SetSelected("mapelites")
	eventually(t, "zelda's axes", func() bool { return rp.axisX.Selected != "" && rp.axesFor == "zelda-v0" })
	got := []string{rp.axisX.Selected, rp.axisY.Selected}
	if got[0] != "player_key" && got[0] != "key_door" || got[1] != "player_key" && got[1] != "key_door" || got[0] == got[1] {
		t.Fatalf("default axes %q, want zelda's declared player_key and key_door", got)
	}
	_, p, err := wb.currentProblem()
	if err != nil {
		t.Fatal(err)
	}
	var axes []search.Axis
	letUIRun(func() { axes, err = sampleAxes(t.Context(), p, got, 10, 1) })
	if err != nil {
		t.Fatal(err)
	}
	for k, a := range axes {
		r := search.DeclaredRanges(p)[got[k]]
		if a.Min > r.Min || a.Max < r.Max {
			t.Errorf("axis %+v does not span the declared range %+v", a, r)
		}
	}
}

// The status line says how many elites lie outside an axis's range (kept in its end bins).
func TestRunStatusSaysWhatFellOutsideTheAxes(t *testing.T) {
	ev := search.Event{Archive: &search.ArchiveView{
		Axes:    []search.Axis{{Field: "player_key", Min: 10.5, Max: 19.5, Bins: 9}, {Field: "key_door", Min: 10.5, Max: 19.5, Bins: 9}},
		Filled:  12,
		Outside: []int{5, 0},
	}}
	s := formatEvent(ev)
	if !strings.Contains(s, "5 outside player_key's 10.5…19.5") || strings.Contains(s, "outside key_door") {
		t.Fatalf("status %q", s)
	}
}
