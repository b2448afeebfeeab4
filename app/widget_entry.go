package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// keyHandler gets first look at keys and shortcuts; it returns true when it used them.
type keyHandler interface {
	handleShortcut(fyne.Shortcut) bool
	handleKey(*fyne.KeyEvent) bool
}

// entry is a text entry that lets the workbench's own shortcuts (Ctrl+R, F5, …) through while
// it has the focus; a plain widget.Entry would swallow them.
type entry struct {
	widget.Entry
	keys keyHandler
}

// newEntry returns a single-line entry that forwards the workbench's shortcuts to keys.
func newEntry(keys keyHandler) *entry {
	e := &entry{keys: keys}
	e.ExtendBaseWidget(e)
	return e
}

func (e *entry) TypedShortcut(s fyne.Shortcut) {
	if e.keys != nil && e.keys.handleShortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

func (e *entry) TypedKey(k *fyne.KeyEvent) {
	if e.keys != nil && e.keys.handleKey(k) {
		return
	}
	e.Entry.TypedKey(k)
}
