package app

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
)

// compareNameWidth is the least width of a group's name in the table; longer names are
// shortened with an ellipsis unless the window has room to spare.
const compareNameWidth = 130

// compareHint is the status with no run to compare.
const compareHint = "Add two or more run folders (a sweep folder adds all its runs), or the run from the Run tab."

// galleryLimit is how many levels each compared run shows (its best ones).
const compareGalleryLimit = 24

// comparePanel is the Compare tab: runs side by side. Runs of the same problem, fitness and
// generator are one row over their seeds: a metrics table with means and 95% confidence
// intervals, both plots on shared axes, and each group's best run's final population.
type comparePanel struct {
	addButton, addCurrentButton, clearButton *widget.Button
	// playtestButton is "New playtest…" (compare_playtest.go).
	playtestButton *widget.Button
	status         *widget.Label
	// xAxis puts generations, evaluations or model calls on the plots' x axis, so runs can
	// be compared at equal budget.
	xAxis                     *widget.Select
	table                     *fyne.Container
	fitnessPlot, feasiblePlot *plotView
	galleries                 []*populationView
	// picker is the last list of runs found under a picked folder (compare_pick.go).
	picker *runPicker
	// people is the People section (playtests), Tabs switch between it and the runs.
	people *peopleSection
	// diff is the Differences section: two selected groups compared as `report --compare` does.
	diff        *diffSection
	tabs        *container.AppTabs
	runsBox     *fyne.Container
	galleryBox  *fyne.Container
	tableScroll *container.Scroll
	content     fyne.CanvasObject
	wb          *Workbench

	runs     []*RunRecord
	groups   []*CompareGroup
	problems map[string]problems.Problem
	loading  jobGroup
	// fromRun is the Run tab, whose run "Add current run" adds (window_links.go).
	fromRun runSource
}

func newComparePanel(wb *Workbench, run runSource) *comparePanel {
	cp := &comparePanel{wb: wb, problems: map[string]problems.Problem{}, fromRun: run}
	cp.addButton = widget.NewButtonWithIcon("Add run folder…", theme.FolderOpenIcon(), func() { wb.showOpenFolder(true) })
	cp.addCurrentButton = widget.NewButtonWithIcon("Add current run", theme.ContentAddIcon(), cp.addCurrentRun)
	cp.clearButton = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), cp.Clear)
	cp.playtestButton = widget.NewButtonWithIcon("New playtest…", theme.MediaPlayIcon(), cp.showNewPlaytest)
	cp.status = widget.NewLabel(compareHint)
	cp.status.Truncation = fyne.TextTruncateEllipsis
	cp.table = container.New(widgets.NewTableLayout(len(compareColumns())))
	cp.fitnessPlot = newPlotView(cp.wb.ui)
	cp.feasiblePlot = newPlotView(cp.wb.ui)
	// the table's swatches and the galleries' titles say which colour is which run
	cp.fitnessPlot.SetLegendVisible(false)
	cp.feasiblePlot.SetLegendVisible(false)
	cp.galleryBox = container.NewGridWithColumns(1)
	cp.xAxis = widget.NewSelect(xAxes(), func(string) { cp.drawPlots() })
	cp.xAxis.SetSelected(axisName(experiment.XGeneration))
	tools := container.NewBorder(nil, nil, container.NewHBox(cp.addButton, cp.addCurrentButton, cp.clearButton, cp.playtestButton),
		container.NewHBox(widget.NewLabel("x axis"), cp.xAxis), cp.status)
	table := container.NewScroll(cp.table) // sideways too: a narrow window must not widen
	cp.tableScroll = table
	plots := container.NewGridWithRows(2, cp.fitnessPlot, cp.feasiblePlot)
	// the galleries scroll sideways rather than widen the window beyond the screen
	split := container.NewHSplit(plots, container.NewHScroll(cp.galleryBox))
	split.Offset = 0.36
	cp.runsBox = container.NewBorder(container.NewVBox(tools, table), nil, nil, nil, split)
	cp.people = newPeopleSection(wb)
	cp.diff = newDiffSection()
	cp.tabs = container.NewAppTabs(container.NewTabItem("Runs", cp.runsBox), container.NewTabItem("People", cp.people.Content()),
		container.NewTabItem("Differences", cp.diff.Content()))
	cp.content = cp.tabs
	cp.refresh()
	return cp
}

// Content is the panel's root object.
func (cp *comparePanel) Content() fyne.CanvasObject { return cp.content }

// Runs returns the runs compared.
func (cp *comparePanel) Runs() []*RunRecord { return cp.runs }

// Groups returns the rows of the comparison.
func (cp *comparePanel) Groups() []*CompareGroup { return cp.groups }

// tableText returns the table's cells as shown (header first).
func (cp *comparePanel) tableText() [][]string { return CompareTable(cp.groups) }

// addFolder reads every run under dir (off the UI goroutine) and adds them.
func (cp *comparePanel) addFolder(dir string) {
	cp.loadFolder(dir, func(runs []*RunRecord) { cp.addRuns(runs...) })
}

// loadFolder reads the runs under dir off the UI goroutine, then hands them to use on it (an
// error is shown instead).
func (cp *comparePanel) loadFolder(dir string, use func([]*RunRecord)) {
	cp.loading.Add(1)
	cp.status.SetText("reading " + dir + "…")
	go func() {
		defer cp.loading.Done()
		runs, err := LoadRunRecords(dir)
		cp.wb.ui.onUI(func() {
			if err != nil {
				cp.status.SetText(err.Error())
				return
			}
			use(runs)
		})
	}()
}

// addRuns adds loaded runs (UI goroutine).
func (cp *comparePanel) addRuns(runs ...*RunRecord) {
	cp.runs = dedupeRuns(append(cp.runs, runs...))
	cp.refresh()
}

// addCurrentRun adds the run shown in the Run tab.
func (cp *comparePanel) addCurrentRun() {
	rec, _ := cp.fromRun.shownRun()
	if rec == nil || rec.Dir == "" {
		cp.status.SetText("The Run tab has no run yet.")
		return
	}
	cp.addFolder(rec.Dir)
}

// Clear removes every run.
func (cp *comparePanel) Clear() {
	cp.runs = nil
	cp.refresh()
}

// wait blocks until folders being read are added and the plots and galleries are drawn.
func (cp *comparePanel) wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if !cp.loading.wait(timeout) {
		return fmt.Errorf("still reading run folders after %v", timeout)
	}
	cp.wb.ui.mu.Lock()
	gals := append([]*populationView(nil), cp.galleries...)
	cp.wb.ui.mu.Unlock()
	waits := []func(time.Duration) error{cp.fitnessPlot.Wait, cp.feasiblePlot.Wait}
	for _, g := range gals {
		waits = append(waits, g.wait)
	}
	for _, w := range waits {
		if err := w(time.Until(deadline)); err != nil {
			return err
		}
	}
	return nil
}

func (cp *comparePanel) problem(name string) (problems.Problem, error) {
	if p, ok := cp.problems[name]; ok {
		return p, nil
	}
	p, err := makeProblem(name)
	if err == nil {
		cp.problems[name] = p
	}
	return p, err
}

// drawPlots draws both plots over the chosen x axis.
func (cp *comparePanel) drawPlots() {
	if cp.fitnessPlot == nil {
		return
	}
	axis, err := experiment.ParseXAxis(cp.xAxis.Selected)
	if err != nil {
		axis = experiment.XGeneration // the select offers only known axes
	}
	cp.fitnessPlot.SetSpec(compareFitnessPlotOn(cp.groups, axis))
	cp.feasiblePlot.SetSpec(compareFeasiblePlotOn(cp.groups, axis))
}

// refresh recomputes the groups and redraws table, plots and galleries.
func (cp *comparePanel) refresh() {
	cp.groups = GroupRuns(cp.runs)
	cp.clearButton.Disable()
	cp.updatePlaytestButton()
	cp.status.SetText(compareStatus(len(cp.runs), len(cp.groups)))
	if len(cp.runs) > 0 {
		cp.clearButton.Enable()
	}
	cp.diff.setGroups(cp.groups)
	cp.table.RemoveAll()
	short := shortNames(cp.groups)
	for r, row := range CompareTable(cp.groups) {
		for c, cell := range row {
			l := widget.NewLabel(cell)
			if r == 0 {
				l.TextStyle = fyne.TextStyle{Bold: true}
				l.Importance = widget.LowImportance
				cp.table.Add(widgets.Tip(l, compareHeaderTips[cell]))
				continue
			}
			if c == 0 && r > 0 {
				// the name shortens itself (its tip holds it whole): long fitness names must
				// not push the Evaluations column out of a normal window
				l.SetText(short[r-1])
				l.TextStyle = fyne.TextStyle{Bold: true}
				l.Truncation = fyne.TextTruncateEllipsis
				name := container.NewBorder(nil, nil, container.NewCenter(lineSwatch(cp.groups[r-1])), nil, widgets.FixedWidth(compareNameWidth, l))
				cp.table.Add(widgets.Tip(name, cell))
				continue
			}
			cp.table.Add(l)
		}
	}
	cp.table.Refresh()
	// room for the header and up to four groups; more scroll
	rowH := cp.table.MinSize().Height / float32(len(cp.groups)+1)
	cp.tableScroll.SetMinSize(fyne.NewSize(0, rowH*float32(min(len(cp.groups), 4)+1)))
	cp.runsBox.Refresh() // the table's height changed: lay the tab out again
	cp.drawPlots()

	cp.galleries = nil
	cp.galleryBox.RemoveAll()
	cols := max(1, min(len(cp.groups), 4))
	cp.galleryBox.Layout = container.NewGridWithColumns(cols).Layout
	multi := spansProblems(cp.groups)
	for _, g := range cp.groups {
		pv := newPopulationView(cp.wb.ui, "", true)
		pv.limit = compareGalleryLimit
		pv.sort.SetSelected(string(sortFitness))
		pv.onOpen = cp.wb.openMember
		run := g.bestRun()
		// a bar in the run's colour and a label that shortens itself: titles never widen the
		// window, however long the fitness names
		bar := lineSwatch(g)
		label := widget.NewLabel(fmt.Sprintf("%s · best seed %d", g.label(multi), run.Config.Seed))
		label.TextStyle = fyne.TextStyle{Bold: true}
		label.Truncation = fyne.TextTruncateEllipsis
		title := container.NewVBox(bar, label)
		p, err := cp.problem(g.problem)
		if err != nil {
			pv.Clear(err.Error())
		} else if members, _, err := run.population(p); err != nil {
			pv.Clear(err.Error())
		} else if len(members) == 0 {
			pv.Clear("no population recorded yet")
		} else {
			pv.setMembers(g.problem, p, members)
		}
		cp.galleries = append(cp.galleries, pv)
		pv.gallery.MinWidth = 120
		content := pv.Content()
		widgets.TipAll(content, populationTips(pv))
		cp.galleryBox.Add(container.NewBorder(title, nil, nil, nil, content))
	}
	if len(cp.groups) == 0 {
		msg := widget.NewLabel("Galleries of the compared runs appear here.")
		msg.Alignment = fyne.TextAlignCenter
		cp.galleryBox.Add(container.NewCenter(msg))
	}
	cp.galleryBox.Refresh()
}

// compareStatus is the status line: "3 runs in 2 groups", or the hint with none.
func compareStatus(runs, groups int) string {
	if runs == 0 {
		return compareHint
	}
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	return plural(runs, "run") + " in " + plural(groups, "group")
}

// lineSwatch is the group's line as the plots draw it: its generator's colour, solid, dashed
// (two strokes) or dotted (four dots), so that groups of one generator are told apart.
func lineSwatch(g *CompareGroup) fyne.CanvasObject {
	n, w := 1, float32(16)
	switch {
	case g.dotted:
		n, w = 4, 2
	case g.dashed:
		n, w = 2, 6
	}
	box := container.NewHBox()
	for range n {
		r := canvas.NewRectangle(g.color)
		r.SetMinSize(fyne.NewSize(w, 4))
		box.Add(r)
	}
	return box
}

// shortNames are the groups' names as the table shows them: without the fitness when every
// group has the same one (the Differences tab and the tips name it), so the column stays narrow.
func shortNames(groups []*CompareGroup) []string {
	multi := spansProblems(groups)
	same := true
	for _, g := range groups {
		same = same && g.fitness == groups[0].fitness
	}
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.label(multi)
		if same {
			out[i] = strings.Replace(out[i], " · "+g.fitness, "", 1)
		}
	}
	return out
}

// tips are the Compare tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (cp *comparePanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		cp.addButton:          "Add a run folder, or a folder of run folders to tick several runs at once.",
		cp.addCurrentButton:   "Add the run shown in the Run tab.",
		cp.clearButton:        "Remove every run from the comparison (the folders stay on disk).",
		cp.playtestButton:     "Make a blind playtest playlist from the compared runs' levels.",
		cp.xAxis:              "What the x axis counts: generations, evaluations used, or model calls, to compare runs at equal budget.",
		cp.fitnessPlot:        "Best fitness per group of runs (0 to 1), the mean over distinct seeds with its interval.",
		cp.feasiblePlot:       "Share of the levels produced that are feasible (quality 1), from 0 to 1, with its interval; a one-generation run is a marker.",
		cp.people.addButton:   "Add a playtest session folder (players' ratings) to the People view.",
		cp.people.clearButton: "Remove every playtest session from the People view.",
		cp.people.kioskButton: "Start the full-screen kiosk for the next participant of a playtest session (their code and order come from the session).",
	}
}
