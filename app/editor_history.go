package app

// The Editor's undo and redo history.

func (ed *editorPanel) pushUndo() {
	snap := make([][]int, len(ed.cells))
	for i, r := range ed.cells {
		snap[i] = append([]int(nil), r...)
	}
	ed.undo = append(ed.undo, snap)
	ed.redo = nil
	if len(ed.undo) > maxUndo {
		ed.undo = ed.undo[1:]
	}
	ed.undoButton.Enable()
}

// Undo takes back the last stroke.
func (ed *editorPanel) Undo() {
	if len(ed.undo) == 0 {
		return
	}
	ed.redo = append(ed.redo, ed.cells)
	ed.cells = ed.undo[len(ed.undo)-1]
	ed.undo = ed.undo[:len(ed.undo)-1]
	if len(ed.undo) == 0 {
		ed.undoButton.Disable()
	}
	ed.changed()
}

// Redo paints again the last stroke Undo took back.
func (ed *editorPanel) Redo() {
	if len(ed.redo) == 0 {
		return
	}
	ed.undo = append(ed.undo, ed.cells)
	ed.cells = ed.redo[len(ed.redo)-1]
	ed.redo = ed.redo[:len(ed.redo)-1]
	ed.undoButton.Enable()
	ed.changed()
}
