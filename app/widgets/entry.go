package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Entry is a text entry that lets the window's own shortcuts (Ctrl+R, F5, …) through while it
// has the focus; a plain widget.Entry would swallow them.
type Entry struct {
	widget.Entry
	shortcut func(fyne.Shortcut) bool
	key      func(*fyne.KeyEvent) bool
}

// NewEntry returns a single-line entry that offers every shortcut to shortcut and every key
// to key first (either may be nil); what they return true for, the entry does not see.
func NewEntry(shortcut func(fyne.Shortcut) bool, key func(*fyne.KeyEvent) bool) *Entry {
	e := &Entry{shortcut: shortcut, key: key}
	e.ExtendBaseWidget(e)
	return e
}

func (e *Entry) TypedShortcut(s fyne.Shortcut) {
	if e.shortcut != nil && e.shortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	if e.key != nil && e.key(k) {
		return
	}
	e.Entry.TypedKey(k)
}
