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
func (rp *runPanel) showProgress(events []search.Event) {
	if rp.record == nil {
		return
	}
	cfg := rp.record.Config
	rp.progress.Max = float64(max(cfg.Generations, 1))
	if len(events) == 0 {
		rp.progress.SetValue(0)
		rp.fitnessPlot.SetSpec(runFitnessPlot(nil, cfg.Generations))
		rp.countsPlot.SetSpec(runCountsPlot(nil, cfg.Generations, cfg.PopSize))
		return
	}
	last := events[len(events)-1]
	rp.progress.SetValue(float64(last.Generation))
	rp.setStatus(formatEvent(last))
	rp.fitnessPlot.SetSpec(runFitnessPlot(events, cfg.Generations))
	rp.countsPlot.SetSpec(runCountsPlot(events, cfg.Generations, cfg.PopSize))
}

// formatEvent is the status line for a generation.
func formatEvent(ev search.Event) string {
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

// showRecord shows an opened run folder: its settings, plots and population. An unfinished
// run can be resumed with Start.
func (rp *runPanel) showRecord(rec *RunRecord) error {
	if rp.state == runRunning {
		return errors.New("a run is going on: pause or cancel it before opening another")
	}
	rp.traffic = nil // the counts were those of the run shown before
	p, err := makeProblem(rec.Config.Problem)
	if err != nil {
		return err
	}
	// the run's problem becomes the workbench's, so Start runs what is shown
	_ = rp.wb.selectProblem(rec.Config.Problem)
	rp.problem, rp.record = p, rec
	rp.hideError()
	cfg := rec.Config
	if len(cfg.Axes) > 0 {
		rp.bins.SetText(strconv.Itoa(cfg.Axes[0].Bins))
	}
	rp.showEvolveSettings(cfg)
	rp.generator.SetSelected(cfg.Generator)
	rp.fitness.SetSelected(cfg.Fitness)
	rp.popSize.SetText(strconv.Itoa(cfg.PopSize))
	rp.generations.SetText(strconv.Itoa(cfg.Generations))
	rp.seed.SetText(strconv.FormatUint(cfg.Seed, 10))
	rp.folder.SetText(rec.Dir)
	rp.showProgress(rec.Events)
	members, gen, err := rec.population(p)
	if err != nil {
		rp.showError(err)
	}
	if members != nil {
		rp.population.setMembers(cfg.Problem, p, members)
	} else {
		rp.population.Clear("This run has no population yet.")
	}
	switch {
	case rec.Finished():
		rp.setState(RunFinished)
	case gen >= 0 || len(rec.Events) > 0:
		rp.setState(runPaused)
		rp.status.SetText(fmt.Sprintf("Stopped at generation %d of %d. Resume (Ctrl+Enter) continues it.", rec.Generation(), cfg.Generations))
	default:
		rp.setState(runPaused)
		rp.status.SetText("Never started. Resume (Ctrl+Enter) starts it.")
	}
	return nil
}

// showError puts a message on the panel's red banner.
func (rp *runPanel) showError(err error) {
	rp.errorText.SetText(err.Error())
	rp.errorBanner.Show()
}

// hideError removes the banner.
func (rp *runPanel) hideError() {
	rp.errorText.SetText("")
	rp.errorBanner.Hide()
}

// sampleAxes proposes MAP-Elites axes for the fields (search.SuggestAxes): the problem's
// declared range where it has one, else a range fitted to random contents.
func sampleAxes(ctx context.Context, p problems.Problem, fields []string, bins int, seed uint64) ([]search.Axis, error) {
	return search.SuggestAxes(ctx, p, fields, bins, seed)
}
