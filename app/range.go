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
	Source        *widget.Select
	View          *widget.RadioGroup
	xField        *widget.Select
	yField        *widget.Select
	Bins          *widget.Select
	refreshButton *widget.Button
	Map           *heatmapView
	XLabel        *widget.Label
	YLabel        *widget.Label
	Summary       *widget.Label
	cellLabel     *widget.Label
	Cell          *PopulationView
	content       fyne.CanvasObject
	wb            *Workbench

	name    string
	problem problems.Problem
	members []Member
	archive *search.ArchiveView
	heat    *heatmap
	loads   latest
}

func newExpressivePanel(wb *Workbench) *expressivePanel {
	ep := &expressivePanel{wb: wb}
	ep.Source = widget.NewSelect([]string{sourceRun, sourceSample}, func(string) { ep.Load() })
	ep.View = widget.NewRadioGroup([]string{viewRange, viewArchive}, func(string) { ep.redraw() })
	ep.View.Horizontal = true
	ep.View.Required = true
	ep.xField = widget.NewSelect(nil, func(string) { ep.redraw() })
	ep.yField = widget.NewSelect(nil, func(string) { ep.redraw() })
	ep.xField.PlaceHolder, ep.yField.PlaceHolder = "x metric", "y metric"
	ep.Bins = widget.NewSelect([]string{"5", "8", "10", "12", "16", "20"}, func(string) { ep.redraw() })
	ep.refreshButton = widget.NewButtonWithIcon("Reload", theme.ViewRefreshIcon(), ep.Load)
	ep.Map = newHeatmapView(ep.cellTapped)
	ep.XLabel = widget.NewLabel("")
	ep.XLabel.Alignment = fyne.TextAlignCenter
	ep.YLabel = widget.NewLabel("")
	ep.Summary = widget.NewLabel("Choose a source: the Run tab's population or the Sample tab's set.")
	ep.Summary.Wrapping = fyne.TextWrapWord
	ep.cellLabel = widget.NewLabel("Tap a cell to see its levels.")
	ep.cellLabel.TextStyle = fyne.TextStyle{Bold: true}
	ep.Cell = NewPopulationView("", false)
	ep.Cell.OnOpen = wb.openMember
	ep.Cell.OnExport = wb.ShowExport

	tools := container.NewHBox(caption("SOURCE"), fixedWidth(200, ep.Source), ep.refreshButton, ep.View, caption("BINS"), fixedWidth(64, ep.Bins))
	axes := container.NewGridWithColumns(2, container.NewBorder(nil, nil, caption("X"), nil, ep.xField), container.NewBorder(nil, nil, caption("Y"), nil, ep.yField))
	mapArea := container.NewBorder(nil, ep.XLabel, nil, nil, ep.Map)
	left := container.NewBorder(container.NewVBox(axes, ep.YLabel), ep.Summary, nil, nil, mapArea)
	right := container.NewBorder(ep.cellLabel, nil, nil, nil, ep.Cell.Content())
	split := container.NewHSplit(left, right)
	split.Offset = 0.45
	ep.content = container.NewBorder(tools, nil, nil, nil, split)
	ep.Bins.SetSelected("10")
	ep.View.SetSelected(viewRange)
	ep.View.Disable()
	return ep
}

// Content is the panel's root object.
func (ep *expressivePanel) Content() fyne.CanvasObject { return ep.content }

// heatmap returns the heatmap shown (nil before any).
func (ep *expressivePanel) heatmap() *heatmap { return ep.heat }

// Wait blocks until the last load is shown and the cell gallery drawn.
func (ep *expressivePanel) Wait(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if err := ep.loads.Wait(timeout); err != nil {
		return err
	}
	return ep.Cell.Wait(time.Until(deadline))
}

// comparePrefix starts the sources naming a Compare group (its best run).
const comparePrefix = "Compare: "

// updateSources lists the Run tab, the Sample tab and every Compare group as sources.
func (ep *expressivePanel) updateSources() {
	opts := []string{sourceRun, sourceSample}
	multi := spansProblems(ep.wb.Compare.Groups())
	for _, g := range ep.wb.Compare.Groups() {
		opts = append(opts, comparePrefix+g.Label(multi))
	}
	ep.Source.SetOptions(opts)
}

func (ep *expressivePanel) compareGroup(source string) *CompareGroup {
	groups := ep.wb.Compare.Groups()
	multi := spansProblems(groups)
	for _, g := range groups {
		if comparePrefix+g.Label(multi) == source {
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
	var members []Member
	var archive *search.ArchiveView
	var rec *RunRecord
	switch ep.Source.Selected {
	case sourceRun:
		rec, p = ep.wb.Run.Record(), ep.wb.Run.problem
		if rec == nil || rec.Dir == "" || p == nil {
			ep.empty("The Run tab has no run yet: start one or open a run folder.")
			return
		}
		name = rec.Config.Problem
		archive = rec.Archive()
	case "":
		return
	case sourceSample:
		set := ep.wb.samples.Last()
		if set == nil {
			ep.empty("The Sample tab has no set yet.")
			return
		}
		name = set.Problem
		_, p, _ = ep.wb.CurrentProblem()
		if p == nil || ep.wb.problemName != set.Problem {
			ep.empty("The sample set belongs to another problem: sample again.")
			return
		}
		members = MembersOfSample(set)
	default:
		g := ep.compareGroup(ep.Source.Selected)
		if g == nil {
			ep.empty("That comparison is gone: choose another source.")
			return
		}
		rec = g.BestRun()
		var err error
		if p, err = ep.wb.Compare.problem(g.Problem); err != nil {
			ep.empty(err.Error())
			return
		}
		name = g.Problem
		archive = rec.Archive()
	}
	ep.Summary.SetText("computing infos…")
	ep.loads.Go(func(ctx context.Context) func() {
		if rec != nil {
			var err error
			// the folder as it is now: the final population, or the last checkpoint's
			if members, _, err = rec.Members(p); err != nil {
				return func() { ep.empty(err.Error()) }
			}
			if len(members) == 0 {
				return func() { ep.empty("The run has no population yet.") }
			}
		}
		err := EnsureInfos(ctx, p, members)
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
	ep.Summary.SetText(msg)
	ep.XLabel.SetText("")
	ep.YLabel.SetText("")
	ep.Cell.Clear("")
	ep.View.Disable()
}

func (ep *expressivePanel) show(name string, p problems.Problem, members []Member, archive *search.ArchiveView) {
	ep.name, ep.problem, ep.members, ep.archive = name, p, members, archive
	fields := MetricFields(members)
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
		if ep.View.Disabled() {
			ep.View.Selected = viewArchive // a new archive: show it first
			ep.View.Refresh()
		}
		ep.View.Enable()
	} else {
		ep.View.SetSelected(viewRange)
		ep.View.Disable()
	}
	ep.redraw()
}

// defaultAxes picks two info fields when the info has them, else quality and controllability.
func defaultAxes(fields []string) (string, string) {
	if len(fields) >= 6 {
		return fields[4], fields[5]
	}
	return MetricQuality, MetricControllability
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
	bins, _ := strconv.Atoi(ep.Bins.Selected)
	archiveView := ep.View.Selected == viewArchive && ep.archive != nil
	for _, w := range []fyne.Disableable{ep.xField, ep.yField, ep.Bins} {
		if archiveView {
			w.Disable() // the archive's axes are the run's own
		} else {
			w.Enable()
		}
	}
	if archiveView {
		ep.heat = archiveHeatmap(ep.archive, ep.members)
		ep.Summary.SetText(fmt.Sprintf("MAP-Elites archive of %s: %d of %d cells filled; colour is the elite's fitness.",
			ep.name, ep.heat.Filled(), ep.heat.Cells()))
	} else {
		if ep.xField.Selected == "" || ep.yField.Selected == "" {
			return
		}
		ep.heat = expressiveRange(ep.members, ep.xField.Selected, ep.yField.Selected, bins)
		text := fmt.Sprintf("%d levels of %s over %d × %d cells; %d cells filled, the fullest holds %d.",
			len(ep.members)-ep.heat.Skipped, ep.name, ep.heat.X.Bins, ep.heat.Y.Bins, ep.heat.Filled(), int(ep.heat.maxValue()))
		if ep.heat.Skipped > 0 {
			text += fmt.Sprintf(" %d levels lack a metric.", ep.heat.Skipped)
		}
		ep.Summary.SetText(text)
	}
	ep.XLabel.SetText(axisText("x", ep.heat.X))
	ep.YLabel.SetText(axisText("y", ep.heat.Y))
	ep.Map.setHeatmap(ep.heat, archiveView)
	// open the fullest (or fittest) cell, so the levels are there before the first tap
	best, bestV := -1, math.Inf(-1)
	for c, v := range ep.heat.Value {
		if !math.IsNaN(v) && v > bestV {
			best, bestV = c, v
		}
	}
	if best < 0 {
		ep.Cell.Clear("")
		ep.cellLabel.SetText("No level has both metrics.")
		return
	}
	ep.cellTapped(best%ep.heat.X.Bins, best/ep.heat.X.Bins)
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
	if h == nil || x < 0 || y < 0 || x >= h.X.Bins || y >= h.Y.Bins {
		return
	}
	c := y*h.X.Bins + x
	ep.Map.Select(c)
	xlo, xhi := h.X.binRange(x) // for the label
	ylo, yhi := h.Y.binRange(y)
	idx := h.Members[c]
	levels := "levels"
	if len(idx) == 1 {
		levels = "level"
	}
	ep.cellLabel.SetText(fmt.Sprintf("%d %s with %s and %s", len(idx), levels, binText(h.X.Field, xlo, xhi), binText(h.Y.Field, ylo, yhi)))
	if len(idx) == 0 {
		ep.Cell.Clear("This cell is empty.")
		return
	}
	cell := make([]Member, len(idx))
	for i, k := range idx {
		cell[i] = ep.members[k]
	}
	ep.Cell.SetMembers(ep.name, ep.problem, cell)
}
