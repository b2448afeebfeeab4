package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
)

// A result row leads to its team's trials, and a trial to its level, image and Animate.
func TestBirdsResultsClickThrough(t *testing.T) {
	p := newTestBirdsPanel(t)
	dir := t.TempDir()
	i := "```\ndrop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n```"
	for n := 1; n <= 2; n++ {
		writeBirdsAnswer(t, dir, "alpha", "I", n, i)
		writeBirdsAnswer(t, dir, "beta", "L", n, "```\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```")
	}
	p.evaluateFolder(dir)
	eventually(t, "the ranking", func() bool { return len(p.ranking) == 2 && !p.evaluateButton.Disabled() })
	await(t, p.wait)
	row := 1
	if p.ranking[0][1] != "alpha" {
		row = 2
	}
	p.Ranking.Select(widget.TableCellID{Row: row, Col: 1})
	if p.team.Selected != "alpha" || len(p.trials) != 2 {
		t.Fatalf("team %q, %d trials", p.team.Selected, len(p.trials))
	}
	if v := p.trials[0]; v.Letter != "I" || v.Trial != 1 || v.Level == "" || v.Stability != 1 {
		t.Fatalf("trial %+v", v)
	}
	p.trialList.Select(1)
	if !strings.Contains(p.program.Text, "<Level") {
		t.Fatalf("the level view shows %q", p.program.Text)
	}
	eventually(t, "the trial's evaluation", func() bool { return !p.animateButton.Disabled() })
	await(t, p.wait)
	if !strings.Contains(p.stability.Text, "Stability: 1.0000") {
		t.Errorf("stability %q", p.stability.Text)
	}
}
