package app

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/assets"
	"pcgwb/problems"
)

// DefaultProblem is selected at start when it is registered.
const DefaultProblem = "zelda-v0"

// Workbench is the main window: the problem picker and its description on the left, and the
// panels (tabs) on the right. Panels added later (run, compare, editor) follow the Sample
// panel's pattern: a struct holding its widgets, built from the workbench's current problem,
// added with AddPanel and told about problem changes through OnProblemChanged.
type Workbench struct {
	App    fyne.App
	Window fyne.Window

	Picker       *ProblemPicker
	ProblemTitle *widget.Label
	Description  *widget.Label
	ContentSpace *widget.Label
	ControlSpace *widget.Label
	Tabs         *container.AppTabs

	// The Sample tab; its widgets (SampleButton, Gallery, Summary, …) are the workbench's.
	*SamplePanel

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
	a.Settings().SetTheme(NewTheme())
	wb := &Workbench{App: a}
	wb.Window = a.NewWindow("PCG Workbench")
	wb.Window.SetIcon(AppIcon())

	wb.SamplePanel = newSamplePanel(wb, wb.CurrentProblem)
	wb.Picker = newProblemPicker(problems.List(), wb, wb.activate)
	wb.Tabs = container.NewAppTabs(container.NewTabItemWithIcon("Sample", theme.GridIcon(), wb.SamplePanel.Content()))

	split := container.NewHSplit(wb.sidePanel(), wb.Tabs)
	split.Offset = 0.24
	wb.Window.SetContent(split)
	wb.Window.Resize(fyne.NewSize(1280, 720))
	wb.installShortcuts()
	wb.Window.SetOnClosed(wb.SamplePanel.Cancel)

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

var (
	shortcutSample  = &desktop.CustomShortcut{KeyName: fyne.KeyR, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutNewSeed = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFilter  = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
)

func (wb *Workbench) installShortcuts() {
	c := wb.Window.Canvas()
	for _, s := range []*desktop.CustomShortcut{shortcutSample, shortcutNewSeed, shortcutFilter} {
		c.AddShortcut(s, func(s fyne.Shortcut) { wb.handleShortcut(s) })
	}
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { wb.handleKey(k) })
}

// handleShortcut runs the workbench's shortcuts: Ctrl+R samples, Ctrl+N samples with a new
// seed, Ctrl+F goes to the problem filter.
func (wb *Workbench) handleShortcut(s fyne.Shortcut) bool {
	switch s.ShortcutName() {
	case shortcutSample.ShortcutName():
		wb.Sample()
	case shortcutNewSeed.ShortcutName():
		wb.NewSeed()
	case shortcutFilter.ShortcutName():
		wb.Window.Canvas().Focus(wb.Picker.Filter)
	default:
		return false
	}
	return true
}

// handleKey runs F5 (sample, as "refresh" in a browser).
func (wb *Workbench) handleKey(k *fyne.KeyEvent) bool {
	if k.Name == fyne.KeyF5 {
		wb.Sample()
		return true
	}
	return false
}

// AppIcon is the player sprite, the workbench's mark.
func AppIcon() fyne.Resource {
	var buf bytes.Buffer
	if err := png.Encode(&buf, assets.Sprite("player")); err != nil {
		return theme.FyneLogo()
	}
	return fyne.NewStaticResource("pcg-workbench.png", buf.Bytes())
}
