package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/birds"
)

// The Birds tab's results are clickable: a ranking row selects its team, the team's evaluated
// trials are listed (letter, trial, stability, similarity), and a trial opens its level in the
// level view — its evaluator image, stability and letters — where Animate plays it.

// newTrialList builds the list of the selected team's trials.
func (p *birdsPanel) newTrialList() *widget.List {
	l := widget.NewList(
		func() int { return len(p.trials) },
		func() fyne.CanvasObject { return widget.NewLabel("Z trial 10 · stability 0.000 · similarity 0.000") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(p.trials) {
				o.(*widget.Label).SetText(trialLabel(p.trials[i]))
			}
		})
	l.OnSelected = p.openTrial
	return l
}

func trialLabel(v birds.TrialView) string {
	return fmt.Sprintf("%s trial %d · stability %.3f · similarity %.3f", v.Letter, v.Trial, v.Stability, v.Similarity)
}

// showTeamTrials lists a team's trials of the folder last evaluated.
func (p *birdsPanel) showTeamTrials(team string) {
	p.trials = nil
	if p.resultDir != "" && team != "" {
		p.trials = birds.TeamTrials(p.resultDir, team, p.scores)
	}
	p.trialList.UnselectAll()
	p.trialList.Refresh()
}

// openTrial shows trial i's level in the level view, which evaluates it and enables Animate.
func (p *birdsPanel) openTrial(i widget.ListItemID) {
	if i < 0 || i >= len(p.trials) {
		return
	}
	v := p.trials[i]
	data, err := birds.ReadTrialLevel(v)
	if err != nil {
		p.problem.SetText(err.Error())
		return
	}
	p.program.SetText(string(data))
}
