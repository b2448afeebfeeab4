package app

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/assets"
	"pcgwb/problems"
)

// DefaultProblem is selected at start when it is registered.
const DefaultProblem = "zelda-v0"

// Workbench is the main window: the problem picker, its description and its target control on
// the left, and the tabs (see tabTable) on the right. Each tab is a panel struct holding its
// widgets, built from the workbench's current problem and told about problem changes through
// OnProblemChanged. It is configured once, by New's Options; after that, the user drives it.
type Workbench struct {
	app    fyne.App
	Window fyne.Window
	// ui is the window's UI-thread plumbing: its panels' background jobs and their callbacks.
	ui *uiThread

	// The tabs' panels.
	samples    *samplePanel
	run        *runPanel
	editor     *editorPanel
	compare    *comparePanel
	expressive *expressivePanel
	// detail is the level dialog opened last (nil before any).
	detail *detailView
	// dataOffer is the "Get the data…" panel shown last (nil before any).
	dataOffer *dataOffer

	picker       *problemPicker
	problemTitle *widget.Label
	description  *widget.Label
	contentSpace *widget.Label
	controlSpace *widget.Label
	// controls is the target control (sliders fitted to the control space).
	controls *controlEditor
	tabs     *container.AppTabs
	// statusBar is the line at the bottom of the window (saved files, hints).
	statusBar *widget.Label

	// panels and tabItems are the tabs' panels and items by tab name (see tabTable).
	panels   map[string]panel
	tabItems map[string]*container.TabItem

	// opts are the options New was given: the hooks and scripting settings are read later.
	opts Options

	// outputDirOverride, when set, is where this session's runs go instead of the settings'
	// output folder (Options.OutputDir).
	outputDirOverride string

	settingsForm *settingsForm

	problemName string
	problem     problems.Problem
	problemErr  error
	listeners   []func(name string, p problems.Problem)
	started     bool // construction is over: picking a problem now samples it
	details     *container.Scroll
}

// New builds the main window on a (it does not show it), configured by o. It applies the
// workbench theme to the app. It fails, with nothing shown, on options that name nothing: an
// unknown problem, tab or generator, a sample count out of range, a run folder that does not
// open.
func New(a fyne.App, o Options) (*Workbench, error) {
	if o.Problem != "" {
		if _, ok := problems.Lookup(o.Problem); !ok {
			_, err := problems.Make(o.Problem) // its error suggests the closest name
			return nil, err
		}
	}
	if o.Samples != 0 && (o.Samples < 1 || o.Samples > MaxSamples) {
		return nil, fmt.Errorf("the sample count must be from 1 to %d", MaxSamples)
	}
	if o.Tab == "" && o.Run != nil {
		o.Tab = "run"
	}
	if o.Tab != "" && tabNamed(o.Tab) < 0 {
		return nil, fmt.Errorf("unknown tab %q (one of %v)", o.Tab, TabNames())
	}
	if o.Run != nil && (o.Run.Generations < 0 || o.Run.Population < 1) {
		return nil, errors.New("a run needs generations >= 0 and a population >= 1")
	}

	wb := &Workbench{app: a, ui: o.ui, opts: o, outputDirOverride: o.OutputDir}
	if wb.ui == nil {
		wb.ui = newUIThread()
	}
	a.Settings().SetTheme(newThemeNamed(wb.prefs().themeName()))
	wb.Window = a.NewWindow("PCG Workbench")
	wb.Window.SetIcon(appIcon())

	wb.statusBar = widget.NewLabel("F1 lists the keyboard shortcuts.")
	wb.statusBar.SizeName = theme.SizeNameCaptionText
	wb.statusBar.Truncation = fyne.TextTruncateEllipsis
	wb.controls = newControlEditor()
	wb.buildTabs()
	wb.controls.onChanged = wb.editor.controlChanged
	wb.picker = newProblemPicker(problems.List(), wb, wb.activate)
	wb.onProblemChanged(func(name string, p problems.Problem) {
		wb.controls.setProblem(p)
		wb.run.problemChanged(name, p)
		wb.editor.problemChanged(name, p)
	})

	split := container.NewHSplit(wb.sidePanel(), container.New(&fitTabs{wb: wb}, wb.tabs))
	split.Offset = 0.22
	wb.Window.SetContent(widgets.WithTipLayer(container.NewBorder(nil, container.NewPadded(wb.statusBar), nil, nil, split), false))
	wb.Window.SetMainMenu(wb.mainMenu())
	wb.Window.Resize(wb.prefs().windowSize())
	wb.installShortcuts()
	wb.Window.SetOnClosed(func() {
		wb.prefs().setWindowSize(wb.Window.Canvas().Size())
		wb.Close()
	})

	seed := wb.prefs().defaultSeed()
	if o.Seed != nil {
		seed = *o.Seed
	}
	wb.samples.seed.SetText(strconv.FormatUint(seed, 10))
	if o.Samples != 0 {
		wb.samples.count.SetText(strconv.Itoa(o.Samples))
	}
	wb.samples.onSampled = o.OnSampled
	if o.Run != nil {
		if !slices.Contains(wb.run.generator.Options, o.Run.Generator) {
			wb.Window.Close()
			return nil, fmt.Errorf("unknown generator %q (one of %v)", o.Run.Generator, wb.run.generator.Options)
		}
		wb.run.generator.SetSelected(o.Run.Generator)
		wb.run.generations.SetText(strconv.Itoa(o.Run.Generations))
		wb.run.popSize.SetText(strconv.Itoa(o.Run.Population))
		wb.run.seed.SetText(strconv.FormatUint(seed, 10))
	}
	wb.run.onRunStopped = func(rec *RunRecord, state RunState, err error) {
		if wb.frontTab() == "expressive" && wb.expressive.source.Selected == sourceRun {
			wb.expressive.Load()
		}
		if o.OnRunStopped != nil {
			o.OnRunStopped(rec, state, err)
		}
	}

	names := problems.List()
	switch {
	case len(names) == 0:
		wb.problemErr = errors.New("no problems are registered in this build")
		wb.problemTitle.SetText("No problems")
		wb.samples.gallery.ShowMessage(wb.problemErr.Error())
	case o.Problem != "":
		wb.picker.setSelected(o.Problem)
	case !wb.picker.setSelected(DefaultProblem):
		wb.picker.setSelected(firstAvailable(names))
	}
	wb.started = true
	if o.SampleAtStart {
		wb.samples.Sample()
	}
	if err := wb.openAll(o.Open); err != nil {
		wb.Close()
		wb.Window.Close()
		return nil, err
	}
	if p, ok := wb.panels["birds"].(*birdsPanel); ok && o.BirdsFolder != "" {
		p.evaluateFolder(o.BirdsFolder)
	}
	if o.Tab != "" {
		wb.showTab(o.Tab)
	}
	return wb, nil
}

// Close stops background work (a running run is paused: its folder resumes later).
func (wb *Workbench) Close() {
	wb.samples.Cancel()
	wb.run.pause()
	for _, p := range wb.panels {
		if c, ok := p.(interface{ Cancel() }); ok {
			c.Cancel()
		}
	}
}

// onProblemChanged registers f to be called (on the UI goroutine) whenever another problem is
// selected; p is nil when it could not be made.
func (wb *Workbench) onProblemChanged(f func(name string, p problems.Problem)) {
	wb.listeners = append(wb.listeners, f)
}

// currentProblem returns the selected problem, or why there is none.
func (wb *Workbench) currentProblem() (string, problems.Problem, error) {
	if wb.problemErr != nil {
		return wb.problemName, nil, wb.problemErr
	}
	if wb.problem == nil {
		return "", nil, errors.New("select a problem first")
	}
	return wb.problemName, wb.problem, nil
}

// selectProblem makes name the current problem, shows its description and spaces and, once
// the window is built, samples it. A problem that cannot be made is reported in the window.
func (wb *Workbench) selectProblem(name string) error {
	if wb.picker.Selected() == name {
		return wb.problemErr
	}
	if !wb.picker.setSelected(name) { // the picker calls activate
		err := fmt.Errorf("unknown problem %q", name)
		wb.samples.showError(err)
		return err
	}
	return wb.problemErr
}

// activate switches to a problem the picker has just selected.
func (wb *Workbench) activate(name string) {
	p, err := makeProblem(name)
	wb.problemName, wb.problem, wb.problemErr = name, p, err
	wb.showProblem(name, p, err)
	for _, f := range wb.listeners {
		f(name, p)
	}
	if err != nil {
		wb.samples.gallery.ShowMessage(err.Error())
		wb.offerData(name, err) // missing data files: "Get the data…" / "Import a folder…"
	}
	switch {
	case wb.started:
		wb.samples.Sample() // reports err too, to the banner and OnSampled
	case err != nil:
		wb.samples.showError(err)
	default:
		wb.samples.hideError()
	}
}

func firstAvailable(names []string) string {
	for _, n := range names {
		if problems.Unavailable(n) == nil {
			return n
		}
	}
	return names[0]
}

func makeProblem(name string) (p problems.Problem, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("%s: %v", name, r)
		}
	}()
	return problems.Make(name)
}

func (wb *Workbench) showProblem(name string, p problems.Problem, err error) {
	desc, content, control := "", "", ""
	if err != nil {
		desc = err.Error()
	} else {
		desc = "No description."
		if d, ok := p.(problems.Describer); ok && d.Description() != "" {
			desc = d.Description()
		}
		content, control = describeSpace(p.ContentSpace()), describeSpace(p.ControlSpace())
	}
	wb.problemTitle.SetText(name)
	wb.description.SetText(desc)
	wb.contentSpace.SetText(content)
	wb.controlSpace.SetText(control)
	// The texts changed height: lay the column out again (Fyne does not re-layout a parent
	// when a child's minimum size changes) and show its top.
	wb.details.Refresh()
	wb.details.ScrollToTop()
}

func (wb *Workbench) sidePanel() fyne.CanvasObject {
	logo := canvas.NewImageFromImage(assets.Sprite("player"))
	logo.ScaleMode = canvas.ImageScalePixels
	logo.FillMode = canvas.ImageFillContain
	logo.SetMinSize(fyne.NewSize(32, 32))
	title := widget.NewLabel("PCG Workbench")
	title.SizeName = theme.SizeNameHeadingText
	title.TextStyle = fyne.TextStyle{Bold: true}
	head := container.NewBorder(nil, nil, logo, nil, title)

	wb.problemTitle = widget.NewLabel("")
	wb.problemTitle.SizeName = theme.SizeNameSubHeadingText
	wb.problemTitle.TextStyle = fyne.TextStyle{Bold: true}
	wb.description = widget.NewLabel("")
	wb.description.Wrapping = fyne.TextWrapWord
	wb.contentSpace = widget.NewLabel("")
	wb.contentSpace.Wrapping = fyne.TextWrapWord
	wb.contentSpace.TextStyle = fyne.TextStyle{Monospace: true}
	wb.controlSpace = widget.NewLabel("")
	wb.controlSpace.Wrapping = fyne.TextWrapWord
	wb.controlSpace.TextStyle = fyne.TextStyle{Monospace: true}
	wb.details = container.NewVScroll(widgets.WrappingVBox(
		wb.problemTitle, wb.description,
		sectionTitle("CONTENT SPACE"), wb.contentSpace,
		sectionTitle("CONTROL SPACE"), wb.controlSpace,
		sectionTitle("TARGET CONTROL"), wb.controls.Content(),
	))

	problemsBox := container.NewBorder(sectionTitle("PROBLEMS"), nil, nil, nil, wb.picker.root)
	body := container.NewVSplit(problemsBox, wb.details)
	body.Offset = 0.6 // ten problems or more are listed at the default size
	return container.NewBorder(container.NewVBox(head, widget.NewSeparator()), nil, nil, nil, body)
}

// sectionTitle is a small muted heading in the side panel.
func sectionTitle(text string) fyne.CanvasObject {
	t := canvas.NewText(text, colorMuted())
	t.TextStyle = fyne.TextStyle{Bold: true}
	t.TextSize = theme.Size(theme.SizeNameCaptionText)
	return container.NewPadded(t)
}

// outputDir is where new runs go: the session's override, else the settings'.
func (wb *Workbench) outputDir() string {
	if wb.outputDirOverride != "" {
		return wb.outputDirOverride
	}
	return wb.prefs().outputDir()
}

// WaitIdle blocks until the background work of every panel (sampling, a run in flight, the
// comparison, the expressive range, the editor's evaluation, the extension tabs) is done and
// shown, at most timeout. It must not be called on the UI goroutine.
func (wb *Workbench) WaitIdle(timeout time.Duration) error { return wb.waitIdle(timeout, false) }

// waitIdle is WaitIdle; with exceptRun it does not wait for the Run tab's run.
func (wb *Workbench) waitIdle(timeout time.Duration, exceptRun bool) error {
	deadline := time.Now().Add(timeout)
	waits := []func(time.Duration) error{wb.samples.wait}
	for _, t := range tabTable {
		if exceptRun && t.name == "run" {
			continue
		}
		if w, ok := wb.panels[t.name].(interface{ wait(time.Duration) error }); ok && t.name != "sample" {
			waits = append(waits, w.wait)
		}
	}
	for _, w := range waits {
		if err := w(time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}
