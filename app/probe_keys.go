package app

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
)

// pressShortcuts types every shortcut the window has installed and its function keys.
func (p *presser) pressShortcuts(ctx context.Context) error {
	for _, s := range p.wb.shortcutList() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if isQuitShortcut(s) {
			p.rep.Skipped = append(p.rep.Skipped, "shortcut: "+shortcutText(s)+" (quits)")
			continue
		}
		p.wb.ui.onUI(func() {
			p.step("shortcut: " + shortcutText(s))
			if h, ok := p.wb.Window.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }); ok {
				h.TypedShortcut(s)
			} else {
				p.wb.handleShortcut(s)
			}
			p.dismissOverlays()
		})
		if err := p.settle(); err != nil {
			return fmt.Errorf("after shortcut %s: %w", shortcutText(s), err)
		}
	}
	for _, k := range []fyne.KeyName{fyne.KeyF1, fyne.KeyF5, fyne.KeyEscape} {
		p.wb.ui.onUI(func() {
			p.step("key: " + string(k))
			if f := p.wb.Window.Canvas().OnTypedKey(); f != nil {
				f(&fyne.KeyEvent{Name: k})
			}
			p.dismissOverlays()
		})
		if err := p.settle(); err != nil {
			return fmt.Errorf("after key %s: %w", k, err)
		}
	}
	return nil
}
