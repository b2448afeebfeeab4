package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/llm"
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
	LLMRate, LLMRepairs        *Entry // llm-ga, llm-mapelites: share of children asked, re-asks
	EndpointNote               *widget.Label
	StartButton, PauseButton   *widget.Button
	CancelButton               *widget.Button
	Progress                   *widget.ProgressBar
	Status, Folder             *widget.Label
	ErrorText                  *widget.Label
	FitnessPlot, CountsPlot    *PlotView
	Population                 *PopulationView
	axesRow, errorBanner       *fyne.Container
	llmRow                     *fyne.Container
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

func newRunPanel(wb *Workbench) *RunPanel {
	rp := &RunPanel{wb: wb}
	rp.setupLLM()
	rp.Generator = widget.NewSelect(search.All(), func(g string) { rp.generatorChanged(g) })
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

	rp.ErrorText, rp.errorBanner = newErrorBanner()

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
		rp.llmRow,
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
	for _, w := range []fyne.Disableable{rp.Generator, rp.Fitness, rp.PopSize, rp.Generations, rp.Seed, rp.AxisX, rp.AxisY, rp.Bins, rp.LLMRate, rp.LLMRepairs} {
		if s == RunRunning || s == RunPaused {
			w.Disable()
		} else {
			w.Enable()
		}
	}
	rp.refreshStart()
}

func (rp *RunPanel) generatorChanged(g string) {
	if usesAxes(g) {
		rp.axesRow.Show()
		rp.loadAxisFields()
	} else {
		rp.axesRow.Hide()
	}
	if llm.IsEvolve(g) {
		rp.llmRow.Show()
	} else {
		rp.llmRow.Hide()
	}
	rp.refreshStart()
}

// problemChanged is told when the workbench selects another problem.
func (rp *RunPanel) problemChanged(name string, p problems.Problem) {
	if usesAxes(rp.Generator.Selected) {
		rp.loadAxisFields()
	}
	if rp.state == RunIdle || rp.state == RunFinished || rp.state == RunCancelled || rp.state == RunFailed {
		if p == nil {
			rp.StartButton.Disable()
		} else {
			rp.StartButton.Enable()
			rp.refreshStart()
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
	// the shown axes are another problem's: none until this problem's fields are known
	for _, s := range []*widget.Select{rp.AxisX, rp.AxisY} {
		s.ClearSelected()
		s.SetOptions(nil)
	}
	rp.axisJobs.Go(func(ctx context.Context) func() {
		fields := []string{MetricQuality, MetricControllability}
		info, err := p.Info(p.ContentSpace().Sample(NewRand(0)))
		if err == nil {
			fields = append(fields, search.NumericFields(info)...)
		}
		x, y := defaultArchiveAxes(p, fields)
		return func() {
			rp.axesFor = name
			rp.AxisX.SetOptions(fields)
			rp.AxisY.SetOptions(fields)
			rp.AxisX.SetSelected(x)
			rp.AxisY.SetSelected(y)
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
	if usesAxes(rp.Generator.Selected) {
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

// defaultArchiveAxes picks MAP-Elites' first axes: the info fields whose range the problem
// declares (its control targets), which the archive then spans exactly; else the first two
// info fields; else quality and controllability.
func defaultArchiveAxes(p problems.Problem, fields []string) (string, string) {
	declared := search.DeclaredRanges(p)
	var picked []string
	for _, f := range fields[2:] {
		if _, ok := declared[f]; ok {
			picked = append(picked, f)
		}
	}
	for _, f := range fields[2:] {
		if len(picked) < 2 && !slices.Contains(picked, f) {
			picked = append(picked, f)
		}
	}
	switch len(picked) {
	case 0:
		return fields[0], fields[1]
	case 1:
		return picked[0], fields[0]
	}
	return picked[0], picked[1]
}
