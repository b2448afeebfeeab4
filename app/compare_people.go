package app

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/games/playtest"
)

// peoplePlots are the report's plots shown in the People section, as Write names them.
var peoplePlots = []string{"completion.png", "ratings.png", "solver-time.png"}

// peopleSection is the Compare tab's People section: what people made of the generators' levels
// in blind playtests. The user adds playtest session folders (copies of one session from several
// laptops merge); the section shows, per generator, the completion rate, the median time to win
// and the mean answers with their 95% intervals and n, the relation between people and the
// benchmark's metrics, and the report's plots. All of it is playtest.ReportFolders' report (it
// also writes the report into the first folder's report/ folder): no statistics here.
type peopleSection struct {
	addButton   *widget.Button
	clearButton *widget.Button
	// kioskButton is "Start kiosk…": the full-screen kiosk for the next participant.
	kioskButton *widget.Button
	status      *widget.Label
	table       *fyne.Container
	relations   *widget.Label
	// plots are the report's plot images, PlotFiles their files.
	plots     []*canvas.Image
	plotFiles []string
	// Report is the report shown (nil before any folder).
	report *playtest.Report

	// levels is the per-level table (a thumbnail per level when the report drew one).
	levels  *fyne.Container
	plotBox *fyne.Container
	scroll  *container.Scroll
	content fyne.CanvasObject
	wb      *Workbench
	folders []string
	loading jobGroup
	gen     int // folder set generation: a stale report is not shown
}

func newPeopleSection(wb *Workbench) *peopleSection {
	ps := &peopleSection{wb: wb}
	ps.addButton = widget.NewButtonWithIcon("Add playtest folder…", theme.FolderOpenIcon(), ps.showAddFolder)
	ps.clearButton = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), ps.Clear)
	ps.clearButton.Disable()
	ps.kioskButton = widget.NewButtonWithIcon("Start kiosk…", theme.MediaPlayIcon(), ps.showStartKiosk)
	ps.status = widget.NewLabel("Add one or more playtest session folders (`workbench playtest new` or \"New playtest…\"); copies from several laptops merge.")
	ps.status.Wrapping = fyne.TextWrapWord
	ps.table = container.New(widgets.NewTableLayout(1))
	ps.relations = widget.NewLabel("")
	ps.relations.Wrapping = fyne.TextWrapWord
	ps.plotBox = container.NewGridWithColumns(len(peoplePlots))
	ps.scroll = container.NewHScroll(ps.table) // sideways: many questions must not widen the window
	top := container.NewVBox(container.NewHBox(ps.addButton, ps.clearButton, ps.kioskButton), ps.status, ps.scroll, ps.relations)
	ps.levels = container.New(widgets.NewTableLayout(1))
	views := container.NewAppTabs(container.NewTabItem("Plots", ps.plotBox),
		container.NewTabItem("Levels", container.NewScroll(ps.levels)))
	ps.content = container.NewBorder(top, nil, nil, nil, views)
	return ps
}

// Content is the section's root object.
func (ps *peopleSection) Content() fyne.CanvasObject { return ps.content }

// Folders returns the session folders shown.
func (ps *peopleSection) Folders() []string { return ps.folders }

// addFolders adds session folders and recomputes the report off the UI goroutine.
func (ps *peopleSection) addFolders(dirs ...string) {
	for _, d := range dirs {
		if !slices.Contains(ps.folders, d) {
			ps.folders = append(ps.folders, d)
		}
	}
	ps.compute()
}

// Clear removes every session folder.
func (ps *peopleSection) Clear() {
	ps.folders, ps.report = nil, nil
	ps.gen++
	ps.show(nil, nil, nil)
	ps.status.SetText("No playtest folder.")
}

// wait blocks until the report being computed is shown.
func (ps *peopleSection) wait(timeout time.Duration) error {
	if !ps.loading.wait(timeout) {
		return fmt.Errorf("still computing the playtest report after %v", timeout)
	}
	return nil
}

func (ps *peopleSection) compute() {
	if len(ps.folders) == 0 {
		ps.Clear()
		return
	}
	ps.gen++
	gen, dirs := ps.gen, append([]string(nil), ps.folders...)
	ps.status.SetText(fmt.Sprintf("reading %d playtest folders…", len(dirs)))
	ps.loading.Add(1)
	ps.wb.ui.goJob(func() {
		defer ps.loading.Done()
		rep, files, err := playtest.ReportFolders("", dirs...)
		ps.wb.ui.onUI(func() {
			if gen != ps.gen {
				return
			}
			ps.show(rep, files, err)
		})
	})
}

// show puts a report (or its failure) on screen.
func (ps *peopleSection) show(rep *playtest.Report, files []string, err error) {
	ps.table.RemoveAll()
	ps.levels.RemoveAll()
	ps.plotBox.RemoveAll()
	ps.plots, ps.plotFiles, ps.relations.Text = nil, nil, ""
	ps.clearButton.Disable()
	if len(ps.folders) > 0 {
		ps.clearButton.Enable()
	}
	ps.report = rep
	if rep != nil {
		rows := peopleTable(rep)
		ps.table.Layout = widgets.NewTableLayout(len(rows[0]))
		for r, row := range rows {
			for _, cell := range row {
				l := widget.NewLabel(cell)
				if r == 0 {
					l.TextStyle = fyne.TextStyle{Bold: true}
					l.Importance = widget.LowImportance
				}
				ps.table.Add(l)
			}
		}
		ps.showLevels(rep, files)
		rel := rep.Relations
		ps.relations.Text = fmt.Sprintf("Levels the benchmark calls playable completed %s; the others %s. "+
			"Solver path length vs median time to win (Spearman) %s; quality vs completion (Spearman) %s.",
			rel.PlayableCompletion.Text(), rel.UnplayableCompletion.Text(), rel.SolverVsTime.Text(), rel.QualityVsCompletion.Text())
		for _, name := range peoplePlots {
			path := reportFile(files, name)
			if path == "" {
				continue
			}
			img := canvas.NewImageFromFile(path)
			img.FillMode = canvas.ImageFillContain
			img.SetMinSize(fyne.NewSize(240, 160))
			ps.plots, ps.plotFiles = append(ps.plots, img), append(ps.plotFiles, path)
			ps.plotBox.Add(img)
		}
		ps.status.SetText(fmt.Sprintf("%d plays by %d players from %s; report written to %s",
			rep.Plays, len(rep.Players), strings.Join(ps.folders, ", "), filepath.Dir(reportFile(files, "report.md"))))
	}
	if err != nil {
		ps.status.SetText("Playtest report failed: " + err.Error())
	}
	ps.table.Refresh()
	ps.levels.Refresh()
	ps.scroll.SetMinSize(fyne.NewSize(0, ps.table.MinSize().Height))
	ps.relations.Refresh()
	ps.plotBox.Refresh()
	if c, ok := ps.content.(*fyne.Container); ok {
		c.Refresh() // the table's height changed: lay the section out again
	}
}

// reportFile is the file of files named name ("" when absent).
func reportFile(files []string, name string) string {
	for _, f := range files {
		if filepath.Base(f) == name {
			return f
		}
	}
	return ""
}

// peopleTable is the People section's table, header first: per generator its levels, the
// completion rate, the median time to win and the mean answer to each question, every
// statistic as its estimate with the 95% interval and n.
func peopleTable(rep *playtest.Report) [][]string {
	head := []string{"Generator", "Levels", "Completed", "Median time to win (s)"}
	for _, q := range rep.Questions {
		head = append(head, q.ID)
	}
	out := [][]string{head}
	for _, g := range rep.Generators {
		row := []string{g.Generator, fmt.Sprint(g.Levels), g.Completion.Text(), g.MedianTime.Text()}
		for _, q := range rep.Questions {
			row = append(row, g.Ratings[q.ID].Text())
		}
		out = append(out, row)
	}
	return out
}

// peopleLevels is the per-level table, header first: each level's generator, the benchmark's
// quality and solver path, its plays, wins, median time to win and mean answers.
func peopleLevels(rep *playtest.Report) [][]string {
	head := []string{"Level", "Generator", "Quality", "Solver moves", "Plays", "Won", "Median time (s)"}
	for _, q := range rep.Questions {
		head = append(head, q.ID)
	}
	out := [][]string{head}
	for _, l := range rep.Levels {
		row := []string{l.Name, l.Generator, fmt.Sprintf("%.2f", l.Quality), fmt.Sprint(l.SolverMoves),
			fmt.Sprint(l.Plays), fmt.Sprint(l.Won), peopleNumber(l.MedianTime)}
		for _, q := range rep.Questions {
			row = append(row, peopleNumber(l.Ratings[q.ID]))
		}
		out = append(out, row)
	}
	return out
}

// peopleNumber formats a per-level statistic ("–" when there is none).
func peopleNumber(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// showLevels fills the per-level table, each level's thumbnail (thumbs/LEVEL.png) first.
func (ps *peopleSection) showLevels(rep *playtest.Report, files []string) {
	rows := peopleLevels(rep)
	ps.levels.Layout = widgets.NewTableLayout(len(rows[0]) + 1)
	for r, row := range rows {
		var thumb fyne.CanvasObject = widget.NewLabel("")
		if r > 0 {
			if path := reportFile(files, row[0]+".png"); path != "" {
				img := canvas.NewImageFromFile(path)
				img.FillMode = canvas.ImageFillContain
				img.SetMinSize(fyne.NewSize(66, 42))
				thumb = img
			}
		}
		ps.levels.Add(thumb)
		for _, cell := range row {
			l := widget.NewLabel(cell)
			if r == 0 {
				l.TextStyle = fyne.TextStyle{Bold: true}
				l.Importance = widget.LowImportance
			}
			ps.levels.Add(l)
		}
	}
}

// showAddFolder asks for a playtest session folder and adds it.
func (ps *peopleSection) showAddFolder() {
	ps.wb.pickFolder("Add a playtest session folder", "Add", ps.wb.prefs().outputDir(), func(dir string) { ps.addFolders(dir) })
}
