package app

import (
	"fyne.io/fyne/v2"

	"pcgwb/app/widgets"
)

// keyHandler gets first look at keys and shortcuts; it returns true when it used them.
type keyHandler interface {
	handleShortcut(fyne.Shortcut) bool
	handleKey(*fyne.KeyEvent) bool
}

// newEntry returns a single-line entry that forwards the workbench's shortcuts to keys.
func newEntry(keys keyHandler) *widgets.Entry {
	if keys == nil {
		return widgets.NewEntry(nil, nil)
	}
	return widgets.NewEntry(keys.handleShortcut, keys.handleKey)
}
