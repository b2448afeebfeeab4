package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// Run panel defaults: the paper's settings.
const (
	DefaultPopulation  = 100
	DefaultGenerations = 200
	MaxGenerations     = 100_000
	MaxPopulation      = 10_000
	defaultAxisBins    = 10
)

// How often a running run refreshes the UI: the progress and plots at most four times a
// second (every change repaints the window, which costs a software-rendered display far more
// than the update itself), the population gallery (which reads the run folder's checkpoint
// and draws every level) every two seconds.
const (
	runUIInterval  = 250 * time.Millisecond
	runPopInterval = 2 * time.Second
)

// RunState is where the run panel's run stands.
type RunState int

const (
	RunIdle      RunState = iota // nothing started (or a finished run shown)
	RunRunning                   // generations are being computed
	RunPaused                    // stopped; Start resumes it from its folder
	RunCancelled                 // stopped for good (its folder can still be opened and resumed)
	RunFinished                  // reached its last generation
	RunFailed                    // stopped by an error
)

func (s RunState) String() string {
	return [...]string{"idle", "running", "paused", "cancelled", "finished", "failed"}[s]
}

// RunPanel is the Run tab: choose a generator and its settings, start, pause, resume or cancel
// a run that is recorded as a run folder, watch its fitness and counts per generation, and
// browse its current or final population.
type RunPanel struct {
	Generator, Fitness         *widget.Select
	PopSize, Generations, Seed *Entry
	AxisX, AxisY               *widget.Select
	Bins                       *Entry
	StartButton, PauseButton   *widget.Button
	CancelButton               *widget.Button
	Progress                   *widget.ProgressBar
	Status, Folder             *widget.Label
	ErrorText                  *widget.Label
	FitnessPlot, CountsPlot    *PlotView
	Population                 *PopulationView
	axesRow, errorBanner       *fyne.Container
	content                    fyne.CanvasObject
	wb                         *Workbench

	// OnRunStopped is called on the UI goroutine whenever a run stops (finished, paused,
	// cancelled or failed).
	OnRunStopped func(rec *RunRecord, state RunState, err error)

	state    RunState
	job      *runJob
	record   *RunRecord // the run shown: live, stopped or opened
	problem  problems.Problem
	axesFor  string // problem whose fields AxisX/AxisY list
	axisJobs latest
}

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

func newRunPanel(wb *Workbench) *RunPanel {
	rp := &RunPanel{wb: wb}
	rp.Generator = widget.NewSelect(search.Generators(), func(g string) { rp.generatorChanged(g) })
	rp.Fitness = widget.NewSelect(search.Fitnesses(), nil)
	rp.PopSize = NewEntry(wb)
	rp.Generations = NewEntry(wb)
	rp.Seed = NewEntry(wb)
	rp.Bins = NewEntry(wb)
	rp.Bins.SetText(strconv.Itoa(defaultAxisBins))
	rp.AxisX = widget.NewSelect(nil, nil)
	rp.AxisY = widget.NewSelect(nil, nil)
	rp.AxisX.PlaceHolder, rp.AxisY.PlaceHolder = "x axis", "y axis"

	rp.StartButton = widget.NewButtonWithIcon("Start", theme.MediaPlayIcon(), rp.Start)
	rp.StartButton.Importance = widget.HighImportance
	rp.PauseButton = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), rp.Pause)
	rp.CancelButton = widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), rp.Cancel)
	rp.Progress = widget.NewProgressBar()
	rp.Progress.TextFormatter = func() string {
		if rp.Progress.Max <= 0 {
			return ""
		}
		return fmt.Sprintf("generation %d / %d", int(rp.Progress.Value), int(rp.Progress.Max))
	}
	rp.Status = widget.NewLabel("Choose a generator and press Start (Ctrl+Enter).")
	rp.Status.Truncation = fyne.TextTruncateEllipsis
	rp.Folder = widget.NewLabel("")
	rp.Folder.SizeName = theme.SizeNameCaptionText
	rp.Folder.Truncation = fyne.TextTruncateEllipsis
	rp.Folder.Importance = widget.LowImportance

	rp.ErrorText = widget.NewLabel("")
	rp.ErrorText.Wrapping = fyne.TextWrapWord
	rp.ErrorText.TextStyle = fyne.TextStyle{Bold: true}
	banner := canvas.NewRectangle(colorErrorBack)
	banner.CornerRadius = 4
	rp.errorBanner = container.NewStack(banner, rp.ErrorText)
	rp.errorBanner.Hide()

	rp.FitnessPlot = NewPlotView()
	rp.CountsPlot = NewPlotView()
	rp.Population = NewPopulationView("The population appears here while a run goes on.", false)
	rp.Population.OnOpen = wb.openMember
	rp.Population.OnExport = wb.ShowExport

	rp.axesRow = container.NewHBox(caption("AXES"), fixedWidth(150, rp.AxisX), fixedWidth(150, rp.AxisY), caption("BINS"), fixedWidth(50, rp.Bins))
	rp.axesRow.Hide()
	settings := container.NewHBox(
		caption("GENERATOR"), fixedWidth(130, rp.Generator),
		caption("FITNESS"), fixedWidth(220, rp.Fitness),
		caption("POP"), fixedWidth(60, rp.PopSize),
		caption("GENS"), fixedWidth(64, rp.Generations),
		caption("SEED"), fixedWidth(80, rp.Seed),
	)
	buttons := container.NewHBox(rp.StartButton, rp.PauseButton, rp.CancelButton)
	top := container.NewVBox(
		settings,
		rp.axesRow,
		container.NewBorder(nil, nil, buttons, nil, container.NewPadded(rp.Progress)),
		rp.Status,
		rp.errorBanner,
	)
	plots := container.NewBorder(nil, rp.Folder, nil, nil, container.NewGridWithRows(2, rp.FitnessPlot, rp.CountsPlot))
	split := container.NewHSplit(plots, rp.Population.Content())
	split.Offset = 0.36
	rp.content = container.NewBorder(top, nil, nil, nil, split)

	rp.Generator.SetSelected("ga")
	rp.Fitness.SetSelected(search.FitnessQuality)
	rp.PopSize.SetText(strconv.Itoa(DefaultPopulation))
	rp.Generations.SetText(strconv.Itoa(DefaultGenerations))
	rp.Seed.SetText(strconv.FormatUint(wb.Settings().DefaultSeed(), 10))
	rp.setState(RunIdle)
	return rp
}

// Content is the panel's root object.
func (rp *RunPanel) Content() fyne.CanvasObject { return rp.content }

// State is the run's state.
func (rp *RunPanel) State() RunState { return rp.state }

// Record returns the run shown (nil before any).
func (rp *RunPanel) Record() *RunRecord { return rp.record }

// Events returns the events shown in the plots.
func (rp *RunPanel) Events() []search.Event {
	if rp.record == nil {
		return nil
	}
	return rp.record.Events
}

func (rp *RunPanel) setState(s RunState) {
	rp.state = s
	switch s {
	case RunRunning:
		rp.StartButton.Disable()
		rp.PauseButton.Enable()
		rp.CancelButton.Enable()
	case RunPaused:
		rp.StartButton.SetText("Resume")
		rp.StartButton.Enable()
		rp.PauseButton.Disable()
		rp.CancelButton.Enable()
	default:
		rp.StartButton.SetText("Start")
		rp.StartButton.Enable()
		rp.PauseButton.Disable()
		rp.CancelButton.Disable()
	}
	for _, w := range []fyne.Disableable{rp.Generator, rp.Fitness, rp.PopSize, rp.Generations, rp.Seed, rp.AxisX, rp.AxisY, rp.Bins} {
		if s == RunRunning || s == RunPaused {
			w.Disable()
		} else {
			w.Enable()
		}
	}
}

func (rp *RunPanel) generatorChanged(g string) {
	if g == "mapelites" {
		rp.axesRow.Show()
		rp.loadAxisFields()
	} else {
		rp.axesRow.Hide()
	}
}

// problemChanged is told when the workbench selects another problem.
func (rp *RunPanel) problemChanged(name string, p problems.Problem) {
	if rp.Generator.Selected == "mapelites" {
		rp.loadAxisFields()
	}
	if rp.state == RunIdle || rp.state == RunFinished || rp.state == RunCancelled || rp.state == RunFailed {
		if p == nil {
			rp.StartButton.Disable()
		} else {
			rp.StartButton.Enable()
		}
	}
}

// loadAxisFields lists the current problem's numeric info fields for MAP-Elites' axes (one
// content's info, computed off the UI goroutine).
func (rp *RunPanel) loadAxisFields() {
	name, p, err := rp.wb.CurrentProblem()
	if err != nil || name == rp.axesFor {
		return
	}
	rp.axisJobs.Go(func(ctx context.Context) func() {
		fields := []string{MetricQuality, MetricControllability}
		info, err := p.Info(p.ContentSpace().Sample(NewRand(0)))
		if err == nil {
			fields = append(fields, search.NumericFields(info)...)
		}
		return func() {
			rp.axesFor = name
			rp.AxisX.SetOptions(fields)
			rp.AxisY.SetOptions(fields)
			if len(fields) > 2 {
				rp.AxisX.SetSelected(fields[2])
				rp.AxisY.SetSelected(fields[min(3, len(fields)-1)])
			} else {
				rp.AxisX.SetSelected(fields[0])
				rp.AxisY.SetSelected(fields[1])
			}
		}
	})
}

// runConfig reads the settings into a run configuration.
func (rp *RunPanel) runConfig() (experiment.Config, int, error) {
	name, _, err := rp.wb.CurrentProblem()
	if err != nil {
		return experiment.Config{}, 0, err
	}
	pop, err := parseIntIn(rp.PopSize.Text, 1, MaxPopulation, "population")
	if err != nil {
		return experiment.Config{}, 0, err
	}
	gens, err := parseIntIn(rp.Generations.Text, 0, MaxGenerations, "generations")
	if err != nil {
		return experiment.Config{}, 0, err
	}
	seed, err := parseSeed(rp.Seed.Text)
	if err != nil {
		return experiment.Config{}, 0, fmt.Errorf("seed: %w", err)
	}
	bins := 0
	if rp.Generator.Selected == "mapelites" {
		if bins, err = parseIntIn(rp.Bins.Text, 1, 100, "bins"); err != nil {
			return experiment.Config{}, 0, err
		}
		if rp.AxisX.Selected == "" || rp.AxisY.Selected == "" {
			return experiment.Config{}, 0, errors.New("MAP-Elites needs two axes: pick an info field for each")
		}
	}
	cfg := experiment.Config{Generator: rp.Generator.Selected, Generations: gens, Options: search.Options{
		Problem: name, Fitness: rp.Fitness.Selected, Seed: seed, PopSize: pop}}
	return cfg, bins, nil
}

func parseIntIn(s string, lo, hi int, what string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: enter a whole number from %d to %d", what, lo, hi)
	}
	return n, nil
}

// Start begins a new run with the panel's settings in a new folder of the output folder, or
// resumes the paused run.
func (rp *RunPanel) Start() {
	switch rp.state {
	case RunRunning:
		return
	case RunPaused:
		rp.resume()
		return
	}
	cfg, bins, err := rp.runConfig()
	if err != nil {
		rp.ShowError(err)
		return
	}
	outDir := rp.wb.outputDir()
	axes := []string{rp.AxisX.Selected, rp.AxisY.Selected}
	rp.HideError()
	rp.Status.SetText("starting…")
	p, err := makeProblem(cfg.Problem)
	if err != nil {
		rp.ShowError(err)
		return
	}
	rp.problem = p
	rp.record = newRunRecord("", cfg)
	rp.Population.Clear("The population appears here after the first generation.")
	rp.showProgress(nil)
	rp.startJob(func(ctx context.Context) (*experiment.Run, error) {
		if cfg.Generator == "mapelites" {
			ax, err := SampleAxes(ctx, p, axes, bins, cfg.Seed)
			if err != nil {
				return nil, err
			}
			cfg.Axes = ax
		}
		dir := RunFolderName(outDir, cfg, time.Now().Format("20060102-150405"))
		return experiment.Create(dir, cfg)
	})
}

// resume continues the paused run from its folder.
func (rp *RunPanel) resume() {
	dir := rp.record.Dir
	rp.HideError()
	rp.startJob(func(context.Context) (*experiment.Run, error) { return experiment.Open(dir) })
}

// startJob runs a run session: open starts or reopens the folder (off the UI goroutine), then
// the run executes while a second goroutine brings its events to the UI.
func (rp *RunPanel) startJob(open func(ctx context.Context) (*experiment.Run, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &runJob{problem: rp.problem, cancel: cancel, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if rp.record != nil {
		j.events = append(j.events, rp.record.Events...)
	}
	rp.job = j
	rp.setState(RunRunning)
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
		_, err = run.Execute(ctx, j.add)
	}()
	go rp.follow(j, runnerDone)
}

// follow brings a run session's progress to the UI until it ends, at most every
// runUIInterval, then applies the end.
func (rp *RunPanel) follow(j *runJob, runnerDone chan struct{}) {
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
		var members []Member
		var gen = -1
		if run != nil && (ended || time.Since(lastPop) >= runPopInterval) && len(events) > 0 {
			lastPop = time.Now()
			if rec, lerr := rp.loadRecord(run, ended); lerr == nil {
				members, gen, _ = rec.Members(j.problem)
			}
		}
		if ended {
			var rec *RunRecord
			if run != nil {
				rec, _ = LoadRunRecord(run.Dir)
			}
			onUI(func() { rp.finishJob(j, rec, events, members, gen, err) })
			return
		}
		onUI(func() {
			if rp.job != j {
				return
			}
			if run != nil && rp.record.Dir == "" {
				rp.record = newRunRecord(run.Dir, run.Config)
				rp.Folder.SetText(run.Dir)
			}
			rp.record.Events = events
			rp.showProgress(events)
			if members != nil {
				rp.Population.SetMembers(rp.record.Config.Problem, rp.problem, members)
			}
		})
		time.Sleep(runUIInterval)
	}
}

// loadRecord reads what the population gallery needs: the folder's config (and final.json
// once the run ended).
func (rp *RunPanel) loadRecord(run *experiment.Run, ended bool) (*RunRecord, error) {
	if ended {
		return LoadRunRecord(run.Dir)
	}
	return newRunRecord(run.Dir, run.Config), nil
}

func (rp *RunPanel) finishJob(j *runJob, rec *RunRecord, events []search.Event, members []Member, gen int, err error) {
	if rp.job != j {
		return
	}
	rp.job = nil
	j.mu.Lock()
	pausing := j.pausing
	j.mu.Unlock()
	if rec != nil {
		rp.record = rec
		rp.Folder.SetText(rec.Dir)
	} else if rp.record != nil {
		rp.record.Events = events
	}
	rp.showProgress(rp.record.Events)
	if members != nil {
		rp.Population.SetMembers(rp.record.Config.Problem, rp.problem, members)
	}
	state := RunFinished
	switch {
	case err != nil && errors.Is(err, context.Canceled) && pausing:
		state = RunPaused
		rp.Status.SetText(fmt.Sprintf("Paused at generation %d. Resume (Ctrl+Enter) continues from the run folder.", rp.record.Generation()))
	case err != nil && errors.Is(err, context.Canceled):
		state = RunCancelled
		rp.Status.SetText(fmt.Sprintf("Cancelled at generation %d. The folder keeps what was done; open it to resume.", rp.record.Generation()))
	case err != nil:
		state = RunFailed
		rp.ShowError(err)
	default:
		if rec == nil || !rec.Finished() {
			state = RunFailed
		}
	}
	rp.setState(state)
	if rp.OnRunStopped != nil {
		rp.OnRunStopped(rp.record, state, err)
	}
}

// Pause stops the run after the generation in flight is abandoned; Start resumes it.
func (rp *RunPanel) Pause() {
	if rp.state != RunRunning || rp.job == nil {
		return
	}
	j := rp.job
	j.mu.Lock()
	j.pausing = true
	j.mu.Unlock()
	rp.Status.SetText("pausing…")
	rp.PauseButton.Disable()
	j.cancel()
}

// Cancel stops the run for good (its folder stays on disk).
func (rp *RunPanel) Cancel() {
	switch rp.state {
	case RunRunning:
		rp.Status.SetText("cancelling…")
		rp.PauseButton.Disable()
		rp.CancelButton.Disable()
		rp.job.cancel()
	case RunPaused:
		rp.setState(RunCancelled)
		rp.Status.SetText(fmt.Sprintf("Cancelled at generation %d. The folder keeps what was done; open it to resume.", rp.record.Generation()))
		if rp.OnRunStopped != nil {
			rp.OnRunStopped(rp.record, RunCancelled, context.Canceled)
		}
	}
}

// Wait blocks until the run session in flight has ended and the panel shows its end (plots
// and gallery drawn), at most timeout. It must not be called on the UI goroutine.
func (rp *RunPanel) Wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	uiMu.Lock()
	j := rp.job
	uiMu.Unlock()
	if j != nil {
		select {
		case <-j.done:
		case <-time.After(timeout):
			return fmt.Errorf("the run is still going after %v", timeout)
		}
	}
	for _, w := range []func(time.Duration) error{rp.Population.Wait, rp.FitnessPlot.Wait, rp.CountsPlot.Wait} {
		if err := w(time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}

// WaitForGeneration blocks until the panel shows generation gen (or the run stopped), at most
// timeout. For tests and the screenshot flag; not on the UI goroutine.
func (rp *RunPanel) WaitForGeneration(gen int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		uiMu.Lock()
		shown, running := -1, rp.state == RunRunning
		if rp.record != nil {
			shown = rp.record.Generation()
		}
		uiMu.Unlock()
		if shown >= gen || !running {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("generation %d not shown after %v", gen, timeout)
}

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
	if ev.Archive != nil {
		s += fmt.Sprintf(" · archive %d cells", ev.Archive.Filled)
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
	rp.problem, rp.record = p, rec
	rp.HideError()
	cfg := rec.Config
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

// SampleAxes fits MAP-Elites axes for two metrics from 64 random contents: whole-number
// fields get a bin per value when they fit, others bins equal bins; the upper end is doubled
// for info fields because evolved levels reach further than random ones.
func SampleAxes(ctx context.Context, p problems.Problem, fields []string, bins int, seed uint64) ([]search.Axis, error) {
	const n = 64
	r := NewRand(seed ^ 0xa11e5)
	members := make([]Member, n)
	contents := make([]problems.Content, n)
	for i := range members {
		contents[i] = p.ContentSpace().Sample(r)
		members[i] = Member{Index: i, Content: contents[i], Control: problems.SampleControl(p, r), Cell: -1}
	}
	infos, err := problems.Infos(ctx, p, contents)
	if err != nil {
		return nil, err
	}
	for i := range members {
		members[i].Info = infos[i]
		members[i].Quality = p.Quality(infos[i])
		if members[i].Control != nil {
			members[i].Controllability = p.Controllability(infos[i], members[i].Control)
		}
	}
	out := make([]search.Axis, len(fields))
	for k, f := range fields {
		if f == MetricQuality || f == MetricControllability {
			out[k] = search.Axis{Field: f, Min: 0, Max: 1, Bins: bins}
			continue
		}
		var vals []float64
		for i := range members {
			if v, ok := members[i].Metric(f); ok {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("the info has no numeric field %q", f)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range vals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		hi += math.Max(hi-lo, 1)
		a := FitAxis(f, []float64{lo, hi}, bins)
		out[k] = search.Axis{Field: f, Min: a.Min, Max: a.Max, Bins: a.Bins}
	}
	return out, nil
}
