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

	"pcgwb/problems"
)

// maxUndo bounds the editor's undo history.
const maxUndo = 200

// EditorPanel is the Editor tab: paint the tiles of a level of a tile problem and watch its
// quality and controllability (against the problem panel's target control) recomputed as you
// paint.
type EditorPanel struct {
	Canvas       *EditorCanvas
	Palette      []*TileButton
	Quality      *Badge
	Control      *Badge
	Timing       *widget.Label
	InfoText     *widget.Label
	Title        *widget.Label
	Message      *widget.Label
	UndoButton   *widget.Button
	RandomButton *widget.Button
	FillButton   *widget.Button
	PNGButton    *widget.Button
	JSONButton   *widget.Button

	// LastQuality, LastControllability and LastInfo are the latest evaluation shown;
	// LastElapsed is what it took (info, quality, controllability and picture).
	LastQuality, LastControllability float64
	LastInfo                         problems.Info
	LastElapsed                      time.Duration

	wb       *Workbench
	name     string
	problem  problems.Problem
	grid     TileGrid
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

func newEditorPanel(wb *Workbench) *EditorPanel {
	ed := &EditorPanel{wb: wb}
	ed.Canvas = newEditorCanvas(ed)
	ed.Quality = NewBadge("Quality", 0)
	ed.Control = NewBadge("Controllability", 0)
	ed.Timing = widget.NewLabel("")
	ed.Timing.SizeName = theme.SizeNameCaptionText
	ed.Timing.Importance = widget.LowImportance
	ed.InfoText = widget.NewLabel("")
	ed.InfoText.TextStyle = fyne.TextStyle{Monospace: true}
	ed.Title = widget.NewLabel("")
	ed.Title.TextStyle = fyne.TextStyle{Bold: true}
	ed.Message = widget.NewLabel("")
	ed.Message.Wrapping = fyne.TextWrapWord
	ed.Message.Alignment = fyne.TextAlignCenter
	ed.UndoButton = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), ed.Undo)
	ed.RandomButton = widget.NewButtonWithIcon("Random level", theme.ViewRefreshIcon(), ed.Random)
	ed.FillButton = widget.NewButtonWithIcon("Fill", theme.ContentClearIcon(), func() { ed.Fill(ed.tile) })
	ed.PNGButton = widget.NewButtonWithIcon("PNG…", theme.FileImageIcon(), func() {
		wb.saveFileDialog(ed.name+"-edited.png", func() ([]byte, error) {
			if ed.image == nil {
				return nil, fmt.Errorf("nothing drawn")
			}
			return EncodePNG(ed.image)
		})
	})
	ed.JSONButton = widget.NewButtonWithIcon("JSON…", theme.FileTextIcon(), func() {
		wb.saveFileDialog(ed.name+"-edited.json", func() ([]byte, error) {
			return ItemsJSON(ed.name, []Member{ed.Member()})
		})
	})
	ed.palette = container.NewVBox()
	tools := container.NewHBox(ed.RandomButton, ed.FillButton, ed.UndoButton, widget.NewSeparator(), ed.PNGButton, ed.JSONButton)
	infoScroll := container.NewScroll(ed.InfoText) // scrolls sideways too: long paths stay readable
	right := container.NewBorder(
		container.NewVBox(sectionTitle("LIVE METRICS"), container.NewHBox(ed.Quality), container.NewHBox(ed.Control), ed.Timing, sectionTitle("INFO")),
		nil, nil, nil, infoScroll)
	left := container.NewBorder(sectionTitle("TILES  (1–9)"), nil, nil, nil, container.NewVScroll(ed.palette))
	ed.body = container.NewBorder(nil, nil, fixedWidth(150, left), fixedWidth(280, right), ed.Canvas)
	ed.content = container.NewBorder(container.NewBorder(nil, nil, ed.Title, tools), nil, nil, nil,
		container.NewStack(ed.body, container.NewCenter(ed.Message)))
	ed.setEnabled(false)
	ed.Message.SetText("Pick a tile problem (binary, zelda, sokoban, …) or open a level from a gallery with \"Edit tiles\".")
	return ed
}

// Content is the panel's root object.
func (ed *EditorPanel) Content() fyne.CanvasObject { return ed.content }

// Cells returns the grid being edited (do not modify).
func (ed *EditorPanel) Cells() [][]int { return ed.cells }

// Tile is the palette value being painted.
func (ed *EditorPanel) Tile() int { return ed.tile }

// Member returns the edited level as a member (latest evaluation).
func (ed *EditorPanel) Member() Member {
	return Member{Content: ContentOfGrid(ed.cells), Control: ed.wb.Controls.Control(), Info: ed.LastInfo,
		Quality: ed.LastQuality, Controllability: ed.LastControllability, Fitness: ed.LastQuality, Cell: -1}
}

// Wait blocks until the latest recomputation is shown, at most timeout.
func (ed *EditorPanel) Wait(timeout time.Duration) error { return ed.evals.Wait(timeout) }

func (ed *EditorPanel) setEnabled(on bool) {
	for _, b := range []*widget.Button{ed.UndoButton, ed.RandomButton, ed.FillButton, ed.PNGButton, ed.JSONButton} {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	if on {
		ed.body.Show()
		ed.Message.Hide()
	} else {
		ed.body.Hide()
		ed.Message.Show()
	}
	if on && len(ed.undo) == 0 {
		ed.UndoButton.Disable()
	}
}

// problemChanged notes the new problem; its first level is loaded when the Editor tab comes
// to the front (loading evaluates it, which need not happen for every problem looked at).
func (ed *EditorPanel) problemChanged(name string, p problems.Problem) {
	ed.pending, ed.pendingName, ed.hasPending = p, name, true
	if ed.wb.frontTab() == "editor" {
		ed.loadPending()
	}
}

// loadPending loads a random level of the problem selected last, when it is a tile problem.
func (ed *EditorPanel) loadPending() {
	if !ed.hasPending {
		return
	}
	name, p := ed.pendingName, ed.pending
	ed.pending, ed.hasPending = nil, false
	if p == nil {
		ed.name, ed.problem = name, nil
		ed.Title.SetText(name)
		ed.setEnabled(false)
		ed.Message.SetText(name + " cannot be edited: it is not available.")
		return
	}
	if _, ok := TileGridOf(p); !ok {
		ed.name, ed.problem = name, nil
		ed.Title.SetText(name)
		ed.setEnabled(false)
		ed.Message.SetText(fmt.Sprintf("The editor paints tile grids; %s's content is %s.", name, firstLine(DescribeSpace(p.ContentSpace()))))
		return
	}
	ed.Load(name, p, p.ContentSpace().Sample(NewRand(0)))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Load starts editing content (a grid of problem p).
func (ed *EditorPanel) Load(name string, p problems.Problem, content problems.Content) bool {
	g, ok := TileGridOf(p)
	if !ok {
		return false
	}
	ed.hasPending = false
	ed.name, ed.problem, ed.grid = name, p, g
	ed.cells = GridOfContent(content)
	ed.undo, ed.redo = nil, nil
	ed.Title.SetText(fmt.Sprintf("%s · %d × %d", name, g.Cols, g.Rows))
	ed.buildPalette()
	ed.setEnabled(true)
	ed.changed()
	return true
}

func (ed *EditorPanel) buildPalette() {
	swatches := TileSwatches(ed.problem, ed.grid)
	ed.Palette = nil
	ed.palette.RemoveAll()
	for i, v := range ed.grid.Tiles() {
		b := newTileButton(v, i, swatches[i], func(v int) { ed.SetTile(v) })
		ed.Palette = append(ed.Palette, b)
		ed.palette.Add(b)
	}
	ed.SetTile(ed.grid.Min + min(1, ed.grid.Max-ed.grid.Min-1))
	ed.palette.Refresh()
}

// SetTile chooses the tile value painted.
func (ed *EditorPanel) SetTile(v int) {
	if v < ed.grid.Min || v >= ed.grid.Max {
		return
	}
	ed.tile = v
	for _, b := range ed.Palette {
		b.SetSelected(b.Value == v)
	}
}

// Paint sets cell (row, col) to the current tile; it reports whether anything changed.
func (ed *EditorPanel) Paint(row, col int) bool {
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

func (ed *EditorPanel) pushUndo() {
	snap := make([][]int, len(ed.cells))
	for i, r := range ed.cells {
		snap[i] = append([]int(nil), r...)
	}
	ed.undo = append(ed.undo, snap)
	ed.redo = nil
	if len(ed.undo) > maxUndo {
		ed.undo = ed.undo[1:]
	}
	ed.UndoButton.Enable()
}

// Undo takes back the last stroke.
func (ed *EditorPanel) Undo() {
	if len(ed.undo) == 0 {
		return
	}
	ed.redo = append(ed.redo, ed.cells)
	ed.cells = ed.undo[len(ed.undo)-1]
	ed.undo = ed.undo[:len(ed.undo)-1]
	if len(ed.undo) == 0 {
		ed.UndoButton.Disable()
	}
	ed.changed()
}

// Redo paints again the last stroke Undo took back.
func (ed *EditorPanel) Redo() {
	if len(ed.redo) == 0 {
		return
	}
	ed.undo = append(ed.undo, ed.cells)
	ed.cells = ed.redo[len(ed.redo)-1]
	ed.redo = ed.redo[:len(ed.redo)-1]
	ed.UndoButton.Enable()
	ed.changed()
}

// Fill paints every cell with tile v.
func (ed *EditorPanel) Fill(v int) {
	if ed.problem == nil {
		return
	}
	ed.pushUndo()
	ed.cells = FilledGrid(ed.grid.Rows, ed.grid.Cols, v)
	ed.changed()
}

// Random replaces the level by a fresh random one.
func (ed *EditorPanel) Random() {
	if ed.problem == nil {
		return
	}
	ed.pushUndo()
	ed.nextSeed++
	ed.cells = GridOfContent(ed.problem.ContentSpace().Sample(NewRand(ed.nextSeed)))
	ed.changed()
}

// changed redraws the level and recomputes its metrics. Drawing is fast and happens at once;
// the info (which may run a solver) is computed off the UI goroutine, newest edit first.
func (ed *EditorPanel) changed() {
	start := time.Now()
	content := ContentOfGrid(ed.cells)
	img, err := safeRender(ed.problem, content)
	if err == nil {
		ed.image = img
		ed.Canvas.SetImage(img, ed.grid)
	}
	drawn := time.Since(start)
	p, control := ed.problem, ed.wb.Controls.Control()
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
				ed.InfoText.SetText("info failed: " + err.Error())
				return
			}
			ed.LastInfo, ed.LastQuality, ed.LastControllability, ed.LastElapsed = info, q, c, elapsed
			ed.Quality.SetValue(q)
			ed.Control.SetValue(c)
			if control == nil {
				ed.Control.Hide()
			} else {
				ed.Control.Show()
			}
			ed.Timing.SetText("recomputed in " + formatMillis(elapsed))
			ed.InfoText.SetText(strings.Join(InfoLines(info), "\n"))
		}
	})
}

// controlChanged re-judges the level against a new target control.
func (ed *EditorPanel) controlChanged() {
	if ed.problem != nil {
		ed.changed()
	}
}

func formatMillis(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

// handleKey picks palette tiles with the digit keys (1 is the first tile) and undoes with
// Backspace; it reports whether it used the key.
func (ed *EditorPanel) handleKey(k *fyne.KeyEvent) bool {
	if ed.problem == nil {
		return false
	}
	if k.Name == fyne.KeyBackspace {
		ed.Undo()
		return true
	}
	if len(k.Name) == 1 && k.Name[0] >= '1' && k.Name[0] <= '9' {
		i := int(k.Name[0] - '1')
		if i < len(ed.Palette) {
			ed.SetTile(ed.Palette[i].Value)
			return true
		}
	}
	return false
}

// EditMember opens a level in the editor (and brings the Editor tab to the front): the
// problem panel switches to its problem and its control becomes the target control.
func (wb *Workbench) EditMember(name string, p problems.Problem, m Member) {
	if wb.problemName != name {
		if err := wb.SelectProblem(name); err != nil {
			return
		}
		_, p, _ = wb.CurrentProblem()
	}
	if m.Control != nil {
		wb.Controls.SetControl(m.Control)
	}
	if wb.Editor.Load(name, p, m.Content) {
		wb.ShowTab("editor")
	}
}
