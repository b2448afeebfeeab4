package app

// Adding several runs to Compare at once. Fyne's folder dialog picks one folder; picking a
// folder that holds several runs (a sweep's output, the GUI's output folder) lists them here
// with a tick each, so any subset joins the comparison in one go.

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
)

// runPicker is the dialog that lists the runs found under a folder.
type runPicker struct {
	runs   []*RunRecord
	checks []*widget.Check // one per run, ticked by default
	all    *widget.Check   // ticks or unticks every run
	dialog *dialog.ConfirmDialog
}

// picked returns the ticked runs.
func (p *runPicker) picked() []*RunRecord {
	var out []*RunRecord
	for i, c := range p.checks {
		if c.Checked {
			out = append(out, p.runs[i])
		}
	}
	return out
}

// pickFolder reads the runs under dir (off the UI goroutine): a single run is added at once;
// several are listed with a tick each (all ticked) and the ticked ones are added on Add.
func (cp *comparePanel) pickFolder(dir string) {
	cp.loadFolder(dir, func(runs []*RunRecord) {
		if len(runs) == 1 {
			cp.addRuns(runs...)
			return
		}
		cp.picker = cp.showRunPicker(dir, runs)
	})
}

// runPickerLabel names a run in the list: its configuration, seed, progress and folder.
func runPickerLabel(root string, r *RunRecord) string {
	rel, err := filepath.Rel(root, r.Dir)
	if err != nil || rel == "." {
		rel = filepath.Base(r.Dir)
	}
	state := "finished"
	if r.Final == nil {
		state = fmt.Sprintf("%d events, unfinished", len(r.Events))
	}
	return fmt.Sprintf("%s · %s · %s", r.Label(), state, rel)
}

// showRunPicker lists runs found under root, each with a tick.
func (cp *comparePanel) showRunPicker(root string, runs []*RunRecord) *runPicker {
	p := &runPicker{runs: runs}
	list := container.NewVBox()
	for _, r := range runs {
		c := widget.NewCheck(runPickerLabel(root, r), nil)
		c.SetChecked(true)
		p.checks = append(p.checks, c)
		list.Add(c)
	}
	p.all = widget.NewCheck(fmt.Sprintf("All %d runs", len(runs)), func(on bool) {
		for _, c := range p.checks {
			c.SetChecked(on)
		}
	})
	p.all.SetChecked(true)
	scroll := container.NewVScroll(list)
	scroll.SetMinSize(fyne.NewSize(0, 320))
	body := container.NewBorder(container.NewVBox(widget.NewLabel("Tick the runs to compare:"), p.all), nil, nil, nil, scroll)
	p.dialog = dialog.NewCustomConfirm(fmt.Sprintf("%d runs in %s", len(runs), filepath.Base(root)), "Add", "Cancel",
		widgets.WithTipLayer(body, true), func(ok bool) {
			if ok {
				cp.addRuns(p.picked()...)
			}
		}, cp.wb.Window)
	size := cp.wb.Window.Canvas().Size()
	p.dialog.Resize(fyne.NewSize(min(size.Width-40, 860), min(size.Height-40, 520)))
	p.dialog.Show()
	cp.status.SetText(fmt.Sprintf("%d runs found in %s: tick the ones to add.", len(runs), root))
	return p
}

// compareHeaderTips explain the Compare table's columns.
var compareHeaderTips = map[string]string{
	"Run":          "The group: runs with the same configuration (problem, generator, fitness, population, generations, budget); its colour in the plots.",
	"Seeds":        "How many runs (distinct seeds) the group holds; only finished runs count in the values. With fewer than 3 the interval is marked too few.",
	"Gens":         "Generations: how many each run of the group was set to run.",
	"Best fitness": "The best fitness of the final population, from 0 to 1: the mean over seeds with its 95% bootstrap interval; \"(1 run)\": too few runs for an interval.",
	"Feasible":     "Share of the final levels that are feasible (quality 1, playable), in %, with its interval.",
	"Unique":       "Share of the final levels that no other level duplicates, in %, with its interval.",
	"Controlled":   "Share of the final levels that meet their control target, in %, with its interval.",
	"Levels":       "Levels each run produced (its final population, mean over finished seeds): 20 for an LLM batch of 20, 100 for a GA population of 100. The shares are of these.",
	"Evaluations":  "Levels evaluated per run (LLM batches: model calls), the budget spent.",
}
