package app

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/play"
	"pcgwb/problems/levelio"
)

// editorPlay is the Editor's Play and Open: playtest the edited level in the play window, and
// open a level file (an item file, VGLC-style text or a Tiled map) into the editor.
type editorPlay struct {
	playButton *widget.Button
	openButton *widget.Button
	// lastPlay is the outcome of the last play of an edited level (nil before any).
	lastPlay *play.Outcome
}

// newEditorPlay makes the Editor's Play and Open buttons.
func newEditorPlay(ed *editorPanel) *editorPlay {
	ep := &editorPlay{}
	ep.playButton = widget.NewButtonWithIcon("Play", theme.MediaPlayIcon(), ed.Play)
	ep.openButton = widget.NewButtonWithIcon("Open…", theme.FolderOpenIcon(), ed.showOpenLevel)
	return ep
}

// enable turns Play on for an edited level of a playable problem, Open for any tile problem.
func (ep *editorPlay) enable(ed *editorPanel, on bool) {
	if on {
		ep.openButton.Enable()
	} else {
		ep.openButton.Disable()
	}
	if on && CanPlay(ed.name) {
		ep.playButton.Enable()
	} else {
		ep.playButton.Disable()
	}
}

// Play opens the play window on the edited level (wb.PlayLevel): the status line says when it
// opens and, once it closes, the outcome.
func (ed *editorPanel) Play() {
	if ed.problem == nil {
		return
	}
	if !CanPlay(ed.name) {
		ed.wb.notify(ed.name + " has no play view.")
		return
	}
	m := ed.member()
	ed.wb.playLevel(ed.name, m.Item(), false, func(o *play.Outcome) { ed.play.lastPlay = o })
}

// openLevels loads the first level of a file into the editor: an item file (.json), VGLC-style
// text (.txt, one character per tile) or a Tiled map (.tmx), read for the edited problem by
// levelio.LoadLevels. The load is one undo step.
func (ed *editorPanel) openLevels(path string) error {
	if ed.problem == nil {
		return fmt.Errorf("pick a tile problem before opening a level")
	}
	items, err := levelio.LoadLevels(ed.name, ed.problem, path)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return fmt.Errorf("%s holds no level", filepath.Base(path))
	}
	cells, err := levelio.Cells(items[0].Content)
	if err != nil {
		return err
	}
	if len(cells) != ed.grid.Rows || len(cells[0]) != ed.grid.Cols {
		return fmt.Errorf("%s is %d × %d, %s levels are %d × %d", filepath.Base(path), len(cells[0]), len(cells), ed.name, ed.grid.Cols, ed.grid.Rows)
	}
	ed.pushUndo()
	ed.cells = cells
	if items[0].Control != nil {
		ed.wb.controls.setControl(items[0].Control)
	}
	ed.changed()
	msg := "Opened " + filepath.Base(path)
	if len(items) > 1 {
		msg += fmt.Sprintf(" (level 1 of %d)", len(items))
	}
	ed.wb.notify(msg + ".")
	return nil
}

// showOpenLevel asks for a level file and opens it (OpenLevels).
func (ed *editorPanel) showOpenLevel() {
	ed.wb.pickFile("Open a level (item JSON, VGLC text, Tiled map)", "Open", ed.wb.prefs().outputDir(),
		[]string{".json", ".txt", ".tmx"}, func(path string) {
			if err := ed.openLevels(path); err != nil {
				dialog.ShowError(err, ed.wb.Window)
			}
		})
}

// playKey runs the Editor's play key, P.
func (ed *editorPanel) playKey(k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyP {
		return false
	}
	ed.Play()
	return true
}
