package main

import (
	"os"
	"path/filepath"
	"testing"
)

// `workbench FOLDER` on a Science Birds competition folder (what a desktop launcher passes)
// opens that folder in the Birds tab: the tab evaluates it, writing its stages' outputs into
// the folder, as a run folder opens in the Run tab and a level file opens the level.
func TestOpenPathEvaluatesACompetitionFolder(t *testing.T) {
	haveDisplay(t)
	comp := birdsCompetition(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	// --screenshot waits until every tab is idle (the Birds tab's folder job included), then quits.
	out, _ := runWindowChild(t, "workbench COMPETITION", comp, "--classifier", "none", "--screenshot", shot)
	for _, team := range []string{"one", "two"} {
		levels, _ := filepath.Glob(filepath.Join(comp, team, "levels", "*", "*"))
		if len(levels) == 0 {
			t.Errorf("%s: no levels extracted into %s: the folder was not evaluated\n%s", team, filepath.Join(comp, team, "levels"), out)
		}
	}
	if _, err := os.Stat(shot); err != nil {
		t.Errorf("no screenshot: %v\n%s", err, out)
	}
}
