package app

import (
	"context"
	"fmt"
	"image"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// maxUndo bounds the editor's undo history.
const maxUndo = 200

// editorPanel is the Editor tab: paint the tiles of a level of a tile problem and watch its
// quality and controllability (against the problem panel's target control) recomputed as you
// paint.
type editorPanel struct {
	canvas       *editorCanvas
	Palette      []*tileButton
	quality      *widgets.Badge
	control      *widgets.Badge
	timing       *widget.Label
	infoText     *widget.Label
	title        *widget.Label
	message      *widget.Label
	undoButton   *widget.Button
	randomButton *widget.Button
	fillButton   *widget.Button
	pngButton    *widget.Button
	jsonButton   *widget.Button
	play         *editorPlay // Play and Open (editor_play.go)

	// lastQuality, lastControllability and lastInfo are the latest evaluation shown;
	// lastElapsed is what it took (info, quality, controllability and picture).
	lastQuality, lastControllability float64
	lastInfo                         problems.Info
	lastElapsed                      time.Duration

	wb       *Workbench
	name     string
	problem  problems.Problem
	grid     tileGrid
	cells    [][]int
	tile     int // palette value painted
	undo     [][][]int
	redo     [][][]int // strokes taken back, newest last; a new stroke clears it
	stroke   bool      // a drag is painting (one undo step for the whole stroke)
	image    image.Image
	evals    latest
	palette  *fyne.Container
	body     *fyne.Container
	content  fyne.CanvasObject
	nextSeed uint64

	pending     problems.Problem // selected but not loaded yet
	pendingName string
	hasPending  bool
}

func newEditorPanel(wb *Workbench) *editorPanel {
	ed := &editorPanel{wb: wb, evals: latest{ui: wb.ui}}
	ed.canvas = newEditorCanvas(ed)
	ed.quality = widgets.NewBadge("Quality", 0)
	ed.control = widgets.NewBadge("Controllability", 0)
	ed.timing = widget.NewLabel("")
	ed.timing.SizeName = theme.SizeNameCaptionText
	ed.timing.Importance = widget.LowImportance
	ed.infoText = widget.NewLabel("")
	ed.infoText.TextStyle = fyne.TextStyle{Monospace: true}
	ed.title = widget.NewLabel("")
	ed.title.TextStyle = fyne.TextStyle{Bold: true}
	ed.message = widget.NewLabel("")
	ed.message.Wrapping = fyne.TextWrapWord
	ed.message.Alignment = fyne.TextAlignCenter
	ed.undoButton = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), ed.Undo)
	ed.randomButton = widget.NewButtonWithIcon("Random level", theme.ViewRefreshIcon(), ed.random)
	ed.fillButton = widget.NewButtonWithIcon("Fill", theme.ContentClearIcon(), func() { ed.Fill(ed.tile) })
	ed.pngButton = widget.NewButtonWithIcon("PNG…", theme.FileImageIcon(), func() {
		wb.saveFileDialog(ed.name+"-edited.png", func() ([]byte, error) {
			if ed.image == nil {
				return nil, fmt.Errorf("nothing drawn")
			}
			return encodePNG(ed.image)
		})
	})
	ed.jsonButton = widget.NewButtonWithIcon("JSON…", theme.FileTextIcon(), func() {
		wb.saveFileDialog(ed.name+"-edited.json", func() ([]byte, error) {
			return itemsJSON(ed.name, []member{ed.member()})
		})
	})
	ed.play = newEditorPlay(ed)
	ed.palette = container.NewVBox()
	tools := container.NewHBox(ed.play.playButton, ed.play.openButton, ed.randomButton, ed.fillButton, ed.undoButton, widget.NewSeparator(), ed.pngButton, ed.jsonButton)
	infoScroll := container.NewScroll(ed.infoText) // scrolls sideways too: long paths stay readable
	right := container.NewBorder(
		container.NewVBox(sectionTitle("LIVE METRICS"), container.NewHBox(ed.quality), container.NewHBox(ed.control), ed.timing, sectionTitle("INFO")),
		nil, nil, nil, infoScroll)
	left := container.NewBorder(sectionTitle("TILES  (1–9)"), nil, nil, nil, container.NewVScroll(ed.palette))
	ed.body = container.NewBorder(nil, nil, widgets.FixedWidth(150, left), widgets.FixedWidth(280, right), ed.canvas)
	ed.content = container.NewBorder(container.NewBorder(nil, nil, ed.title, tools), nil, nil, nil,
		container.NewStack(ed.body, container.NewCenter(ed.message)))
	ed.setEnabled(false)
	ed.message.SetText("Pick a tile problem (binary, zelda, sokoban, …) or open a level from a gallery with \"Edit tiles\".")
	return ed
}

// Content is the panel's root object.
func (ed *editorPanel) Content() fyne.CanvasObject { return ed.content }

// Cells returns the grid being edited (do not modify).
func (ed *editorPanel) Cells() [][]int { return ed.cells }

// Tile is the palette value being painted.
func (ed *editorPanel) Tile() int { return ed.tile }

// member returns the edited level as a member (latest evaluation).
func (ed *editorPanel) member() member {
	return newMember(0, problems.Scored{Content: contentOfGrid(ed.cells), Control: ed.wb.controls.Control(), Info: ed.lastInfo,
		Quality: ed.lastQuality, Controllability: ed.lastControllability, Fitness: ed.lastQuality, Cell: problems.NoCell})
}

// wait blocks until the latest recomputation is shown, at most timeout.
func (ed *editorPanel) wait(timeout time.Duration) error { return ed.evals.wait(timeout) }

func (ed *editorPanel) setEnabled(on bool) {
	for _, b := range []*widget.Button{ed.undoButton, ed.randomButton, ed.fillButton, ed.pngButton, ed.jsonButton} {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	ed.play.enable(ed, on)
	if on {
		ed.body.Show()
		ed.message.Hide()
	} else {
		ed.body.Hide()
		ed.message.Show()
	}
	if on && len(ed.undo) == 0 {
		ed.undoButton.Disable()
	}
}

// problemChanged notes the new problem; its first level is loaded when the Editor tab comes
// to the front (loading evaluates it, which need not happen for every problem looked at).
func (ed *editorPanel) problemChanged(name string, p problems.Problem) {
	ed.pending, ed.pendingName, ed.hasPending = p, name, true
	if ed.wb.frontTab() == "editor" {
		ed.loadPending()
	}
}

// loadPending loads a random level of the problem selected last, when it is a tile problem.
func (ed *editorPanel) loadPending() {
	if !ed.hasPending {
		return
	}
	name, p := ed.pendingName, ed.pending
	ed.pending, ed.hasPending = nil, false
	if p == nil {
		ed.name, ed.problem = name, nil
		ed.title.SetText(name)
		ed.setEnabled(false)
		ed.message.SetText(name + " cannot be edited: it is not available.")
		return
	}
	if _, ok := tileGridOf(p); !ok {
		ed.name, ed.problem = name, nil
		ed.title.SetText(name)
		ed.setEnabled(false)
		ed.message.SetText(fmt.Sprintf("The editor paints tile grids; %s's content is %s.", name, firstLine(describeSpace(p.ContentSpace()))))
		return
	}
	ed.Load(name, p, p.ContentSpace().Sample(newRand(0)))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Load starts editing content (a grid of problem p).
func (ed *editorPanel) Load(name string, p problems.Problem, content problems.Content) bool {
	g, ok := tileGridOf(p)
	if !ok {
		return false
	}
	ed.hasPending = false
	ed.name, ed.problem, ed.grid = name, p, g
	ed.cells = gridOfContent(content)
	ed.undo, ed.redo = nil, nil
	ed.title.SetText(fmt.Sprintf("%s · %d × %d", name, g.Cols, g.Rows))
	ed.buildPalette()
	ed.setEnabled(true)
	ed.changed()
	return true
}

func (ed *editorPanel) buildPalette() {
	swatches := tileSwatches(ed.problem, ed.grid)
	names := tileNames(ed.name, ed.problem, ed.grid)
	ed.Palette = nil
	ed.palette.RemoveAll()
	for i, v := range gridTiles(ed.grid) {
		b := newTileButton(v, i, names[i], swatches[i], func(v int) { ed.setTile(v) })
		ed.Palette = append(ed.Palette, b)
		ed.palette.Add(b)
	}
	ed.setTile(ed.grid.Min + min(1, ed.grid.Max-ed.grid.Min-1))
	ed.palette.Refresh()
}

// tileNames are the names of the grid's tile values, from the problem's legend (levelio): "wall",
// "key", … ("tile 3" for a problem without one).
func tileNames(name string, p problems.Problem, g tileGrid) []string {
	out := make([]string, 0, g.Max-g.Min)
	legend, lg, err := levelio.LegendOf(name, p)
	for v := g.Min; v < g.Max; v++ {
		if i := v - lg.Min; err == nil && i >= 0 && i < len(legend.Names) {
			out = append(out, legend.Names[i])
		} else {
			out = append(out, "tile "+strconv.Itoa(v))
		}
	}
	return out
}

// setTile chooses the tile value painted.
func (ed *editorPanel) setTile(v int) {
	if v < ed.grid.Min || v >= ed.grid.Max {
		return
	}
	ed.tile = v
	for _, b := range ed.Palette {
		b.setSelected(b.Value == v)
	}
}

// paint sets cell (row, col) to the current tile; it reports whether anything changed.
func (ed *editorPanel) paint(row, col int) bool {
	if ed.problem == nil || row < 0 || col < 0 || row >= len(ed.cells) || col >= len(ed.cells[row]) || ed.cells[row][col] == ed.tile {
		return false
	}
	if !ed.stroke {
		ed.pushUndo()
	}
	ed.cells[row][col] = ed.tile
	ed.changed()
	return true
}

// Fill paints every cell with tile v.
func (ed *editorPanel) Fill(v int) {
	if ed.problem == nil {
		return
	}
	ed.pushUndo()
	ed.cells = filledGrid(ed.grid.Rows, ed.grid.Cols, v)
	ed.changed()
}

// random replaces the level by a fresh random one.
func (ed *editorPanel) random() {
	if ed.problem == nil {
		return
	}
	ed.pushUndo()
	ed.nextSeed++
	ed.cells = gridOfContent(ed.problem.ContentSpace().Sample(newRand(ed.nextSeed)))
	ed.changed()
}

// changed redraws the level and recomputes its metrics. Drawing is fast and happens at once;
// the info (which may run a solver) is computed off the UI goroutine, newest edit first.
func (ed *editorPanel) changed() {
	start := time.Now()
	content := contentOfGrid(ed.cells)
	img, err := safeRender(ed.problem, content)
	if err == nil {
		ed.image = img
		ed.canvas.setImage(img, ed.grid)
	}
	drawn := time.Since(start)
	p, control := ed.problem, ed.wb.controls.Control()
	ed.evals.Go(func(ctx context.Context) func() {
		start := time.Now()
		info, err := p.Info(content)
		var q, c float64
		if err == nil {
			q = p.Quality(info)
			if control != nil {
				c = p.Controllability(info, control)
			}
		}
		elapsed := time.Since(start) + drawn
		return func() {
			if err != nil {
				ed.infoText.SetText("info failed: " + err.Error())
				return
			}
			ed.lastInfo, ed.lastQuality, ed.lastControllability, ed.lastElapsed = info, q, c, elapsed
			ed.quality.SetValue(q)
			ed.control.SetValue(c)
			if control == nil {
				ed.control.Hide()
			} else {
				ed.control.Show()
			}
			ed.timing.SetText("recomputed in " + formatMillis(elapsed))
			ed.infoText.SetText(strings.Join(infoLines(info), "\n"))
		}
	})
}

// controlChanged re-judges the level against a new target control.
func (ed *editorPanel) controlChanged() {
	if ed.problem != nil {
		ed.changed()
	}
}

func formatMillis(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

// handleKey picks palette tiles with the digit keys (1 is the first tile) and undoes with
// Backspace; it reports whether it used the key.
func (ed *editorPanel) handleKey(k *fyne.KeyEvent) bool {
	if ed.problem == nil {
		return false
	}
	if k.Name == fyne.KeyBackspace {
		ed.Undo()
		return true
	}
	if ed.playKey(k) {
		return true
	}
	if len(k.Name) == 1 && k.Name[0] >= '1' && k.Name[0] <= '9' {
		i := int(k.Name[0] - '1')
		if i < len(ed.Palette) {
			ed.setTile(ed.Palette[i].Value)
			return true
		}
	}
	return false
}

// editMember opens a level in the editor (and brings the Editor tab to the front): the
// problem panel switches to its problem and its control becomes the target control.
func (wb *Workbench) editMember(name string, p problems.Problem, m member) {
	if wb.problemName != name {
		if err := wb.selectProblem(name); err != nil {
			return
		}
		_, p, _ = wb.currentProblem()
	}
	if m.Control != nil {
		wb.controls.setControl(m.Control)
	}
	if wb.editor.Load(name, p, m.Content) {
		wb.showTab("editor")
	}
}

// tips are the Editor tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (ed *editorPanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		ed.undoButton:      "Take back the last stroke (Ctrl+Z; Ctrl+Shift+Z redoes it).",
		ed.randomButton:    "Replace the level with a random one of the problem.",
		ed.fillButton:      "Fill the whole level with the selected tile.",
		ed.pngButton:       "Save the level's picture as a PNG file.",
		ed.jsonButton:      "Save the level as JSON (workbench eval reads it).",
		ed.play.playButton: "Play the edited level in its own window.",
		ed.play.openButton: "Open a level from a .txt, .tmx or JSON file.",
		ed.timing:          "How long the last evaluation took (info, quality, controllability and picture).",
		ed.infoText:        "The level's measured properties (the problem's info): what quality, controllability and the Range axes are computed from.",
	}
}
