package app

import (
	"bytes"
	"fmt"
	"image/png"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/assets"
	"pcgwb/internal/version"
)

func ctrl(k fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}

var (
	shortcutSample   = ctrl(fyne.KeyR)
	shortcutNewSeed  = ctrl(fyne.KeyN)
	shortcutFilter   = ctrl(fyne.KeyF)
	shortcutStart    = ctrl(fyne.KeyReturn)
	shortcutPause    = ctrl(fyne.KeyP)
	shortcutCancel   = ctrl(fyne.KeyPeriod)
	shortcutOpen     = ctrl(fyne.KeyO)
	shortcutSave     = ctrl(fyne.KeyS)
	shortcutExport   = ctrl(fyne.KeyE)
	shortcutSettings = ctrl(fyne.KeyComma)
	shortcutQuit     = ctrl(fyne.KeyQ)
	// shortcutTabs[i] brings tabTable[i] to the front.
	shortcutTabs = []*desktop.CustomShortcut{ctrl(fyne.Key1), ctrl(fyne.Key2), ctrl(fyne.Key3), ctrl(fyne.Key4),
		ctrl(fyne.Key5), ctrl(fyne.Key6), ctrl(fyne.Key7), ctrl(fyne.Key8), ctrl(fyne.Key9)}
)

// tabShortcuts are the shortcuts of the tabs there are (Ctrl+1 for the first…).
func tabShortcuts() []*desktop.CustomShortcut {
	return shortcutTabs[:min(len(tabTable), len(shortcutTabs))]
}

// shortcuts lists the keyboard shortcuts for the help dialog.
func shortcuts() [][2]string {
	var tabs string
	for i, t := range tabTable[:len(tabShortcuts())] {
		if i > 0 {
			tabs += ", "
		}
		tabs += t.title
	}
	return [][2]string{
		{"Ctrl+R, F5", "sample the selected problem"},
		{"Ctrl+N", "sample with a new seed"},
		{"Ctrl+F", "filter the problem list"},
		{"Ctrl+Enter", "start or resume the run"},
		{"Ctrl+P", "pause the run"},
		{"Ctrl+.", "cancel the run"},
		{fmt.Sprintf("Ctrl+1 … Ctrl+%d", len(tabShortcuts())), tabs},
		{"Ctrl+O", "open a run folder"},
		{"Ctrl+S", "save a copy of the run folder"},
		{"Ctrl+E", "export the levels of the gallery in front"},
		{"Ctrl+Z, Backspace", "undo in the editor"},
		{"Ctrl+Shift+Z, Ctrl+Y", "redo in the editor"},
		{"Tab, Shift+Tab", "focus the next control, card or cell"},
		{"Arrows, Home, End", "move between cards, cells or tiles"},
		{"Enter, Space", "open the card, list the cell, paint"},
		{"1 … 9", "choose the editor's tile"},
		{"P", "play the edited level"},
		{"Ctrl+,", "settings"},
		{"Escape", "close the dialog in front"},
		{"Ctrl+Q", "quit"},
		{"F1", "this list"},
	}
}

// shortcutList is every shortcut the window installs, in the order of the shortcuts list
// (PressEverything types them all).
func (wb *Workbench) shortcutList() []fyne.Shortcut {
	var all []fyne.Shortcut
	for _, s := range []*desktop.CustomShortcut{shortcutSample, shortcutNewSeed, shortcutFilter, shortcutStart,
		shortcutPause, shortcutCancel, shortcutOpen, shortcutSave, shortcutExport, shortcutSettings, shortcutQuit} {
		all = append(all, s)
	}
	for _, s := range tabShortcuts() {
		all = append(all, s)
	}
	// Fyne delivers Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y) as its own Undo and Redo shortcuts.
	return append(all, &fyne.ShortcutUndo{}, &fyne.ShortcutRedo{})
}

func (wb *Workbench) installShortcuts() {
	c := wb.Window.Canvas()
	for _, s := range wb.shortcutList() {
		c.AddShortcut(s, func(s fyne.Shortcut) { wb.handleShortcut(s) })
	}
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { wb.handleKey(k) })
}

// isQuitShortcut reports whether s quits the workbench.
func isQuitShortcut(s fyne.Shortcut) bool { return s.ShortcutName() == shortcutQuit.ShortcutName() }

// shortcutText is a shortcut as the shortcuts list writes it ("Ctrl+O").
func shortcutText(s fyne.Shortcut) string {
	if c, ok := s.(*desktop.CustomShortcut); ok {
		return "Ctrl+" + string(c.KeyName)
	}
	return s.ShortcutName()
}

// quit closes the workbench as File → Quit does: its background work cancelled first.
func (wb *Workbench) quit() {
	wb.Close()
	wb.app.Quit()
}

// handleShortcut runs the workbench's shortcuts (see shortcuts).
func (wb *Workbench) handleShortcut(s fyne.Shortcut) bool {
	switch s.ShortcutName() {
	case shortcutSample.ShortcutName():
		wb.samples.Sample()
	case shortcutNewSeed.ShortcutName():
		wb.samples.newSeed()
	case shortcutFilter.ShortcutName():
		wb.Window.Canvas().Focus(wb.picker.filter)
	case shortcutStart.ShortcutName():
		wb.StartRun()
	case shortcutPause.ShortcutName():
		wb.run.pause()
	case shortcutCancel.ShortcutName():
		wb.run.Cancel()
	case shortcutOpen.ShortcutName():
		wb.showOpenFolder(false)
	case shortcutSave.ShortcutName():
		wb.showSaveRunAs()
	case shortcutExport.ShortcutName():
		wb.showExport(wb.frontGallery())
	case shortcutSettings.ShortcutName():
		wb.showSettings()
	case shortcutQuit.ShortcutName():
		wb.quit()
	case (&fyne.ShortcutUndo{}).ShortcutName():
		if wb.frontTab() != "editor" {
			return false // an entry's own undo
		}
		wb.editor.Undo()
	case (&fyne.ShortcutRedo{}).ShortcutName():
		if wb.frontTab() != "editor" {
			return false
		}
		wb.editor.Redo()
	default:
		for i, t := range tabShortcuts() {
			if s.ShortcutName() == t.ShortcutName() {
				wb.tabs.SelectIndex(i)
				return true
			}
		}
		return false
	}
	return true
}

// handleKey runs F5 (sample, as "refresh" in a browser), F1 (shortcuts), Escape (closes the
// dialog in front) and, in the editor, the palette keys.
func (wb *Workbench) handleKey(k *fyne.KeyEvent) bool {
	switch k.Name {
	case fyne.KeyF5:
		wb.samples.Sample()
		return true
	case fyne.KeyF1:
		wb.showShortcuts()
		return true
	case fyne.KeyEscape:
		if top := wb.Window.Canvas().Overlays().Top(); top != nil {
			wb.Window.Canvas().Overlays().Remove(top)
			return true
		}
	}
	if wb.frontTab() == "editor" {
		return wb.editor.handleKey(k)
	}
	return false
}

// showShortcuts opens the list of keyboard shortcuts.
func (wb *Workbench) showShortcuts() {
	rows := container.NewGridWithColumns(2)
	for _, s := range shortcuts() {
		k := widget.NewLabel(s[0])
		k.TextStyle = fyne.TextStyle{Bold: true, Monospace: true}
		rows.Add(k)
		rows.Add(widget.NewLabel(s[1]))
	}
	d := dialog.NewCustom("Keyboard shortcuts", "Close", container.NewVScroll(rows), wb.Window)
	d.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(640, 640)))
	d.Show()
}

// aboutText is the Help → About dialog's text.
const aboutText = `PCG Workbench: sample, generate, edit and compare levels of the procedural content ` +
	`generation benchmark's problems, with the same metrics as the reference (quality, diversity, ` +
	`controllability).

The command line (workbench help) runs the same flows without a window; docs/cli.md describes ` +
	`every command and the run folders; F1 lists the keyboard shortcuts.`

// showGuide opens Help → Guide: the embedded user guide, rendered from Markdown.
func (wb *Workbench) showGuide() {
	text := widget.NewRichTextFromMarkdown(assets.Guide)
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("PCG Workbench guide", "Close", container.NewVScroll(text), wb.Window)
	d.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(720, 640)))
	d.Show()
}

// aboutBuild is the About dialog's last paragraph: the build (version and revision, for a bug
// report) and the licence.
func aboutBuild() string {
	return fmt.Sprintf("Version: %s\nLicence: %s (the LICENSE file; third-party notices in THIRD_PARTY_NOTICES)",
		version.String(), version.License)
}

// showAbout opens Help → About.
func (wb *Workbench) showAbout() {
	text := widget.NewLabel(aboutText + "\n\n" + aboutBuild())
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("About PCG Workbench", "Close", text, wb.Window)
	d.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(520, 260)))
	d.Show()
}

func (wb *Workbench) mainMenu() *fyne.MainMenu {
	item := func(label string, s fyne.Shortcut, f func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, f)
		it.Shortcut = s
		return it
	}
	// Fyne adds a Quit item without a shortcut when the File menu has none: this one has Ctrl+Q.
	quitItem := item("Quit", shortcutQuit, wb.quit)
	quitItem.IsQuit = true
	file := fyne.NewMenu("File",
		item("Open run folder…", shortcutOpen, func() { wb.showOpenFolder(false) }),
		fyne.NewMenuItem("Add run folder to Compare…", func() { wb.showOpenFolder(true) }),
		item("Save run folder as…", shortcutSave, wb.showSaveRunAs),
		item("Export levels…", shortcutExport, func() { wb.showExport(wb.frontGallery()) }),
		fyne.NewMenuItemSeparator(),
		item("Settings…", shortcutSettings, func() { wb.showSettings() }),
		fyne.NewMenuItemSeparator(),
		quitItem,
	)
	run := fyne.NewMenu("Run",
		item("Sample", shortcutSample, wb.samples.Sample),
		item("Sample with a new seed", shortcutNewSeed, wb.samples.newSeed),
		fyne.NewMenuItemSeparator(),
		item("Start / resume run", shortcutStart, wb.StartRun),
		item("Pause run", shortcutPause, wb.run.pause),
		item("Cancel run", shortcutCancel, wb.run.Cancel),
	)
	var views []*fyne.MenuItem
	for i, t := range tabTable[:len(tabShortcuts())] {
		i := i
		views = append(views, item(t.title, shortcutTabs[i], func() { wb.tabs.SelectIndex(i) }))
	}
	help := fyne.NewMenu("Help",
		fyne.NewMenuItem("Guide", wb.showGuide),
		fyne.NewMenuItem("Keyboard shortcuts (F1)", wb.showShortcuts),
		fyne.NewMenuItem("About PCG Workbench", wb.showAbout))
	return fyne.NewMainMenu(file, run, fyne.NewMenu("View", views...), help)
}

// appIcon is the player sprite, the workbench's mark.
func appIcon() fyne.Resource {
	var buf bytes.Buffer
	if err := png.Encode(&buf, assets.Sprite("player")); err != nil {
		return theme.FyneLogo()
	}
	return fyne.NewStaticResource("pcg-workbench.png", buf.Bytes())
}
