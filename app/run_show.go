package app

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"pcgwb/problems"
	"pcgwb/problems/search"
)

// showProgress updates the bar, the status line and the plots from events.
func (rp *RunPanel) showProgress(events []search.Event) {
	if rp.record == nil {
		return
	}
	cfg := rp.record.Config
	rp.Progress.Max = float64(max(cfg.Generations, 1))
	if len(events) == 0 {
		rp.Progress.SetValue(0)
		rp.FitnessPlot.SetSpec(RunFitnessPlot(nil, cfg.Generations))
		rp.CountsPlot.SetSpec(RunCountsPlot(nil, cfg.Generations, cfg.PopSize))
		return
	}
	last := events[len(events)-1]
	rp.Progress.SetValue(float64(last.Generation))
	rp.Status.SetText(FormatEvent(last))
	rp.FitnessPlot.SetSpec(RunFitnessPlot(events, cfg.Generations))
	rp.CountsPlot.SetSpec(RunCountsPlot(events, cfg.Generations, cfg.PopSize))
}

// FormatEvent is the status line for a generation.
func FormatEvent(ev search.Event) string {
	s := fmt.Sprintf("best %.3f · mean %.3f · feasible %d · unique %d · controlled %d of %d · %d evaluations · %s",
		ev.BestFitness, ev.MeanFitness, ev.Feasible, ev.Unique, ev.Controlled, ev.Size, ev.Evaluations,
		formatDuration(time.Duration(ev.Elapsed*float64(time.Second))))
	if ev.ModelCalls > 0 {
		s += fmt.Sprintf(" · %d model calls", ev.ModelCalls)
	}
	if ev.Archive != nil {
		s += fmt.Sprintf(" · archive %d cells", ev.Archive.Filled)
		for k, n := range ev.Archive.Outside {
			if n > 0 && k < len(ev.Archive.Axes) {
				a := ev.Archive.Axes[k]
				s += fmt.Sprintf(" · %d outside %s's %g…%g (in its end bins)", n, a.Field, a.Min, a.Max)
			}
		}
	}
	return s
}

// ShowRecord shows an opened run folder: its settings, plots and population. An unfinished
// run can be resumed with Start.
func (rp *RunPanel) ShowRecord(rec *RunRecord) error {
	if rp.state == RunRunning {
		return errors.New("a run is going on: pause or cancel it before opening another")
	}
	p, err := makeProblem(rec.Config.Problem)
	if err != nil {
		return err
	}
	// the run's problem becomes the workbench's, so Start runs what is shown
	_ = rp.wb.selectProblem(rec.Config.Problem)
	rp.problem, rp.record = p, rec
	rp.HideError()
	cfg := rec.Config
	if len(cfg.Axes) > 0 {
		rp.Bins.SetText(strconv.Itoa(cfg.Axes[0].Bins))
	}
	rp.showEvolveSettings(cfg)
	rp.Generator.SetSelected(cfg.Generator)
	rp.Fitness.SetSelected(cfg.Fitness)
	rp.PopSize.SetText(strconv.Itoa(cfg.PopSize))
	rp.Generations.SetText(strconv.Itoa(cfg.Generations))
	rp.Seed.SetText(strconv.FormatUint(cfg.Seed, 10))
	rp.Folder.SetText(rec.Dir)
	rp.showProgress(rec.Events)
	members, gen, err := rec.Members(p)
	if err != nil {
		rp.ShowError(err)
	}
	if members != nil {
		rp.Population.SetMembers(cfg.Problem, p, members)
	} else {
		rp.Population.Clear("This run has no population yet.")
	}
	switch {
	case rec.Finished():
		rp.setState(RunFinished)
	case gen >= 0 || len(rec.Events) > 0:
		rp.setState(RunPaused)
		rp.Status.SetText(fmt.Sprintf("Stopped at generation %d of %d. Resume (Ctrl+Enter) continues it.", rec.Generation(), cfg.Generations))
	default:
		rp.setState(RunPaused)
		rp.Status.SetText("Never started. Resume (Ctrl+Enter) starts it.")
	}
	return nil
}

// ShowError puts a message on the panel's red banner.
func (rp *RunPanel) ShowError(err error) {
	rp.ErrorText.SetText(err.Error())
	rp.errorBanner.Show()
}

// HideError removes the banner.
func (rp *RunPanel) HideError() {
	rp.ErrorText.SetText("")
	rp.errorBanner.Hide()
}

// SampleAxes proposes MAP-Elites axes for the fields (search.SuggestAxes): the problem's
// declared range where it has one, else a range fitted to random contents.
func SampleAxes(ctx context.Context, p problems.Problem, fields []string, bins int, seed uint64) ([]search.Axis, error) {
	return search.SuggestAxes(ctx, p, fields, bins, seed)
}
