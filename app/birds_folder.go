package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"pcgwb/games/birds"
)

// The Birds tab's folder half: a competition folder evaluated with progress, then its ranking.

func (p *birdsPanel) showEvaluateFolder() {
	p.wb.pickFolder("Evaluate a competition folder", "Evaluate", "", p.evaluateFolder)
}

// evaluateFolder runs every stage of the pipeline on a competition folder (writing its
// outputs there, as `workbench birds evaluate` does), with the progress bar, then shows the
// ranking. Call it on the UI goroutine.
func (p *birdsPanel) evaluateFolder(dir string) {
	p.progressLabel.SetText("Evaluating " + dir + "…")
	classifier := p.classifier()
	p.startFolderJob(func(ctx context.Context) func() {
		opt := birds.Options{Classifier: classifier, Progress: p.stageProgress("")}
		rep, err := birds.Evaluate(ctx, dir, opt)
		return func() { p.showReport(dir, rep, err, classifier, "") }
	})
}

// startFolderJob clears the results, runs work as the panel's one folder-level job (the
// Cancel button stops it) and gives the buttons back when it ends.
func (p *birdsPanel) startFolderJob(work func(ctx context.Context) func()) {
	p.evaluateButton.Disable()
	p.promptButton.Disable()
	p.cancelButton.Enable()
	p.progress.SetValue(0)
	p.ranking, p.characters = nil, nil
	p.resultDir, p.scores, p.trials = "", nil, nil
	p.Ranking.Refresh()
	p.trialList.Refresh()
	p.team.Options = nil
	p.team.ClearSelected()
	p.folder.Go(work)
	go func() {
		_ = p.folder.wait(24 * time.Hour)
		p.wb.ui.onUI(func() {
			p.evaluateButton.Enable()
			p.promptButton.Enable()
			p.cancelButton.Disable()
		})
	}()
}

// stageProgress shows the pipeline's events in the progress bar and label. Events come from
// the workers; at most one every 50 ms is shown, and each stage's end.
func (p *birdsPanel) stageProgress(prefix string) func(birds.Event) {
	var mu sync.Mutex
	var lastShown time.Time
	return func(e birds.Event) {
		mu.Lock()
		now := time.Now()
		if e.Done != e.Total && now.Sub(lastShown) < 50*time.Millisecond {
			mu.Unlock()
			return
		}
		lastShown = now
		mu.Unlock()
		p.wb.ui.onUI(func() {
			p.progress.SetValue(float64(e.Done) / float64(max(e.Total, 1)))
			p.progressLabel.SetText(fmt.Sprintf("%s%s: %d of %d", prefix, e.Stage, e.Done, e.Total))
		})
	}
}

// showReport fills the ranking and the chart from an evaluation; lead opens the summary line.
func (p *birdsPanel) showReport(dir string, rep *birds.Report, err error, classifier birds.Classifier, lead string) {
	// The line is truncated to the tab's width: what matters most comes first.
	var lines []string
	if err != nil {
		lines = append(lines, "error: "+err.Error())
	}
	if rep != nil && rep.Scores != nil {
		lines = append(lines, fmt.Sprintf("competition score %.6g", rep.Scores.Competition.Float()))
	}
	if lead != "" {
		lines = append(lines, lead)
	}
	if rep != nil {
		for _, s := range rep.Stages {
			if s.Skipped != "" {
				lines = append(lines, fmt.Sprintf("%s skipped: %s", s.Stage, s.Skipped))
				continue
			}
			line := fmt.Sprintf("%s %d of %d", s.Stage, s.Written, s.Items)
			if s.Classifier != "" {
				line += " by " + classifierLabel(classifier)
			}
			lines = append(lines, line)
		}
		if rep.Scores != nil {
			p.progress.SetValue(1)
			for _, ps := range rep.Scores.Prompts {
				p.ranking = append(p.ranking, [4]string{fmt.Sprint(ps.Rank), ps.Team, fmt.Sprintf("%.4f %%", ps.Normalized.Float()), ps.Score.String()})
			}
			p.characters = rep.Scores.Characters
			p.resultDir, p.scores = dir, rep.Scores
			var teams []string
			for _, r := range p.ranking {
				teams = append(teams, r[1])
			}
			p.team.Options = teams
			if len(teams) > 0 {
				p.team.SetSelected(teams[0])
			}
		}
	}
	p.progressLabel.SetText(filepath.Base(dir) + ": " + strings.Join(lines, " · "))
	p.Ranking.Refresh()
}
