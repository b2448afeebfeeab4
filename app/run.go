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

	"pcgwb/app/widgets"
	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// Run panel defaults: the paper's settings.
const (
	DefaultPopulation  = 100
	defaultGenerations = 200
	maxGenerations     = 100_000
	maxPopulation      = 10_000
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
	runIdle      RunState = iota // nothing started (or a finished run shown)
	runRunning                   // generations are being computed
	runPaused                    // stopped; Start resumes it from its folder
	runCancelled                 // stopped for good (its folder can still be opened and resumed)
	RunFinished                  // reached its last generation
	runFailed                    // stopped by an error
)

func (s RunState) String() string {
	return [...]string{"idle", "running", "paused", "cancelled", "finished", "failed"}[s]
}

// runPanel is the Run tab: choose a generator and its settings, start, pause, resume or cancel
// a run that is recorded as a run folder, watch its fitness and counts per generation, and
// browse its current or final population.
type runPanel struct {
	generator, fitness         *widget.Select
	popSize, generations, seed *widgets.Entry
	axisX, axisY               *widget.Select
	bins                       *widgets.Entry
	llmRate, llmRepairs        *widgets.Entry // llm-ga, llm-mapelites: share of children asked, re-asks
	endpointNote               *widget.Label
	startButton, pauseButton   *widget.Button
	cancelButton               *widget.Button
	progress                   *widget.ProgressBar
	status, folder             *widget.Label
	errorText                  *widget.Label
	fitnessPlot, countsPlot    *plotView
	population                 *populationView
	axesRow, errorBanner       *fyne.Container
	llmRow                     *fyne.Container
	content                    fyne.CanvasObject
	wb                         *Workbench

	// onRunStopped is called on the UI goroutine whenever a run stops (finished, paused,
	// cancelled or failed).
	onRunStopped func(rec *RunRecord, state RunState, err error)

	state    RunState
	job      *runJob
	record   *RunRecord // the run shown: live, stopped or opened
	problem  problems.Problem
	axesFor  string // problem whose fields AxisX/AxisY list
	axisJobs latest
	// llmTab is the LLM tab's endpoint, nil without the tab (window_links.go).
	llmTab func() modelEndpoint
	// traffic counts the model requests of the last LLM-guided run started or resumed (nil
	// before any); statusBase is the status without them.
	traffic    *llmTraffic
	statusBase string
}

func newRunPanel(wb *Workbench, llmTab func() modelEndpoint) *runPanel {
	rp := &runPanel{wb: wb, axisJobs: latest{ui: wb.ui}, llmTab: llmTab}
	rp.setupLLM()
	rp.generator = widget.NewSelect(search.All(), func(g string) { rp.generatorChanged(g) })
	rp.fitness = widget.NewSelect(search.Fitnesses(), nil)
	rp.popSize = newEntry(wb)
	rp.generations = newEntry(wb)
	rp.seed = newEntry(wb)
	rp.bins = newEntry(wb)
	rp.bins.SetText(strconv.Itoa(defaultAxisBins))
	rp.axisX = widget.NewSelect(nil, nil)
	rp.axisY = widget.NewSelect(nil, nil)
	rp.axisX.PlaceHolder, rp.axisY.PlaceHolder = "x axis", "y axis"

	rp.startButton = widget.NewButtonWithIcon("Start", theme.MediaPlayIcon(), rp.Start)
	rp.startButton.Importance = widget.HighImportance
	rp.pauseButton = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), rp.pause)
	rp.cancelButton = widget.NewButtonWithIcon("Cancel", theme.MediaStopIcon(), rp.Cancel)
	rp.progress = widget.NewProgressBar()
	rp.progress.TextFormatter = func() string {
		if rp.progress.Max <= 0 {
			return ""
		}
		return fmt.Sprintf("generation %d / %d", int(rp.progress.Value), int(rp.progress.Max))
	}
	rp.status = widget.NewLabel("Choose a generator and press Start (Ctrl+Enter).")
	rp.status.Truncation = fyne.TextTruncateEllipsis
	rp.folder = widget.NewLabel("")
	rp.folder.SizeName = theme.SizeNameCaptionText
	rp.folder.Truncation = fyne.TextTruncateEllipsis
	rp.folder.Importance = widget.LowImportance

	rp.errorText, rp.errorBanner = newErrorBanner()

	rp.fitnessPlot = newPlotView(wb.ui)
	rp.countsPlot = newPlotView(wb.ui)
	rp.population = newPopulationView(wb.ui, "The population appears here while a run goes on.", false)
	rp.population.onOpen = wb.openMember
	rp.population.onExport = wb.showExport

	rp.axesRow = container.NewHBox(caption("AXES"), widgets.FixedWidth(150, rp.axisX), widgets.FixedWidth(150, rp.axisY), caption("BINS"), widgets.FixedWidth(50, rp.bins))
	rp.axesRow.Hide()
	settings := container.NewHBox(
		caption("GENERATOR"), widgets.FixedWidth(130, rp.generator),
		caption("FITNESS"), widgets.FixedWidth(220, rp.fitness),
		caption("POP"), widgets.FixedWidth(60, rp.popSize),
		caption("GENS"), widgets.FixedWidth(64, rp.generations),
		caption("SEED"), widgets.FixedWidth(80, rp.seed),
	)
	buttons := container.NewHBox(rp.startButton, rp.pauseButton, rp.cancelButton)
	top := container.NewVBox(
		settings,
		rp.axesRow,
		rp.llmRow,
		container.NewBorder(nil, nil, buttons, nil, container.NewPadded(rp.progress)),
		rp.status,
		rp.errorBanner,
	)
	plots := container.NewBorder(nil, rp.folder, nil, nil, container.NewGridWithRows(2, rp.fitnessPlot, rp.countsPlot))
	split := container.NewHSplit(plots, rp.population.Content())
	split.Offset = 0.36
	rp.content = container.NewBorder(top, nil, nil, nil, split)

	rp.generator.SetSelected("ga")
	rp.fitness.SetSelected(search.FitnessQuality)
	rp.popSize.SetText(strconv.Itoa(DefaultPopulation))
	rp.generations.SetText(strconv.Itoa(defaultGenerations))
	rp.seed.SetText(strconv.FormatUint(wb.prefs().defaultSeed(), 10))
	rp.setState(runIdle)
	return rp
}

// Content is the panel's root object.
func (rp *runPanel) Content() fyne.CanvasObject { return rp.content }

// State is the run's state.
func (rp *runPanel) State() RunState { return rp.state }

// Record returns the run shown (nil before any).
func (rp *runPanel) Record() *RunRecord { return rp.record }

// events returns the events shown in the plots.
func (rp *runPanel) events() []search.Event {
	if rp.record == nil {
		return nil
	}
	return rp.record.Events
}

func (rp *runPanel) setState(s RunState) {
	rp.state = s
	switch s {
	case runRunning:
		rp.startButton.Disable()
		rp.pauseButton.Enable()
		rp.cancelButton.Enable()
	case runPaused:
		rp.startButton.SetText("Resume")
		rp.startButton.Enable()
		rp.pauseButton.Disable()
		rp.cancelButton.Enable()
	default:
		rp.startButton.SetText("Start")
		rp.startButton.Enable()
		rp.pauseButton.Disable()
		rp.cancelButton.Disable()
	}
	for _, w := range []fyne.Disableable{rp.generator, rp.fitness, rp.popSize, rp.generations, rp.seed, rp.axisX, rp.axisY, rp.bins, rp.llmRate, rp.llmRepairs} {
		if s == runRunning || s == runPaused {
			w.Disable()
		} else {
			w.Enable()
		}
	}
	rp.refreshStart()
}

func (rp *runPanel) generatorChanged(g string) {
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
func (rp *runPanel) problemChanged(name string, p problems.Problem) {
	if usesAxes(rp.generator.Selected) {
		rp.loadAxisFields()
	}
	if rp.state == runIdle || rp.state == RunFinished || rp.state == runCancelled || rp.state == runFailed {
		if p == nil {
			rp.startButton.Disable()
		} else {
			rp.startButton.Enable()
			rp.refreshStart()
		}
	}
}

// loadAxisFields lists the current problem's numeric info fields for MAP-Elites' axes (one
// content's info, computed off the UI goroutine).
func (rp *runPanel) loadAxisFields() {
	name, p, err := rp.wb.currentProblem()
	if err != nil || name == rp.axesFor {
		return
	}
	// the shown axes are another problem's: none until this problem's fields are known
	for _, s := range []*widget.Select{rp.axisX, rp.axisY} {
		s.ClearSelected()
		s.SetOptions(nil)
	}
	rp.axisJobs.Go(func(ctx context.Context) func() {
		fields := []string{metricQuality, metricControllability}
		info, err := p.Info(p.ContentSpace().Sample(newRand(0)))
		if err == nil {
			fields = append(fields, search.NumericFields(info)...)
		}
		x, y := defaultArchiveAxes(p, fields)
		return func() {
			rp.axesFor = name
			rp.axisX.SetOptions(fields)
			rp.axisY.SetOptions(fields)
			rp.axisX.SetSelected(x)
			rp.axisY.SetSelected(y)
		}
	})
}

// runConfig reads the settings into a run configuration.
func (rp *runPanel) runConfig() (experiment.Config, int, error) {
	name, _, err := rp.wb.currentProblem()
	if err != nil {
		return experiment.Config{}, 0, err
	}
	pop, err := parseIntIn(rp.popSize.Text, 1, maxPopulation, "population")
	if err != nil {
		return experiment.Config{}, 0, err
	}
	gens, err := parseIntIn(rp.generations.Text, 0, maxGenerations, "generations")
	if err != nil {
		return experiment.Config{}, 0, err
	}
	seed, err := parseSeed(rp.seed.Text)
	if err != nil {
		return experiment.Config{}, 0, fmt.Errorf("seed: %w", err)
	}
	bins := 0
	if usesAxes(rp.generator.Selected) {
		if bins, err = parseIntIn(rp.bins.Text, 1, 100, "bins"); err != nil {
			return experiment.Config{}, 0, err
		}
		if rp.axisX.Selected == "" || rp.axisY.Selected == "" {
			return experiment.Config{}, 0, errors.New("MAP-Elites needs two axes: pick an info field for each")
		}
	}
	cfg := experiment.Config{Generator: rp.generator.Selected, Generations: gens, Options: search.Options{
		Problem: name, Fitness: rp.fitness.Selected, Seed: seed, PopSize: pop}}
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

// tips are the Run tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (rp *runPanel) tips() map[fyne.CanvasObject]string {
	return merge(map[fyne.CanvasObject]string{
		rp.generator:    "How levels are made: random sampling, an evolution strategy (es), a genetic algorithm (ga), MAP-Elites, a constructive generator, or a language model (llm…).",
		rp.fitness:      tipFitness,
		rp.popSize:      "Population: how many levels each generation holds, from 1 to 10,000 (the paper uses 100).",
		rp.generations:  "Generations: how many rounds of selection and variation, from 0 to 100,000 (the paper uses 200).",
		rp.seed:         tipSeed,
		rp.axisX:        "MAP-Elites' first axis: the level property that spreads the archive horizontally.",
		rp.axisY:        "MAP-Elites' second axis: the level property that spreads the archive vertically.",
		rp.bins:         "How many cells each MAP-Elites axis is cut into.",
		rp.llmRate:      "Share of the children, from 0 to 1, that the language model writes instead of mutation.",
		rp.llmRepairs:   "How many times the model is asked again when its level does not parse.",
		rp.startButton:  "Start the run (or resume a paused one) into a new run folder (Ctrl+Enter).",
		rp.pauseButton:  "Pause after the current generation: Start resumes from the run folder.",
		rp.cancelButton: "Stop the run for good; its folder keeps what was done.",
		rp.fitnessPlot:  tipFitnessPlot,
		rp.countsPlot:   tipCounts,
	}, populationTips(rp.population))
}
