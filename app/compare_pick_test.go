package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Picking a folder of several runs lists them with a tick each; the ticked ones join Compare in
// one go, a cancelled list adds nothing, and a folder of one run is added at once.
func TestComparePicksSeveralRunsAtOnce(t *testing.T) {
	wb := newTestWorkbench(t)
	root := t.TempDir()
	dirs := makeRuns(t, root, []string{"ga", "es"}, 2, 2) // ga/1 ga/2 es/1 es/2
	cp := wb.compare
	tests := []struct {
		name      string
		dir       string
		noneFirst bool  // untick "All" first
		toggle    []int // positions then tapped in the list
		confirm   bool
		want      int // runs in Compare after
		listed    int // runs in the list (0: no list)
	}{
		{"one run is added at once", dirs[0], false, nil, false, 1, 0},
		{"cancel adds nothing", root, false, nil, false, 0, 4},
		{"untick one of four", root, false, []int{1}, true, 3, 4},
		{"none, then tick two", root, true, []int{0, 3}, true, 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp.Clear()
			cp.picker = nil
			cp.pickFolder(tt.dir)
			await(t, cp.wait)
			if tt.listed == 0 {
				if cp.picker != nil || len(cp.Runs()) != tt.want {
					t.Fatalf("picker %v, %d runs", cp.picker != nil, len(cp.Runs()))
				}
				return
			}
			p := cp.picker
			if p == nil || len(p.checks) != tt.listed || len(p.picked()) != tt.listed {
				t.Fatalf("no list of %d ticked runs", tt.listed)
			}
			for _, c := range p.checks {
				if !strings.Contains(c.Text, "seed") || !strings.Contains(c.Text, "finished") {
					t.Fatalf("run label %q", c.Text)
				}
			}
			if tt.noneFirst {
				test.Tap(p.all)
				if len(p.picked()) != 0 {
					t.Fatal("unticking All left runs ticked")
				}
			}
			for _, i := range tt.toggle {
				test.Tap(p.checks[i])
			}
			if tt.confirm {
				p.dialog.Confirm()
			} else {
				p.dialog.Dismiss()
			}
			await(t, cp.wait)
			if len(cp.Runs()) != tt.want {
				t.Fatalf("%d runs in Compare, want %d", len(cp.Runs()), tt.want)
			}
			if missing := untipped(cp.Content(), nil); len(missing) > 0 {
				t.Fatalf("the compared runs' controls lack tooltips: %q", missing)
			}
		})
	}
}
