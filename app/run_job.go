package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// runJob is one session of a run (a resume starts a new session on the same folder).
type runJob struct {
	problem problems.Problem // the run's problem, for drawing its population
	run     *experiment.Run
	cancel  context.CancelFunc
	wake    chan struct{} // new data for the UI (buffered, one slot)
	done    chan struct{} // closed once the last UI update is applied

	mu      sync.Mutex
	events  []search.Event
	ended   bool
	err     error
	pausing bool // stopped by Pause rather than Cancel
}

func (j *runJob) poke() {
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

// add records an event; a resumed run may repeat the generation that was in flight when it
// was paused, and the newer event replaces the older.
func (j *runJob) add(ev search.Event) {
	j.mu.Lock()
	for len(j.events) > 0 && j.events[len(j.events)-1].Generation >= ev.Generation {
		j.events = j.events[:len(j.events)-1]
	}
	j.events = append(j.events, ev)
	j.mu.Unlock()
	j.poke()
}

func (j *runJob) snapshot() (events []search.Event, ended bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]search.Event(nil), j.events...), j.ended, j.err
}

// Start begins a new run with the panel's settings in a new folder of the output folder, or
// resumes the paused run.
func (rp *runPanel) Start() {
	switch rp.state {
	case runRunning:
		return
	case runPaused:
		rp.resume()
		return
	}
	cfg, bins, err := rp.runConfig()
	if err != nil {
		rp.showError(err)
		return
	}
	outDir := rp.wb.outputDir()
	axes := []string{rp.axisX.Selected, rp.axisY.Selected}
	if llm.IsEvolve(cfg.Generator) {
		rp.startEvolve(cfg, axes, bins, outDir)
		return
	}
	rp.hideError()
	rp.traffic = nil // no model requests to count
	rp.setStatus("starting…")
	p, err := makeProblem(cfg.Problem)
	if err != nil {
		rp.showError(err)
		return
	}
	rp.problem = p
	rp.record = newRunRecord("", cfg)
	rp.population.Clear("The population appears here after the first generation.")
	rp.showProgress(nil)
	rp.startJob(func(ctx context.Context) (*experiment.Run, error) {
		if usesAxes(cfg.Generator) {
			ax, err := sampleAxes(ctx, p, axes, bins, cfg.Seed)
			if err != nil {
				return nil, err
			}
			cfg.Axes = ax
		}
		dir := runFolderName(outDir, cfg, timeStamp())
		return experiment.Create(dir, cfg)
	})
}

// timeStamp names a new run folder.
func timeStamp() string { return time.Now().Format("20060102-150405") }

// resume continues the paused run from its folder (an LLM-guided run with the endpoint it
// recorded; its cache replays what was received before).
func (rp *runPanel) resume() {
	dir := rp.record.Dir
	exec := executeRun
	rp.traffic = nil
	if llm.IsEvolve(rp.record.Config.Generator) {
		client, err := rp.resumeClient(dir, rp.record.Config)
		if err != nil {
			rp.showError(err)
			return
		}
		exec = evolveExec(client)
	}
	rp.hideError()
	rp.startJobWith(func(context.Context) (*experiment.Run, error) { return experiment.Open(dir) }, exec)
}

// runExec executes an opened run folder, telling onEvent each generation.
type runExec func(ctx context.Context, run *experiment.Run, onEvent func(search.Event)) error

// executeRun is the runExec of the generators that need no runtime.
func executeRun(ctx context.Context, run *experiment.Run, onEvent func(search.Event)) error {
	_, err := run.Execute(ctx, onEvent)
	return err
}

// startJob runs a run session of a generator that needs no runtime.
func (rp *runPanel) startJob(open func(ctx context.Context) (*experiment.Run, error)) {
	rp.startJobWith(open, executeRun)
}

// startJobWith runs a run session: open starts or reopens the folder (off the UI goroutine),
// then exec runs it while a second goroutine brings its events to the UI.
func (rp *runPanel) startJobWith(open func(ctx context.Context) (*experiment.Run, error), exec runExec) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &runJob{problem: rp.problem, cancel: cancel, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if rp.record != nil {
		j.events = append(j.events, rp.record.Events...)
	}
	rp.job = j
	rp.setState(runRunning)
	runnerDone := make(chan struct{})
	go func() {
		defer close(runnerDone)
		defer j.poke()
		var err error
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the run failed: %v", r)
			}
			j.mu.Lock()
			j.ended, j.err = true, err
			j.mu.Unlock()
		}()
		var run *experiment.Run
		if run, err = open(ctx); err != nil {
			return
		}
		j.mu.Lock()
		j.run = run
		j.mu.Unlock()
		j.poke()
		err = exec(ctx, run, j.add)
	}()
	go rp.follow(j, runnerDone)
}

// follow brings a run session's progress to the UI until it ends, at most every
// runUIInterval, then applies the end.
func (rp *runPanel) follow(j *runJob, runnerDone chan struct{}) {
	defer close(j.done)
	var lastPop time.Time
	for {
		select {
		case <-j.wake:
		case <-runnerDone:
		}
		events, ended, err := j.snapshot()
		j.mu.Lock()
		run := j.run
		j.mu.Unlock()
		var members []member
		var gen = -1
		if run != nil && (ended || time.Since(lastPop) >= runPopInterval) && len(events) > 0 {
			lastPop = time.Now()
			if rec, lerr := rp.loadRecord(run, ended); lerr == nil {
				members, gen, _ = rec.population(j.problem)
			}
		}
		if ended {
			var rec *RunRecord
			if run != nil {
				rec, _ = loadRunRecord(run.Dir)
			}
			rp.wb.ui.onUI(func() { rp.finishJob(j, rec, events, members, gen, err) })
			return
		}
		rp.wb.ui.onUI(func() {
			if rp.job != j {
				return
			}
			if run != nil && rp.record.Dir == "" {
				rp.record = newRunRecord(run.Dir, run.Config)
				rp.folder.SetText(run.Dir)
			}
			rp.record.Events = events
			rp.showProgress(events)
			if members != nil {
				rp.population.setMembers(rp.record.Config.Problem, rp.problem, members)
			}
		})
		time.Sleep(runUIInterval)
	}
}

// loadRecord reads what the population gallery needs: the folder's config (and final.json
// once the run ended).
func (rp *runPanel) loadRecord(run *experiment.Run, ended bool) (*RunRecord, error) {
	if ended {
		return loadRunRecord(run.Dir)
	}
	return newRunRecord(run.Dir, run.Config), nil
}

func (rp *runPanel) finishJob(j *runJob, rec *RunRecord, events []search.Event, members []member, gen int, err error) {
	if rp.job != j {
		return
	}
	rp.job = nil
	j.mu.Lock()
	pausing := j.pausing
	j.mu.Unlock()
	if rec != nil {
		rp.record = rec
		rp.folder.SetText(rec.Dir)
	} else if rp.record != nil {
		rp.record.Events = events
	}
	rp.showProgress(rp.record.Events)
	if members != nil {
		rp.population.setMembers(rp.record.Config.Problem, rp.problem, members)
	}
	state := RunFinished
	switch {
	case err != nil && errors.Is(err, context.Canceled) && pausing:
		state = runPaused
		rp.status.SetText(fmt.Sprintf("Paused at generation %d. Resume (Ctrl+Enter) continues from the run folder.", rp.record.Generation()))
	case err != nil && errors.Is(err, context.Canceled):
		state = runCancelled
		rp.status.SetText(fmt.Sprintf("Cancelled at generation %d. The folder keeps what was done; open it to resume.", rp.record.Generation()))
	case err != nil:
		state = runFailed
		rp.showError(err)
	default:
		if rec == nil || !rec.Finished() {
			state = runFailed
		}
	}
	rp.setState(state)
	if rp.onRunStopped != nil {
		rp.onRunStopped(rp.record, state, err)
	}
}

// pause stops the run after the generation in flight is abandoned; Start resumes it.
func (rp *runPanel) pause() {
	if rp.state != runRunning || rp.job == nil {
		return
	}
	j := rp.job
	j.mu.Lock()
	j.pausing = true
	j.mu.Unlock()
	rp.status.SetText("pausing…")
	rp.pauseButton.Disable()
	j.cancel()
}

// Cancel stops the run for good (its folder stays on disk).
func (rp *runPanel) Cancel() {
	switch rp.state {
	case runRunning:
		rp.status.SetText("cancelling…")
		rp.pauseButton.Disable()
		rp.cancelButton.Disable()
		rp.job.cancel()
	case runPaused:
		rp.setState(runCancelled)
		rp.status.SetText(fmt.Sprintf("Cancelled at generation %d. The folder keeps what was done; open it to resume.", rp.record.Generation()))
		if rp.onRunStopped != nil {
			rp.onRunStopped(rp.record, runCancelled, context.Canceled)
		}
	}
}

// wait blocks until the run session in flight has ended and the panel shows its end (plots
// and gallery drawn), at most timeout. It must not be called on the UI goroutine.
func (rp *runPanel) wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	rp.wb.ui.mu.Lock()
	j := rp.job
	rp.wb.ui.mu.Unlock()
	if j != nil {
		select {
		case <-j.done:
		case <-time.After(timeout):
			return fmt.Errorf("the run is still going after %v", timeout)
		}
	}
	for _, w := range []func(time.Duration) error{rp.population.wait, rp.fitnessPlot.Wait, rp.countsPlot.Wait} {
		if err := w(time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}

// waitForGeneration blocks until the panel shows generation gen (or the run stopped), at most
// timeout. For tests and the screenshot flag; not on the UI goroutine.
func (rp *runPanel) waitForGeneration(gen int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		rp.wb.ui.mu.Lock()
		shown, running := -1, rp.state == runRunning
		if rp.record != nil {
			shown = rp.record.Generation()
		}
		rp.wb.ui.mu.Unlock()
		if shown >= gen || !running {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("generation %d not shown after %v", gen, timeout)
}
