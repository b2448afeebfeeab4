package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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

// DefaultOutputDir is where runs go unless the settings say otherwise.
func DefaultOutputDir() string {
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "pcg-workbench", "runs")
	}
	return "runs"
}

// OutputDir is the folder new run folders are created in.
func (s Settings) OutputDir() string {
	if d := strings.TrimSpace(s.p.String(prefOutputDir)); d != "" {
		return d
	}
	return DefaultOutputDir()
}

// SetOutputDir changes the output folder ("" restores the default).
func (s Settings) SetOutputDir(dir string) { s.p.SetString(prefOutputDir, strings.TrimSpace(dir)) }

// DefaultSeed is the seed the Sample and Run panels start with.
func (s Settings) DefaultSeed() uint64 {
	n, err := strconv.ParseUint(s.p.StringWithFallback(prefDefaultSeed, "0"), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// SetDefaultSeed changes the default seed.
func (s Settings) SetDefaultSeed(seed uint64) {
	s.p.SetString(prefDefaultSeed, strconv.FormatUint(seed, 10))
}

// ThemeName is the chosen look (one of ThemeNames).
func (s Settings) ThemeName() string {
	name := s.p.StringWithFallback(prefTheme, ThemeDark)
	for _, n := range ThemeNames() {
		if n == name {
			return n
		}
	}
	return ThemeDark
}

// SetThemeName changes the look.
func (s Settings) SetThemeName(name string) { s.p.SetString(prefTheme, name) }

// SettingsForm is the settings dialog's content.
type SettingsForm struct {
	OutputDir *widget.Entry
	Browse    *widget.Button
	Seed      *widget.Entry
	Theme     *widget.RadioGroup
	Form      *widget.Form
}

// ShowSettings opens the settings dialog; Save applies and stores the changes.
func (wb *Workbench) ShowSettings() *SettingsForm {
	s := wb.Settings()
	f := &SettingsForm{}
	f.OutputDir = widget.NewEntry()
	f.OutputDir.SetText(s.OutputDir())
	f.Browse = widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				f.OutputDir.SetText(u.Path())
			}
		}, wb.Window)
		if l, err := storage.ListerForURI(storage.NewFileURI(existingParent(f.OutputDir.Text))); err == nil {
			d.SetLocation(l)
		}
		d.Show()
	})
	f.Seed = widget.NewEntry()
	f.Seed.SetText(strconv.FormatUint(s.DefaultSeed(), 10))
	f.Seed.Validator = func(text string) error {
		_, err := parseSeed(text)
		return err
	}
	f.Theme = widget.NewRadioGroup(ThemeNames(), nil)
	f.Theme.Horizontal = true
	f.Theme.SetSelected(s.ThemeName())
	f.Form = widget.NewForm(
		widget.NewFormItem("Output folder", container.NewBorder(nil, nil, nil, f.Browse, f.OutputDir)),
		widget.NewFormItem("Default seed", f.Seed),
		widget.NewFormItem("Theme", f.Theme),
	)
	d := dialog.NewCustomConfirm("Settings", "Save", "Cancel", f.Form, func(ok bool) {
		if ok {
			wb.ApplySettings(f)
		}
	}, wb.Window)
	d.Resize(fyne.NewSize(640, 0))
	d.Show()
	wb.settingsForm = f
	return f
}

// ApplySettings stores the form's values and applies the theme at once.
func (wb *Workbench) ApplySettings(f *SettingsForm) {
	s := wb.Settings()
	s.SetOutputDir(f.OutputDir.Text)
	if seed, err := parseSeed(f.Seed.Text); err == nil {
		s.SetDefaultSeed(seed)
	}
	if f.Theme.Selected != "" {
		s.SetThemeName(f.Theme.Selected)
		wb.App.Settings().SetTheme(NewThemeNamed(f.Theme.Selected))
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
