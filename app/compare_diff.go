package app

// The Compare tab's Differences section: two groups the user selects, compared on the final
// best fitness and the feasible / unique / controlled shares as `report --compare` writes them
// to differences.csv (experiment.PairDifferences over the stats package).

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems/experiment"
	"pcgwb/stats"
)

// diffSection is the Differences tab of Compare.
type diffSection struct {
	a, b  *widget.Select
	title *widget.Label
	table *fyne.Container
	note  *widget.Label
	// rows are the rows shown (differences.csv's for the pair).
	rows    []experiment.Difference
	groups  []*CompareGroup
	content fyne.CanvasObject
}

// diffColumns are the Differences table's columns: differences.csv's, less the problem,
// fitness and group names the title gives.
func diffColumns() []string {
	return []string{"metric", "n_a", "n_b", "mean_a", "mean_b", "diff", "ci_low", "ci_high", "a12", "p", "p_holm"}
}

func newDiffSection() *diffSection {
	d := &diffSection{}
	d.a = widget.NewSelect(nil, func(string) { d.show() })
	d.b = widget.NewSelect(nil, func(string) { d.show() })
	d.a.PlaceHolder, d.b.PlaceHolder = "group a", "group b"
	d.title = widget.NewLabel("Add runs of two groups of one problem and fitness to compare them.")
	d.title.Wrapping = fyne.TextWrapWord
	d.table = container.New(widgets.NewTableLayout(len(diffColumns())))
	d.note = widget.NewLabel(experiment.DifferencesMethod)
	d.note.Wrapping = fyne.TextWrapWord
	d.note.Importance = widget.LowImportance
	pick := container.NewGridWithColumns(2,
		container.NewBorder(nil, nil, widget.NewLabel("a"), nil, widgets.Tip(d.a, "Group a of the comparison: the differences are a − b.")),
		container.NewBorder(nil, nil, widget.NewLabel("b"), nil, widgets.Tip(d.b, "Group b of the comparison, of the same problem and fitness as a.")))
	d.content = container.NewVScroll(container.NewVBox(pick, d.title, container.NewHScroll(d.table), d.note))
	return d
}

// Content is the section's root object.
func (d *diffSection) Content() fyne.CanvasObject { return d.content }

// diffOption names group i in the selects: "1. ga · quality".
func diffOption(i int, g *CompareGroup, multi bool) string {
	return fmt.Sprintf("%d. %s", i+1, g.label(multi))
}

// setGroups offers the groups; the selection is kept where the groups still exist, else the
// first two groups that share a problem and fitness are chosen.
func (d *diffSection) setGroups(groups []*CompareGroup) {
	d.groups = groups
	multi := spansProblems(groups)
	var opts []string
	for i, g := range groups {
		opts = append(opts, diffOption(i, g, multi))
	}
	a, b := d.a.SelectedIndex(), d.b.SelectedIndex()
	d.a.Options, d.b.Options = opts, opts
	if a < 0 || b < 0 || a >= len(groups) || b >= len(groups) || a == b {
		a, b = -1, -1
	pairs:
		for i := range groups {
			for j := i + 1; j < len(groups); j++ {
				if groups[i].problem == groups[j].problem && groups[i].fitness == groups[j].fitness {
					a, b = i, j
					break pairs
				}
			}
		}
	}
	// set without calling show twice
	d.a.Selected, d.b.Selected = "", ""
	if a >= 0 {
		d.a.Selected, d.b.Selected = opts[a], opts[b]
	}
	d.a.Refresh()
	d.b.Refresh()
	d.show()
}

// Select compares groups i and j (indices into the groups given to SetGroups).
func (d *diffSection) Select(i, j int) {
	d.a.SetSelectedIndex(i)
	d.b.SetSelectedIndex(j)
}

// tableText returns the table's cells as shown (header first).
func (d *diffSection) tableText() [][]string {
	rows := [][]string{diffColumns()}
	for _, r := range d.rows {
		c := r.Cells() // differences.csv's cells: problem, fitness, metric, group_a, group_b, n_a, …
		rows = append(rows, append([]string{c[2]}, c[5:]...))
	}
	return rows
}

// show computes and shows the selected pair's rows.
func (d *diffSection) show() {
	d.rows = nil
	a, b := d.a.SelectedIndex(), d.b.SelectedIndex()
	switch {
	case len(d.groups) < 2:
		d.title.SetText("Add runs of two groups of one problem and fitness to compare them.")
	case a < 0 || b < 0:
		d.title.SetText("Choose two groups.")
	case a == b:
		d.title.SetText("Choose two different groups.")
	default:
		ga, gb := d.groups[a], d.groups[b]
		if ga.group == nil || gb.group == nil {
			break
		}
		all := make([]experiment.Group, len(d.groups))
		for i, g := range d.groups {
			if g.group != nil {
				all[i] = *g.group
			}
		}
		d.rows = experiment.PairDifferences(all, a, b)
		if d.rows == nil {
			d.title.SetText(fmt.Sprintf("%s and %s differ in problem or fitness: only groups of one problem and fitness are compared.",
				ga.label(true), gb.label(true)))
			break
		}
		d.title.SetText(fmt.Sprintf("%s · %s: a = %s (%s), b = %s (%s); diff = a − b",
			ga.problem, ga.fitness, ga.label(false), stats.NText(d.rows[0].NA, "seed"), gb.label(false), stats.NText(d.rows[0].NB, "seed")))
	}
	d.table.RemoveAll()
	for r, row := range d.tableText() {
		for _, cell := range row {
			if cell == "" {
				cell = "–"
			}
			l := widget.NewLabel(cell)
			if r == 0 {
				l.TextStyle = fyne.TextStyle{Bold: true}
				l.Importance = widget.LowImportance
				d.table.Add(widgets.Tip(l, diffHeaderTips[cell]))
				continue
			}
			d.table.Add(l)
		}
	}
	d.table.Refresh()
}

// diffHeaderTips explain the Differences table's columns.
var diffHeaderTips = map[string]string{
	"metric":  "best_fitness: the final best fitness; *_share: the share of the levels a run produced that are feasible, unique or controlled.",
	"n_a":     "Finished runs (seeds) of group a: the unit of the comparison.",
	"n_b":     "Finished runs (seeds) of group b.",
	"mean_a":  "Mean over group a's seeds.",
	"mean_b":  "Mean over group b's seeds.",
	"diff":    "mean_a − mean_b.",
	"ci_low":  "Lower end of the difference's 95% bootstrap interval (empty with fewer than two seeds in a group).",
	"ci_high": "Upper end of the difference's 95% bootstrap interval.",
	"a12":     "Vargha–Delaney Â12: the chance that a run of a beats a run of b (0.5: no difference; 0.56 / 0.64 / 0.71: small / medium / large).",
	"p":       "Two-sided Mann–Whitney U test (exact for small groups without ties).",
	"p_holm":  "p after Holm's correction over the comparisons of this problem, fitness and metric between the groups shown.",
}
