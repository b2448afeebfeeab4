package app

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/assets"
	"pcgwb/problems"
)

// DefaultProblem is selected at start when it is registered.
const DefaultProblem = "zelda-v0"

// Workbench is the main window: the problem picker, its description and its target control on
// the left, and the panels (tabs) on the right: Sample, Run, Editor, Compare and Expressive
// range. Each panel is a struct holding its widgets, built from the workbench's current
// problem and told about problem changes through OnProblemChanged.
type Workbench struct {
	App    fyne.App
	Window fyne.Window

	// extensions are the panels of the self-registered tabs, by title.
	extensions map[string]panel

	Picker       *ProblemPicker
	ProblemTitle *widget.Label
	Description  *widget.Label
	ContentSpace *widget.Label
	ControlSpace *widget.Label
	// Controls is the target control (sliders fitted to the control space).
	Controls *ControlEditor
	Tabs     *container.AppTabs
	// StatusBar is the line at the bottom of the window (saved files, hints).
	StatusBar *widget.Label

	// The Sample tab; its widgets (SampleButton, Gallery, Summary, …) are the workbench's.
	*SamplePanel
	Run        *RunPanel
	Editor     *EditorPanel
	Compare    *ComparePanel
	Expressive *ExpressivePanel
	// Detail is the level dialog opened last (nil before any).
	Detail *DetailView

	// OutputDirOverride, when set, is where this session's runs go instead of the settings'
	// output folder (the --out flag).
	OutputDirOverride string

	sampleTab, runTab, editorTab, compareTab, expressiveTab *container.TabItem
	settingsForm                                            *SettingsForm

	problemName string
	problem     problems.Problem
	problemErr  error
	listeners   []func(name string, p problems.Problem)
	started     bool // construction is over: picking a problem now samples it
	details     *container.Scroll
}

// New builds the main window on a (it does not show it). It applies the workbench theme to
// the app and selects DefaultProblem, or else the first problem this machine can make.
func New(a fyne.App) *Workbench {
	wb := &Workbench{App: a}
	a.Settings().SetTheme(NewThemeNamed(wb.Settings().ThemeName()))
	wb.Window = a.NewWindow("PCG Workbench")
	wb.Window.SetIcon(AppIcon())

	wb.StatusBar = widget.NewLabel("F1 lists the keyboard shortcuts.")
	wb.StatusBar.SizeName = theme.SizeNameCaptionText
	wb.StatusBar.Truncation = fyne.TextTruncateEllipsis
	wb.Controls = newControlEditor()
	wb.SamplePanel = newSamplePanel(wb, wb.CurrentProblem)
	wb.SamplePanel.Seed.SetText(strconv.FormatUint(wb.Settings().DefaultSeed(), 10))
	wb.SamplePanel.fixedControl = func() problems.Control {
		if wb.Controls.UseForSamples.Checked {
			return wb.Controls.Control()
		}
		return nil
	}
	wb.SamplePanel.onOpen = func(set *SampleSet, i int) {
		_, p, err := wb.CurrentProblem()
		if err != nil || set.Problem != wb.problemName {
			return
		}
		for k, t := range wb.Gallery.Thumbs() {
			t.SetSelected(k == i)
		}
		wb.ShowDetail(set.Problem, p, MembersOfSample(set)[i], set.Images[i])
	}
	wb.SamplePanel.afterApply = func() {
		if wb.Tabs.Selected() == wb.expressiveTab && wb.Expressive.Source.Selected == sourceSample {
			wb.Expressive.Load()
		}
	}
	wb.Run = newRunPanel(wb)
	wb.Editor = newEditorPanel(wb)
	wb.Compare = newComparePanel(wb)
	wb.Expressive = newExpressivePanel(wb)
	wb.Controls.OnChanged = wb.Editor.controlChanged
	wb.Run.OnRunStopped = func(*RunRecord, RunState, error) {
		if wb.Tabs.Selected() == wb.expressiveTab && wb.Expressive.Source.Selected == sourceRun {
			wb.Expressive.Load()
		}
	}
	wb.Picker = newProblemPicker(problems.List(), wb, wb.activate)
	wb.sampleTab = container.NewTabItemWithIcon("Sample", theme.GridIcon(), wb.SamplePanel.Content())
	wb.runTab = container.NewTabItemWithIcon("Run", theme.MediaPlayIcon(), wb.Run.Content())
	wb.editorTab = container.NewTabItemWithIcon("Editor", theme.DocumentCreateIcon(), wb.Editor.Content())
	wb.compareTab = container.NewTabItemWithIcon("Compare", theme.ListIcon(), wb.Compare.Content())
	wb.expressiveTab = container.NewTabItemWithIcon("Range", theme.ViewFullScreenIcon(), wb.Expressive.Content())
	wb.Tabs = container.NewAppTabs(wb.sampleTab, wb.runTab, wb.editorTab, wb.compareTab, wb.expressiveTab)
	wb.Tabs.OnSelected = wb.tabSelected
	wb.extensions = map[string]panel{}
	for _, ext := range extensions {
		p := ext.build(wb)
		wb.extensions[ext.title] = p
		// Scrolling keeps a tall panel from growing the window past a 720-pixel screen.
		wb.AddPanel(ext.title, ext.icon(), container.NewVScroll(p.Content()))
	}
	wb.OnProblemChanged(func(name string, p problems.Problem) {
		wb.Controls.SetProblem(p)
		wb.Run.problemChanged(name, p)
		wb.Editor.problemChanged(name, p)
	})

	split := container.NewHSplit(wb.sidePanel(), wb.Tabs)
	split.Offset = 0.22
	wb.Window.SetContent(container.NewBorder(nil, container.NewPadded(wb.StatusBar), nil, nil, split))
	wb.Window.SetMainMenu(wb.mainMenu())
	wb.Window.Resize(fyne.NewSize(1280, 720))
	wb.installShortcuts()
	wb.Window.SetOnClosed(wb.Close)

	if names := problems.List(); len(names) == 0 {
		wb.problemErr = errors.New("no problems are registered in this build")
		wb.ProblemTitle.SetText("No problems")
		wb.Gallery.ShowMessage(wb.problemErr.Error())
	} else if !wb.Picker.SetSelected(DefaultProblem) {
		wb.Picker.SetSelected(firstAvailable(names))
	}
	wb.started = true
	return wb
}

// Close stops background work (a running run is paused: its folder resumes later).
func (wb *Workbench) Close() {
	wb.SamplePanel.Cancel()
	wb.Run.Pause()
	for _, p := range wb.extensions {
		if c, ok := p.(interface{ Cancel() }); ok {
			c.Cancel()
		}
	}
}

// ShowTab brings a tab to the front.
func (wb *Workbench) ShowTab(t *container.TabItem) {
	wb.Tabs.Select(t)
}

// tabSelected loads what a tab shows when it comes to the front.
func (wb *Workbench) tabSelected(t *container.TabItem) {
	// An extension panel that shows data from other tabs refreshes it when it comes to the front.
	if p, ok := wb.extensions[t.Text].(interface{ shown() }); ok {
		p.shown()
	}
	if t == wb.editorTab {
		wb.Editor.loadPending()
	}
	if t == wb.expressiveTab {
		wb.Expressive.UpdateSources()
		if wb.Expressive.Source.Selected == "" {
			src := sourceSample
			if rec := wb.Run.Record(); rec != nil && rec.Dir != "" {
				src = sourceRun
			}
			wb.Expressive.Source.SetSelected(src) // loads
		} else {
			wb.Expressive.Load()
		}
	}
}

// extension is a tab contributed by a file of its own (Science Birds, LLM, games): it registers
// in init, so adding a panel needs no edit here.
type extension struct {
	title string
	icon  func() fyne.Resource
	build func(wb *Workbench) panel
}

// panel is what an extension tab builds. A panel that also has Cancel() is cancelled when the
// window closes, and one with Wait(timeout) is waited for by WaitIdle.
type panel interface {
	Content() fyne.CanvasObject
}

var extensions []extension

// registerPanel adds a tab, after the built-in ones, to every workbench made from now on.
func registerPanel(title string, icon func() fyne.Resource, build func(wb *Workbench) panel) {
	extensions = append(extensions, extension{title, icon, build})
}

// extensionPanel returns the panel a registered tab built for this workbench (nil if none).
func (wb *Workbench) extensionPanel(title string) panel { return wb.extensions[title] }

// AddPanel adds a tab to the right-hand side.
func (wb *Workbench) AddPanel(title string, icon fyne.Resource, content fyne.CanvasObject) *container.TabItem {
	item := container.NewTabItemWithIcon(title, icon, content)
	wb.Tabs.Append(item)
	return item
}

// OnProblemChanged registers f to be called (on the UI goroutine) whenever another problem is
// selected; p is nil when it could not be made.
func (wb *Workbench) OnProblemChanged(f func(name string, p problems.Problem)) {
	wb.listeners = append(wb.listeners, f)
}

// CurrentProblem returns the selected problem, or why there is none.
func (wb *Workbench) CurrentProblem() (string, problems.Problem, error) {
	if wb.problemErr != nil {
		return wb.problemName, nil, wb.problemErr
	}
	if wb.problem == nil {
		return "", nil, errors.New("select a problem first")
	}
	return wb.problemName, wb.problem, nil
}

// SelectProblem makes name the current problem, shows its description and spaces and, once
// the window is built, samples it. A problem that cannot be made is reported in the window.
func (wb *Workbench) SelectProblem(name string) error {
	if wb.Picker.Selected() == name {
		return wb.problemErr
	}
	if !wb.Picker.SetSelected(name) { // the picker calls activate
		err := fmt.Errorf("unknown problem %q", name)
		wb.ShowError(err)
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
		wb.Gallery.ShowMessage(err.Error())
	}
	switch {
	case wb.started:
		wb.Sample() // reports err too, to the banner and OnSampled
	case err != nil:
		wb.ShowError(err)
	default:
		wb.HideError()
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
		content, control = DescribeSpace(p.ContentSpace()), DescribeSpace(p.ControlSpace())
	}
	wb.ProblemTitle.SetText(name)
	wb.Description.SetText(desc)
	wb.ContentSpace.SetText(content)
	wb.ControlSpace.SetText(control)
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

	wb.ProblemTitle = widget.NewLabel("")
	wb.ProblemTitle.SizeName = theme.SizeNameSubHeadingText
	wb.ProblemTitle.TextStyle = fyne.TextStyle{Bold: true}
	wb.Description = widget.NewLabel("")
	wb.Description.Wrapping = fyne.TextWrapWord
	wb.ContentSpace = widget.NewLabel("")
	wb.ContentSpace.Wrapping = fyne.TextWrapWord
	wb.ContentSpace.TextStyle = fyne.TextStyle{Monospace: true}
	wb.ControlSpace = widget.NewLabel("")
	wb.ControlSpace.Wrapping = fyne.TextWrapWord
	wb.ControlSpace.TextStyle = fyne.TextStyle{Monospace: true}
	wb.details = container.NewVScroll(wrappingVBox(
		wb.ProblemTitle, wb.Description,
		sectionTitle("CONTENT SPACE"), wb.ContentSpace,
		sectionTitle("CONTROL SPACE"), wb.ControlSpace,
		sectionTitle("TARGET CONTROL"), wb.Controls.Content(),
	))

	problemsBox := container.NewBorder(sectionTitle("PROBLEMS"), nil, nil, nil, wb.Picker.root)
	body := container.NewVSplit(problemsBox, wb.details)
	body.Offset = 0.42
	return container.NewBorder(container.NewVBox(head, widget.NewSeparator()), nil, nil, nil, body)
}

// sectionTitle is a small muted heading in the side panel.
func sectionTitle(text string) fyne.CanvasObject {
	t := canvas.NewText(text, colorMuted)
	t.TextStyle = fyne.TextStyle{Bold: true}
	t.TextSize = theme.Size(theme.SizeNameCaptionText)
	return container.NewPadded(t)
}

func ctrl(k fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

var (
	shortcutSample   = ctrl(fyne.KeyR)
	shortcutNewSeed  = ctrl(fyne.KeyN)
	shortcutFilter   = ctrl(fyne.KeyF)
	shortcutStart    = ctrl(fyne.KeyReturn)
	shortcutPause    = ctrl(fyne.KeyP)
	shortcutCancel   = ctrl(fyne.KeyPeriod)
	shortcutOpen     = ctrl(fyne.KeyO)
	shortcutSave     = ctrl(fyne.KeyS)
	shortcutExport   = ctrl(fyne.KeyE)
	shortcutSettings = ctrl(fyne.KeyComma)
	shortcutUndo     = ctrl(fyne.KeyZ)
	shortcutTabs     = []*desktop.CustomShortcut{ctrl(fyne.Key1), ctrl(fyne.Key2), ctrl(fyne.Key3), ctrl(fyne.Key4), ctrl(fyne.Key5)}
)

// Shortcuts lists the keyboard shortcuts for the help dialog.
var Shortcuts = [][2]string{
	{"Ctrl+R, F5", "sample the selected problem"},
	{"Ctrl+N", "sample with a new seed"},
	{"Ctrl+F", "filter the problem list"},
	{"Ctrl+Enter", "start or resume the run"},
	{"Ctrl+P", "pause the run"},
	{"Ctrl+.", "cancel the run"},
	{"Ctrl+1 … Ctrl+5", "Sample, Run, Editor, Compare, Expressive range"},
	{"Ctrl+O", "open a run folder"},
	{"Ctrl+S", "save a copy of the run folder"},
	{"Ctrl+E", "export the levels of the gallery in front"},
	{"Ctrl+Z, Backspace", "undo in the editor"},
	{"1 … 9", "choose the editor's tile"},
	{"Ctrl+,", "settings"},
	{"F1", "this list"},
}

func (wb *Workbench) installShortcuts() {
	c := wb.Window.Canvas()
	all := []*desktop.CustomShortcut{shortcutSample, shortcutNewSeed, shortcutFilter, shortcutStart, shortcutPause,
		shortcutCancel, shortcutOpen, shortcutSave, shortcutExport, shortcutSettings, shortcutUndo}
	for _, s := range append(all, shortcutTabs...) {
		c.AddShortcut(s, func(s fyne.Shortcut) { wb.handleShortcut(s) })
	}
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { wb.handleKey(k) })
}

// handleShortcut runs the workbench's shortcuts (see Shortcuts).
func (wb *Workbench) handleShortcut(s fyne.Shortcut) bool {
	switch s.ShortcutName() {
	case shortcutSample.ShortcutName():
		wb.Sample()
	case shortcutNewSeed.ShortcutName():
		wb.NewSeed()
	case shortcutFilter.ShortcutName():
		wb.Window.Canvas().Focus(wb.Picker.Filter)
	case shortcutStart.ShortcutName():
		wb.ShowTab(wb.runTab)
		wb.Run.Start()
	case shortcutPause.ShortcutName():
		wb.Run.Pause()
	case shortcutCancel.ShortcutName():
		wb.Run.Cancel()
	case shortcutOpen.ShortcutName():
		wb.ShowOpenFolder(false)
	case shortcutSave.ShortcutName():
		wb.ShowSaveRunAs()
	case shortcutExport.ShortcutName():
		wb.ShowExport(wb.frontGallery())
	case shortcutSettings.ShortcutName():
		wb.ShowSettings()
	case shortcutUndo.ShortcutName():
		if wb.Tabs.Selected() != wb.editorTab {
			return false // an entry's own undo
		}
		wb.Editor.Undo()
	default:
		for i, t := range shortcutTabs {
			if s.ShortcutName() == t.ShortcutName() {
				wb.Tabs.SelectIndex(i)
				return true
			}
		}
		return false
	}
	return true
}

// handleKey runs F5 (sample, as "refresh" in a browser), F1 (shortcuts) and, in the editor,
// the palette keys.
func (wb *Workbench) handleKey(k *fyne.KeyEvent) bool {
	switch k.Name {
	case fyne.KeyF5:
		wb.Sample()
		return true
	case fyne.KeyF1:
		wb.ShowShortcuts()
		return true
	}
	if wb.Tabs != nil && wb.Tabs.Selected() == wb.editorTab {
		return wb.Editor.handleKey(k)
	}
	return false
}

// frontGallery is the gallery of the tab in front (what Export writes).
func (wb *Workbench) frontGallery() *PopulationView {
	switch wb.Tabs.Selected() {
	case wb.runTab:
		return wb.Run.Population
	case wb.expressiveTab:
		return wb.Expressive.Cell
	case wb.sampleTab:
		if set := wb.Last(); set != nil {
			if _, p, err := wb.CurrentProblem(); err == nil && set.Problem == wb.problemName {
				pv := NewPopulationView("", true)
				pv.name, pv.problem, pv.members, pv.images = set.Problem, p, MembersOfSample(set), set.Images
				return pv
			}
		}
	}
	return nil
}

// ShowShortcuts opens the list of keyboard shortcuts.
func (wb *Workbench) ShowShortcuts() {
	rows := container.NewGridWithColumns(2)
	for _, s := range Shortcuts {
		k := widget.NewLabel(s[0])
		k.TextStyle = fyne.TextStyle{Bold: true, Monospace: true}
		rows.Add(k)
		rows.Add(widget.NewLabel(s[1]))
	}
	dialog.ShowCustom("Keyboard shortcuts", "Close", rows, wb.Window)
}

func (wb *Workbench) mainMenu() *fyne.MainMenu {
	item := func(label string, s fyne.Shortcut, f func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, f)
		it.Shortcut = s
		return it
	}
	file := fyne.NewMenu("File",
		item("Open run folder…", shortcutOpen, func() { wb.ShowOpenFolder(false) }),
		fyne.NewMenuItem("Add run folder to Compare…", func() { wb.ShowOpenFolder(true) }),
		item("Save run folder as…", shortcutSave, wb.ShowSaveRunAs),
		item("Export levels…", shortcutExport, func() { wb.ShowExport(wb.frontGallery()) }),
		fyne.NewMenuItemSeparator(),
		item("Settings…", shortcutSettings, func() { wb.ShowSettings() }),
	)
	run := fyne.NewMenu("Run",
		item("Sample", shortcutSample, wb.Sample),
		item("Sample with a new seed", shortcutNewSeed, wb.NewSeed),
		fyne.NewMenuItemSeparator(),
		item("Start / resume run", shortcutStart, func() { wb.ShowTab(wb.runTab); wb.Run.Start() }),
		item("Pause run", shortcutPause, wb.Run.Pause),
		item("Cancel run", shortcutCancel, wb.Run.Cancel),
	)
	var views []*fyne.MenuItem
	for i, t := range []string{"Sample", "Run", "Editor", "Compare", "Expressive range"} {
		i := i
		views = append(views, item(t, shortcutTabs[i], func() { wb.Tabs.SelectIndex(i) }))
	}
	help := fyne.NewMenu("Help", fyne.NewMenuItem("Keyboard shortcuts (F1)", wb.ShowShortcuts))
	return fyne.NewMainMenu(file, run, fyne.NewMenu("View", views...), help)
}

// AppIcon is the player sprite, the workbench's mark.
func AppIcon() fyne.Resource {
	var buf bytes.Buffer
	if err := png.Encode(&buf, assets.Sprite("player")); err != nil {
		return theme.FyneLogo()
	}
	return fyne.NewStaticResource("pcg-workbench.png", buf.Bytes())
}

// ShowTabNamed brings a tab to the front by name (sample, run, editor, compare, expressive);
// it reports false for an unknown name.
func (wb *Workbench) ShowTabNamed(name string) bool {
	tabs := map[string]*container.TabItem{"sample": wb.sampleTab, "run": wb.runTab, "editor": wb.editorTab,
		"compare": wb.compareTab, "expressive": wb.expressiveTab}
	t, ok := tabs[strings.ToLower(name)]
	if !ok { // an extension tab, by its title: birds, games, llm
		for _, item := range wb.Tabs.Items {
			if _, ext := wb.extensions[item.Text]; ext && strings.EqualFold(item.Text, name) {
				t, ok = item, true
			}
		}
	}
	if ok {
		wb.ShowTab(t)
	}
	return ok
}

// outputDir is where new runs go: the session's override, else the settings'.
func (wb *Workbench) outputDir() string {
	if wb.OutputDirOverride != "" {
		return wb.OutputDirOverride
	}
	return wb.Settings().OutputDir()
}

// WaitIdle blocks until the background work of every panel (sampling, a run in flight, the
// comparison, the expressive range, the editor's evaluation) is done and shown, at most
// timeout. It must not be called on the UI goroutine.
func (wb *Workbench) WaitIdle(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	waits := []func(time.Duration) error{wb.SamplePanel.Wait, wb.Run.Wait, wb.Compare.Wait, wb.Expressive.Wait, wb.Editor.Wait}
	for _, p := range wb.extensions {
		if w, ok := p.(interface{ Wait(time.Duration) error }); ok {
			waits = append(waits, w.Wait)
		}
	}
	for _, w := range waits {
		if err := w(time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}
