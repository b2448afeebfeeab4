package app

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// Sources of the expressive range view.
const (
	sourceRun    = "Run tab population"
	sourceSample = "Sample tab set"
)

// Views of a source.
const (
	viewRange   = "Expressive range"
	viewArchive = "MAP-Elites archive"
)

// heatCellPx is the pixel size of a heatmap cell in the image (the widget scales it).
const heatCellPx = 24

// expressivePanel is the Expressive range tab: a heatmap of how a set of levels spreads over
// two metrics chosen by the user (Smith & Whitehead), or a MAP-Elites archive drawn the same
// way (empty cells transparent). Tapping a cell lists its levels.
type expressivePanel struct {
	source        *widget.Select
	view          *widget.RadioGroup
	xField        *widget.Select
	yField        *widget.Select
	bins          *widget.Select
	refreshButton *widget.Button
	Map           *heatmapView
	xLabel        *widget.Label
	yLabel        *widget.Label
	summary       *widget.Label
	cellLabel     *widget.Label
	cell          *populationView
	content       fyne.CanvasObject
	wb            *Workbench
	// the sibling tabs it maps levels of (window_links.go)
	fromRun    runSource
	fromSample sampleSource
	compared   runCollection

	name    string
	problem problems.Problem
	members []member
	archive *search.ArchiveView
	heat    *heatmap
	loads   latest
}

func newExpressivePanel(wb *Workbench, run runSource, samples sampleSource, compared runCollection) *expressivePanel {
	ep := &expressivePanel{wb: wb, loads: latest{ui: wb.ui}, fromRun: run, fromSample: samples, compared: compared}
	ep.source = widget.NewSelect([]string{sourceRun, sourceSample}, func(string) { ep.Load() })
	ep.view = widget.NewRadioGroup([]string{viewRange, viewArchive}, func(string) { ep.redraw() })
	ep.view.Horizontal = true
	ep.view.Required = true
	ep.xField = widget.NewSelect(nil, func(string) { ep.redraw() })
	ep.yField = widget.NewSelect(nil, func(string) { ep.redraw() })
	ep.xField.PlaceHolder, ep.yField.PlaceHolder = "x metric", "y metric"
	ep.bins = widget.NewSelect([]string{"5", "8", "10", "12", "16", "20"}, func(string) { ep.redraw() })
	ep.refreshButton = widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), ep.Load)
	ep.Map = newHeatmapView(ep.cellTapped)
	ep.xLabel = widget.NewLabel("")
	ep.xLabel.Alignment = fyne.TextAlignCenter
	ep.yLabel = widget.NewLabel("")
	ep.summary = widget.NewLabel("Choose a source: the Run tab's population or the Sample tab's set.")
	ep.summary.Wrapping = fyne.TextWrapWord
	ep.cellLabel = widget.NewLabel("Tap a cell to see its levels.")
	ep.cellLabel.TextStyle = fyne.TextStyle{Bold: true}
	ep.cell = newPopulationView(wb.ui, "", false)
	ep.cell.onOpen = wb.openMember
	ep.cell.onExport = wb.showExport

	tools := container.NewHBox(caption("SOURCE"), widgets.FixedWidth(200, ep.source), ep.refreshButton, ep.view, caption("BINS"), widgets.FixedWidth(64, ep.bins))
	axes := container.NewGridWithColumns(2, container.NewBorder(nil, nil, caption("X"), nil, ep.xField), container.NewBorder(nil, nil, caption("Y"), nil, ep.yField))
	mapArea := container.NewBorder(nil, ep.xLabel, nil, nil, ep.Map)
	left := container.NewBorder(container.NewVBox(axes, ep.yLabel), ep.summary, nil, nil, mapArea)
	right := container.NewBorder(ep.cellLabel, nil, nil, nil, ep.cell.Content())
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	ep.content = container.NewBorder(tools, nil, nil, nil, split)
	ep.bins.SetSelected("10")
	ep.view.SetSelected(viewRange)
	ep.view.Disable()
	return ep
}

// Content is the panel's root object.
func (ep *expressivePanel) Content() fyne.CanvasObject { return ep.content }

// heatmap returns the heatmap shown (nil before any).
func (ep *expressivePanel) heatmap() *heatmap { return ep.heat }

// wait blocks until the last load is shown and the cell gallery drawn.
func (ep *expressivePanel) wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if err := ep.loads.wait(timeout); err != nil {
		return err
	}
	return ep.cell.wait(time.Until(deadline))
}

// comparePrefix starts the sources naming a Compare group (its best run).
const comparePrefix = "Compare: "

// updateSources lists the Run tab, the Sample tab and every Compare group as sources.
func (ep *expressivePanel) updateSources() {
	opts := []string{sourceRun, sourceSample}
	multi := spansProblems(ep.compared.Groups())
	for _, g := range ep.compared.Groups() {
		opts = append(opts, comparePrefix+g.label(multi))
	}
	ep.source.SetOptions(opts)
}

func (ep *expressivePanel) compareGroup(source string) *CompareGroup {
	groups := ep.compared.Groups()
	multi := spansProblems(groups)
	for _, g := range groups {
		if comparePrefix+g.label(multi) == source {
			return g
		}
	}
	return nil
}

// Load reads the chosen source's levels (computing infos a run's checkpoint lacks, off the UI
// goroutine) and draws the heatmap.
func (ep *expressivePanel) Load() {
	var name string
	var p problems.Problem
	var members []member
	var archive *search.ArchiveView
	var rec *RunRecord
	switch ep.source.Selected {
	case sourceRun:
		rec, p = ep.fromRun.shownRun()
		if rec == nil || rec.Dir == "" || p == nil {
			ep.empty("The Run tab has no run yet: start one or open a run folder.")
			return
		}
		name = rec.Config.Problem
		archive = rec.Archive()
	case "":
		return
	case sourceSample:
		set := ep.fromSample.Last()
		if set == nil {
			ep.empty("The Sample tab has no set yet.")
			return
		}
		name = set.problem
		_, p, _ = ep.wb.currentProblem()
		if p == nil || ep.wb.problemName != set.problem {
			ep.empty("The sample set belongs to another problem: sample again.")
			return
		}
		members = membersOfSample(set)
	default:
		g := ep.compareGroup(ep.source.Selected)
		if g == nil {
			ep.empty("That comparison is gone: choose another source.")
			return
		}
		rec = g.bestRun()
		var err error
		if p, err = ep.compared.problem(g.problem); err != nil {
			ep.empty(err.Error())
			return
		}
		name = g.problem
		archive = rec.Archive()
	}
	ep.summary.SetText("computing infos…")
	ep.loads.Go(func(ctx context.Context) func() {
		if rec != nil {
			var err error
			// the folder as it is now: the final population, or the last checkpoint's
			if members, _, err = rec.population(p); err != nil {
				return func() { ep.empty(err.Error()) }
			}
			if len(members) == 0 {
				return func() { ep.empty("The run has no population yet.") }
			}
		}
		err := ensureInfos(ctx, p, members)
		return func() {
			if err != nil {
				ep.empty(err.Error())
				return
			}
			ep.show(name, p, members, archive)
		}
	})
}

func (ep *expressivePanel) empty(msg string) {
	ep.members, ep.archive, ep.heat, ep.problem = nil, nil, nil, nil
	ep.Map.setHeatmap(nil, false)
	ep.summary.SetText(msg)
	ep.xLabel.SetText("")
	ep.yLabel.SetText("")
	ep.cell.Clear("")
	ep.view.Disable()
}

func (ep *expressivePanel) show(name string, p problems.Problem, members []member, archive *search.ArchiveView) {
	ep.name, ep.problem, ep.members, ep.archive = name, p, members, archive
	fields := metricFields(members)
	keepX, keepY := ep.xField.Selected, ep.yField.Selected
	ep.xField.SetOptions(fields)
	ep.yField.SetOptions(fields)
	if indexOf(fields, keepX) < 0 || indexOf(fields, keepY) < 0 {
		keepX, keepY = defaultAxes(fields)
	}
	ep.xField.Selected, ep.yField.Selected = keepX, keepY
	ep.xField.Refresh()
	ep.yField.Refresh()
	if archive != nil {
		if ep.view.Disabled() {
			ep.view.Selected = viewArchive // a new archive: show it first
			ep.view.Refresh()
		}
		ep.view.Enable()
	} else {
		ep.view.SetSelected(viewRange)
		ep.view.Disable()
	}
	ep.redraw()
}

// defaultAxes picks two info fields when the info has them, else quality and controllability.
func defaultAxes(fields []string) (string, string) {
	if len(fields) >= 6 {
		return fields[4], fields[5]
	}
	return metricQuality, metricControllability
}

// setAxes chooses the two metrics and redraws.
func (ep *expressivePanel) setAxes(x, y string) {
	ep.xField.Selected, ep.yField.Selected = x, y
	ep.xField.Refresh()
	ep.yField.Refresh()
	ep.redraw()
}

func (ep *expressivePanel) redraw() {
	if ep.Map == nil || ep.problem == nil {
		return
	}
	bins, _ := strconv.Atoi(ep.bins.Selected)
	archiveView := ep.view.Selected == viewArchive && ep.archive != nil
	for _, w := range []fyne.Disableable{ep.xField, ep.yField, ep.bins} {
		if archiveView {
			w.Disable() // the archive's axes are the run's own
		} else {
			w.Enable()
		}
	}
	if archiveView {
		ep.heat = archiveHeatmap(ep.archive, ep.members)
		ep.summary.SetText(fmt.Sprintf("MAP-Elites archive of %s: %d of %d cells filled; colour is the elite's fitness.",
			ep.name, ep.heat.filled(), ep.heat.Cells()))
	} else {
		if ep.xField.Selected == "" || ep.yField.Selected == "" {
			return
		}
		ep.heat = expressiveRange(ep.members, ep.xField.Selected, ep.yField.Selected, bins)
		text := fmt.Sprintf("%d levels of %s over %d × %d cells; %d cells filled, the fullest holds %d.",
			len(ep.members)-ep.heat.skipped, ep.name, ep.heat.x.Bins, ep.heat.y.Bins, ep.heat.filled(), int(ep.heat.maxValue()))
		if ep.heat.skipped > 0 {
			text += fmt.Sprintf(" %d levels lack a metric.", ep.heat.skipped)
		}
		ep.summary.SetText(text)
	}
	ep.xLabel.SetText(axisText("x", ep.heat.x))
	ep.yLabel.SetText(axisText("y", ep.heat.y))
	ep.Map.setHeatmap(ep.heat, archiveView)
	// open the fullest (or fittest) cell, so the levels are there before the first tap
	best, bestV := -1, math.Inf(-1)
	for c, v := range ep.heat.value {
		if !math.IsNaN(v) && v > bestV {
			best, bestV = c, v
		}
	}
	if best < 0 {
		ep.cell.Clear("")
		ep.cellLabel.SetText("No level has both metrics.")
		return
	}
	ep.cellTapped(best%ep.heat.x.Bins, best/ep.heat.x.Bins)
}

func axisText(which string, a heatAxis) string {
	lo, hi := a.Min+0.5, a.Max-0.5
	if lo == math.Trunc(lo) && hi == math.Trunc(hi) && int(hi-lo)+1 == a.Bins {
		// FitAxis gave each whole number its own bin
		return fmt.Sprintf("%s: %s, %s to %s (one bin per value)", which, a.Field, formatNumber(lo), formatNumber(hi))
	}
	return fmt.Sprintf("%s: %s, %s to %s in %d bins", which, a.Field, formatNumber(round4(a.Min)), formatNumber(round4(a.Max)), a.Bins)
}

// binText describes a bin: "doors = 3" for a bin around one whole number, else
// "path in [12, 18)".
func binText(field string, lo, hi float64) string {
	if mid := (lo + hi) / 2; hi-lo == 1 && mid == math.Trunc(mid) {
		return fmt.Sprintf("%s = %s", field, formatNumber(mid))
	}
	return fmt.Sprintf("%s in [%s, %s)", field, formatNumber(round4(lo)), formatNumber(round4(hi)))
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// selectCell lists the levels of cell (x, y).
func (ep *expressivePanel) selectCell(x, y int) {
	ep.cellTapped(x, y)
}

func (ep *expressivePanel) cellTapped(x, y int) {
	h := ep.heat
	if h == nil || x < 0 || y < 0 || x >= h.x.Bins || y >= h.y.Bins {
		return
	}
	c := y*h.x.Bins + x
	ep.Map.Select(c)
	xlo, xhi := h.x.binRange(x) // for the label
	ylo, yhi := h.y.binRange(y)
	idx := h.members[c]
	levels := "levels"
	if len(idx) == 1 {
		levels = "level"
	}
	ep.cellLabel.SetText(fmt.Sprintf("%d %s with %s and %s", len(idx), levels, binText(h.x.Field, xlo, xhi), binText(h.y.Field, ylo, yhi)))
	if len(idx) == 0 {
		ep.cell.Clear("This cell is empty.")
		return
	}
	cell := make([]member, len(idx))
	for i, k := range idx {
		cell[i] = ep.members[k]
	}
	ep.cell.setMembers(ep.name, ep.problem, cell)
}

// tips are the Range tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (ep *expressivePanel) tips() map[fyne.CanvasObject]string {
	return merge(map[fyne.CanvasObject]string{
		ep.source:        "Which levels to map: the Run tab's population or the Sample tab's set.",
		ep.view:          "Expressive range: how many levels fall in each cell; MAP-Elites archive: the best fitness found per cell.",
		ep.xField:        "The level property on the x axis.",
		ep.yField:        "The level property on the y axis.",
		ep.bins:          "How many cells each axis is cut into.",
		ep.refreshButton: "Read the levels again from their source.",
		ep.Map:           "Each cell holds the levels whose two properties fall in its bins; the colour scale on the right says how many (or the elite's fitness). Click a cell to see its levels.",
	}, populationTips(ep.cell))
}
