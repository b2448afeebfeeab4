package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"

	"pcgwb/app/widgets"
	"pcgwb/problems"
)

// panel is what a tab shows. A panel that also has Cancel() is cancelled when the window
// closes, one with Wait(timeout) is waited for by WaitIdle, and one with shown() is told when
// its tab comes to the front.
type panel interface {
	Content() fyne.CanvasObject
}

// tabSpec is one tab of the window.
type tabSpec struct {
	name  string // for Options.Tab, ShowTab and --tab: lower case
	title string
	icon  func() fyne.Resource
	build func(wb *Workbench) panel
	// scroll puts the panel in a scroll (both directions), which keeps a tall or wide panel
	// from growing the window past a 1024×700 screen.
	scroll bool
}

// tabTable is the window's tabs, in order: the one place that lists them. Ctrl+1… and the View
// menu follow it. (It is filled in init: the panels' builders refer back to it.)
var tabTable []tabSpec

func init() {
	tabTable = []tabSpec{
		{name: "sample", title: "Sample", icon: theme.GridIcon, build: func(wb *Workbench) panel { return wb.samples }, scroll: true},
		{name: "run", title: "Run", icon: theme.MediaPlayIcon, build: func(wb *Workbench) panel { return wb.run }, scroll: true},
		{name: "editor", title: "Editor", icon: theme.DocumentCreateIcon, build: func(wb *Workbench) panel { return wb.editor }, scroll: true},
		{name: "compare", title: "Compare", icon: theme.ListIcon, build: func(wb *Workbench) panel { return wb.compare }, scroll: true},
		{name: "expressive", title: "Range", icon: theme.ViewFullScreenIcon, build: func(wb *Workbench) panel { return wb.expressive }, scroll: true},
		{name: "birds", title: "Birds", icon: theme.MediaPlayIcon, build: func(wb *Workbench) panel { return newBirdsPanel(wb) }, scroll: true},
		{name: "games", title: "Games", icon: theme.ComputerIcon, build: func(wb *Workbench) panel { return newDuelPanel(wb) }, scroll: true},
		{name: "llm", title: "LLM", icon: theme.MailComposeIcon, build: func(wb *Workbench) panel { return newLLMPanel(wb, wb.compare) }, scroll: true},
	}
}

// TabNames lists the tabs' names in order (Options.Tab, ShowTab, --tab).
func TabNames() []string {
	names := make([]string, len(tabTable))
	for i, t := range tabTable {
		names[i] = t.name
	}
	return names
}

// tabNamed is the index of a tab in tabTable by its name or title (any case), or -1.
func tabNamed(name string) int {
	for i, t := range tabTable {
		if strings.EqualFold(name, t.name) || strings.EqualFold(name, t.title) {
			return i
		}
	}
	return -1
}

// buildTabs makes every panel and its tab. The built-in panels come first: the extension tabs
// reach them through wb.
func (wb *Workbench) buildTabs() {
	wb.samples = newSamplePanel(wb, wb.currentProblem)
	wb.samples.fixedControl = func() problems.Control {
		if wb.controls.useForSamples.Checked {
			return wb.controls.Control()
		}
		return nil
	}
	wb.samples.onOpen = wb.openSampled
	wb.samples.afterApply = func() {
		if wb.frontTab() == "expressive" && wb.expressive.source.Selected == sourceSample {
			wb.expressive.Load()
		}
	}
	wb.run = newRunPanel(wb, wb.llmEndpoint)
	wb.editor = newEditorPanel(wb)
	wb.compare = newComparePanel(wb, wb.run)
	wb.expressive = newExpressivePanel(wb, wb.run, wb.samples, wb.compare)

	wb.panels = map[string]panel{}
	wb.tabItems = map[string]*container.TabItem{}
	wb.tabs = container.NewAppTabs()
	for _, t := range tabTable {
		p := t.build(wb)
		content := p.Content()
		if tp, ok := p.(interface {
			tips() map[fyne.CanvasObject]string
		}); ok {
			widgets.TipAll(content, tp.tips()) // the explanations of its controls, beside each panel
		}
		if t.scroll {
			// Both directions: a wide panel (the LLM tab's form, the Games tab's board) must
			// not widen the window past a 1024-pixel screen either.
			content = container.NewScroll(content)
		}
		item := container.NewTabItemWithIcon(t.title, t.icon(), content)
		wb.panels[t.name], wb.tabItems[t.name] = p, item
		wb.tabs.Append(item)
	}
	wb.tabs.OnSelected = func(*container.TabItem) { wb.tabSelected(wb.frontTab()) }
}

// fitTabs lays out the tabs and drops their icons when the tab bar would not hold every
// title with its icon (under the Projector look a 1024-pixel window hid Games and LLM behind
// the overflow button), and gives them back when the window is wide again.
type fitTabs struct {
	wb    *Workbench
	plain bool // the icons are dropped
}

func (l *fitTabs) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	if plain := size.Width < tabBarWidth(true); plain != l.plain {
		l.plain = plain
		for i, t := range tabTable {
			if plain {
				l.wb.tabs.Items[i].Icon = nil
			} else {
				l.wb.tabs.Items[i].Icon = t.icon()
			}
		}
		l.wb.tabs.Refresh()
	}
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize is a stack's: the largest of its objects'.
func (l *fitTabs) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return layout.NewStackLayout().MinSize(objects)
}

// tabBarWidth is the width every tab's title needs, with its icon or without: Fyne's tab button
// is its label (the text and two inner paddings) and, with an icon, the icon and a padding,
// inside two inner paddings; the bar keeps room for its overflow button.
func tabBarWidth(icons bool) float32 {
	pad, inner := theme.Padding(), theme.InnerPadding()
	w := theme.IconInlineSize() + 2*inner
	for _, t := range tabTable {
		w += fyne.MeasureText(t.title, theme.TextSize(), fyne.TextStyle{}).Width + 4*inner
		if icons {
			w += theme.IconInlineSize() + pad
		}
	}
	return w
}

// openSampled opens thumbnail i of the Sample tab's set in the detail dialog.
func (wb *Workbench) openSampled(set *SampleSet, i int) {
	_, p, err := wb.currentProblem()
	if err != nil || set.problem != wb.problemName {
		return
	}
	for k, t := range wb.samples.gallery.Thumbs() {
		t.SetSelected(k == i)
	}
	wb.showDetail(set.problem, p, membersOfSample(set)[i], set.images[i])
}

// showTab brings a tab to the front by name or title, any case (see TabNames); it reports
// false for an unknown name.
func (wb *Workbench) showTab(name string) bool {
	i := tabNamed(name)
	if i < 0 {
		return false
	}
	wb.tabs.Select(wb.tabItems[tabTable[i].name])
	return true
}

// frontTab is the name of the tab in front.
func (wb *Workbench) frontTab() string {
	if wb.tabs == nil {
		return ""
	}
	for name, item := range wb.tabItems {
		if item == wb.tabs.Selected() {
			return name
		}
	}
	return ""
}

// panelNamed returns the panel of a tab by name (nil if none).
func (wb *Workbench) panelNamed(name string) panel { return wb.panels[name] }

// extensionPanel returns the panel of a tab by its title (nil if none).
func (wb *Workbench) extensionPanel(title string) panel {
	if i := tabNamed(title); i >= 0 {
		return wb.panels[tabTable[i].name]
	}
	return nil
}

// tabSelected loads what a tab shows when it comes to the front.
func (wb *Workbench) tabSelected(name string) {
	// A panel that shows data from other tabs refreshes it when it comes to the front.
	if p, ok := wb.panels[name].(interface{ shown() }); ok {
		p.shown()
	}
	switch name {
	case "editor":
		wb.editor.loadPending()
	case "expressive":
		wb.expressive.updateSources()
		if wb.expressive.source.Selected == "" {
			src := sourceSample
			if rec := wb.run.Record(); rec != nil && rec.Dir != "" {
				src = sourceRun
			}
			wb.expressive.source.SetSelected(src) // loads
		} else {
			wb.expressive.Load()
		}
	}
}

// frontGallery is the gallery of the tab in front (what Export writes).
func (wb *Workbench) frontGallery() *populationView {
	switch wb.frontTab() {
	case "run":
		return wb.run.population
	case "expressive":
		return wb.expressive.cell
	case "sample":
		if set := wb.samples.Last(); set != nil {
			if _, p, err := wb.currentProblem(); err == nil && set.problem == wb.problemName {
				pv := newPopulationView(wb.ui, "", true)
				pv.name, pv.problem, pv.members, pv.images = set.problem, p, membersOfSample(set), set.images
				return pv
			}
		}
	}
	return nil
}
