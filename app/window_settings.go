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

// Settings are the workbench's preferences: where runs are written, the seed new runs and
// samples start from, and the look.
type Settings struct{ p fyne.Preferences }

// Settings returns the workbench's settings, backed by the app's preferences.
func (wb *Workbench) Settings() Settings { return Settings{wb.App.Preferences()} }

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
func (s Settings) windowSize() fyne.Size {
	w, h := float32(s.p.Float(prefWindowWidth)), float32(s.p.Float(prefWindowHeight))
	if w < minWindow.Width || h < minWindow.Height || w > 16384 || h > 16384 {
		return defaultWindow
	}
	return fyne.NewSize(w, h)
}

// setWindowSize keeps the window's size for the next session.
func (s Settings) setWindowSize(size fyne.Size) {
	if size.Width < minWindow.Width || size.Height < minWindow.Height {
		return
	}
	s.p.SetFloat(prefWindowWidth, float64(size.Width))
	s.p.SetFloat(prefWindowHeight, float64(size.Height))
}

// defaultOutputDir is where runs go unless the settings say otherwise.
func defaultOutputDir() string { return appdirs.RunsDir() }

// OutputDir is the folder new run folders are created in.
func (s Settings) OutputDir() string {
	if d := strings.TrimSpace(s.p.String(prefOutputDir)); d != "" {
		return d
	}
	return defaultOutputDir()
}

// setOutputDir changes the output folder ("" restores the default).
func (s Settings) setOutputDir(dir string) { s.p.SetString(prefOutputDir, strings.TrimSpace(dir)) }

// DefaultSeed is the seed the Sample and Run panels start with.
func (s Settings) DefaultSeed() uint64 {
	n, err := strconv.ParseUint(s.p.StringWithFallback(prefDefaultSeed, "0"), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// setDefaultSeed changes the default seed.
func (s Settings) setDefaultSeed(seed uint64) {
	s.p.SetString(prefDefaultSeed, strconv.FormatUint(seed, 10))
}

// themeName is the chosen look (one of themeNames).
func (s Settings) themeName() string {
	name := s.p.StringWithFallback(prefTheme, themeDark)
	for _, n := range themeNames() {
		if n == name {
			return n
		}
	}
	return themeDark
}

// setThemeName changes the look.
func (s Settings) setThemeName(name string) { s.p.SetString(prefTheme, name) }

// settingsForm is the settings dialog's content.
type settingsForm struct {
	OutputDir *widget.Entry
	browse    *widget.Button
	Seed      *widget.Entry
	Theme     *widget.RadioGroup
	form      *widget.Form
}

// showSettings opens the settings dialog; Save applies and stores the changes.
func (wb *Workbench) showSettings() *settingsForm {
	s := wb.Settings()
	f := &settingsForm{}
	f.OutputDir = widget.NewEntry()
	f.OutputDir.SetText(s.OutputDir())
	f.browse = widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		wb.pickFolder("Output folder for runs", "Choose", f.OutputDir.Text, f.OutputDir.SetText)
	})
	f.Seed = widget.NewEntry()
	f.Seed.SetText(strconv.FormatUint(s.DefaultSeed(), 10))
	f.Seed.Validator = func(text string) error {
		_, err := parseSeed(text)
		return err
	}
	f.Theme = widget.NewRadioGroup(themeNames(), nil)
	f.Theme.Horizontal = true
	f.Theme.SetSelected(s.themeName())
	f.form = widget.NewForm(
		widget.NewFormItem("Output folder", container.NewBorder(nil, nil, nil, f.browse, f.OutputDir)),
		widget.NewFormItem("Default seed", f.Seed),
		widget.NewFormItem("Theme", f.Theme),
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
	s := wb.Settings()
	s.setOutputDir(f.OutputDir.Text)
	if seed, err := parseSeed(f.Seed.Text); err == nil {
		s.setDefaultSeed(seed)
	}
	if f.Theme.Selected != "" {
		s.setThemeName(f.Theme.Selected)
		wb.App.Settings().SetTheme(newThemeNamed(f.Theme.Selected))
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
