package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/internal/appdirs"
)

// Preference keys (Fyne stores them per application ID).
const (
	prefOutputDir   = "output_dir"
	prefDefaultSeed = "default_seed"
	prefTheme       = "theme"
)

// settings are the workbench's preferences: where runs are written, the seed new runs and
// samples start from, and the look.
type settings struct{ p fyne.Preferences }

// prefs returns the workbench's settings, backed by the app's preferences.
func (wb *Workbench) prefs() settings { return settings{wb.app.Preferences()} }

// The window's size is kept between sessions (logical pixels); the first launch is 1280×720,
// and a kept size below minWindow (a window shrunk to nothing) is not restored.
const (
	prefWindowWidth  = "window.width"
	prefWindowHeight = "window.height"
)

var (
	defaultWindow = fyne.NewSize(1280, 720)
	minWindow     = fyne.NewSize(640, 400)
)

// windowSize is the size the window had when it was last closed, or the default.
func (s settings) windowSize() fyne.Size {
	w, h := float32(s.p.Float(prefWindowWidth)), float32(s.p.Float(prefWindowHeight))
	if w < minWindow.Width || h < minWindow.Height || w > 16384 || h > 16384 {
		return defaultWindow
	}
	return fyne.NewSize(w, h)
}

// setWindowSize keeps the window's size for the next session.
func (s settings) setWindowSize(size fyne.Size) {
	if size.Width < minWindow.Width || size.Height < minWindow.Height {
		return
	}
	s.p.SetFloat(prefWindowWidth, float64(size.Width))
	s.p.SetFloat(prefWindowHeight, float64(size.Height))
}

// defaultOutputDir is where runs go unless the settings say otherwise.
func defaultOutputDir() string { return appdirs.RunsDir() }

// outputDir is the folder new run folders are created in.
func (s settings) outputDir() string {
	if d := strings.TrimSpace(s.p.String(prefOutputDir)); d != "" {
		return d
	}
	return defaultOutputDir()
}

// setOutputDir changes the output folder ("" restores the default).
func (s settings) setOutputDir(dir string) { s.p.SetString(prefOutputDir, strings.TrimSpace(dir)) }

// defaultSeed is the seed the Sample and Run panels start with.
func (s settings) defaultSeed() uint64 {
	n, err := strconv.ParseUint(s.p.StringWithFallback(prefDefaultSeed, "0"), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// setDefaultSeed changes the default seed.
func (s settings) setDefaultSeed(seed uint64) {
	s.p.SetString(prefDefaultSeed, strconv.FormatUint(seed, 10))
}

// themeName is the chosen look (one of themeNames).
func (s settings) themeName() string {
	name := s.p.StringWithFallback(prefTheme, themeDark)
	for _, n := range themeNames() {
		if n == name {
			return n
		}
	}
	return themeDark
}

// setThemeName changes the look.
func (s settings) setThemeName(name string) { s.p.SetString(prefTheme, name) }

// settingsForm is the settings dialog's content.
type settingsForm struct {
	outputDir *widget.Entry
	browse    *widget.Button
	seed      *widget.Entry
	theme     *widget.RadioGroup
	form      *widget.Form
}

// showSettings opens the settings dialog; Save applies and stores the changes.
func (wb *Workbench) showSettings() *settingsForm {
	s := wb.prefs()
	f := &settingsForm{}
	f.outputDir = widget.NewEntry()
	f.outputDir.SetText(s.outputDir())
	f.browse = widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		wb.pickFolder("Output folder for runs", "Choose", f.outputDir.Text, f.outputDir.SetText)
	})
	f.seed = widget.NewEntry()
	f.seed.SetText(strconv.FormatUint(s.defaultSeed(), 10))
	f.seed.Validator = func(text string) error {
		_, err := parseSeed(text)
		return err
	}
	f.theme = widget.NewRadioGroup(themeNames(), nil)
	f.theme.Horizontal = true
	f.theme.SetSelected(s.themeName())
	f.form = widget.NewForm(
		widget.NewFormItem("Output folder", container.NewBorder(nil, nil, nil, f.browse, f.outputDir)),
		widget.NewFormItem("Default seed", f.seed),
		widget.NewFormItem("Theme", f.theme),
	)
	d := dialog.NewCustomConfirm("Settings", "Save", "Cancel", f.form, func(ok bool) {
		if ok {
			wb.applySettings(f)
		}
	}, wb.Window)
	d.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(640, 0)))
	d.Show()
	wb.settingsForm = f
	return f
}

// applySettings stores the form's values and applies the theme at once.
func (wb *Workbench) applySettings(f *settingsForm) {
	s := wb.prefs()
	s.setOutputDir(f.outputDir.Text)
	if seed, err := parseSeed(f.seed.Text); err == nil {
		s.setDefaultSeed(seed)
	}
	if f.theme.Selected != "" {
		s.setThemeName(f.theme.Selected)
		wb.app.Settings().SetTheme(newThemeNamed(f.theme.Selected))
	}
}

// existingParent walks up from dir to a folder that exists (for a dialog's start location).
func existingParent(dir string) string {
	dir = filepath.Clean(dir)
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			if home, err := os.UserHomeDir(); err == nil {
				return home
			}
			return "/"
		}
		dir = parent
	}
}
