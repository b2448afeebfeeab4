package app

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"pcgwb/internal/atomicfile"
)

// Export formats.
const (
	exportPNG  = "PNG picture (contact sheet of the levels)"
	exportJSON = "JSON items (content + control, for pcg_benchmark)"
	exportCSV  = "CSV metrics (one row per level)"
	// exportTiled writes a folder, not a file: VGLC-style text with its legend, and Tiled maps
	// over a tileset for the problems drawn tile by tile (levelio.Export).
	exportTiled = "Tiled maps and text (into a folder)"
)

// exportFormats lists the formats in menu order.
func exportFormats() []string { return []string{exportPNG, exportJSON, exportCSV} }

// exportData encodes the levels a gallery shows (after its filter, in its order) in format.
func exportData(pv *populationView, format string) ([]byte, error) {
	members := pv.shownMembers()
	if len(members) == 0 {
		return nil, errors.New("no level to export: the gallery is empty or filtered out")
	}
	name, p := pv.Problem()
	switch format {
	case exportPNG:
		imgs := pv.shownImages()
		for i := range imgs {
			if imgs[i] == nil && p != nil {
				imgs[i], _ = safeRender(p, members[i].Content)
			}
		}
		return encodePNG(contactSheet(imgs, 8))
	case exportJSON:
		return itemsJSON(name, members)
	case exportCSV:
		var buf bytes.Buffer
		if err := metricsCSV(&buf, members); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown export format %q", format)
}

func exportExtension(format string) string {
	switch format {
	case exportPNG:
		return ".png"
	case exportCSV:
		return ".csv"
	}
	return ".json"
}

// exportTo writes the gallery's shown levels to path in format.
func exportTo(pv *populationView, format, path string) error {
	data, err := exportData(pv, format)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

// showExport asks for a format, then a file, and writes the gallery's shown levels there.
func (wb *Workbench) showExport(pv *populationView) {
	if pv == nil || len(pv.shownMembers()) == 0 {
		wb.notify("Nothing to export: the gallery is empty.")
		return
	}
	formats := widget.NewRadioGroup(append(exportFormats(), exportTiled), nil)
	formats.Required = true
	formats.SetSelected(exportJSON)
	count := widget.NewLabel(fmt.Sprintf("%d levels, in the gallery's order and filter.", len(pv.shownMembers())))
	d := dialog.NewCustomConfirm("Export levels", "Choose file…", "Cancel", widget.NewForm(
		widget.NewFormItem("Format", formats), widget.NewFormItem("", count)), func(ok bool) {
		if !ok {
			return
		}
		format := formats.Selected
		if format == exportTiled {
			wb.exportFolderDialog(pv)
			return
		}
		name, _ := pv.Problem()
		wb.saveFileDialog(name+"-levels"+exportExtension(format), func() ([]byte, error) { return exportData(pv, format) })
	}, wb.Window)
	d.Show()
}

// showFileDialog shows a file or folder dialog the workbench's way: a list (long run names are
// not cut), a title and a button that say what it does, and a size that fits the window.
func (wb *Workbench) showFileDialog(d *dialog.FileDialog, title, confirm string) {
	d.SetView(dialog.ListView)
	d.SetTitleText(title)
	d.SetConfirmText(confirm)
	// Show before Resize: Fyne's FileDialog builds its window in Show, and Resize before that
	// dereferences the window that does not exist yet (a nil-pointer panic in Fyne 2.8).
	d.Show()
	d.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(900, 620)))
}

// fitDialog is a dialog size: want, or less where the window is smaller (a margin kept).
func fitDialog(window, want fyne.Size) fyne.Size {
	const margin = 40
	return fyne.NewSize(max(200, min(want.Width, window.Width-margin)), max(160, min(want.Height, window.Height-margin)))
}

// startIn points a dialog at dir (or its nearest existing parent).
func (wb *Workbench) startIn(set func(fyne.ListableURI), dir string) {
	if l, err := storage.ListerForURI(storage.NewFileURI(existingParent(dir))); err == nil {
		set(l)
	}
}

// pickFolder asks for a folder, the dialog titled title with its confirm button saying
// confirm, opened in start (or its nearest existing parent; "" leaves Fyne's default), and
// calls picked with the chosen path. Every folder question goes through here so that they all
// treat the dialog's outcome alike: an error from the dialog itself is shown rather than
// dropped, and a cancel does nothing.
func (wb *Workbench) pickFolder(title, confirm, start string, picked func(dir string)) {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		if u == nil {
			return // cancelled
		}
		picked(u.Path())
	}, wb.Window)
	if start != "" {
		wb.startIn(d.SetLocation, start)
	}
	wb.showFileDialog(d, title, confirm)
}

// pickFile asks for a file to open (one of exts when given; start: the folder to show first)
// and hands its path to picked; a dialog error is shown and a cancel does nothing. The
// dialog's reader is closed at once: callers read the path themselves, with their own size
// limits (internal/safeio), so a special file is refused rather than read.
func (wb *Workbench) pickFile(title, confirm, start string, exts []string, picked func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		if r == nil {
			return // cancelled
		}
		path := r.URI().Path()
		r.Close()
		picked(path)
	}, wb.Window)
	if len(exts) > 0 {
		d.SetFilter(storage.NewExtensionFileFilter(exts))
	}
	if start != "" {
		wb.startIn(d.SetLocation, start)
	}
	wb.showFileDialog(d, title, confirm)
}

// showOpenFolder asks for a run folder and opens it: one run goes to the Run tab, a folder of
// several runs (a sweep) to Compare; toCompare sends even one run to Compare.
func (wb *Workbench) showOpenFolder(toCompare bool) {
	if toCompare {
		wb.pickFolder("Add a run folder to Compare", "Add", wb.prefs().outputDir(), func(dir string) {
			wb.compare.pickFolder(dir) // several runs under it: tick the ones to add
			wb.showTab("compare")
		})
		return
	}
	wb.pickFolder("Open a run folder", "Open", wb.prefs().outputDir(), func(dir string) {
		if err := wb.openRunFolder(dir); err != nil {
			dialog.ShowError(err, wb.Window)
		}
	})
}

// openRunFolder opens a run folder in the Run tab, or a folder of several runs in Compare.
func (wb *Workbench) openRunFolder(dir string) error {
	runs, err := LoadRunRecords(dir)
	if err != nil {
		return err
	}
	if len(runs) > 1 {
		wb.compare.addRuns(runs...)
		wb.showTab("compare")
		return nil
	}
	if err := wb.run.showRecord(runs[0]); err != nil {
		return err
	}
	wb.showTab("run")
	return nil
}

// showSaveRunAs asks for a folder and copies the Run tab's run folder into it.
func (wb *Workbench) showSaveRunAs() {
	rec := wb.run.Record()
	if rec == nil || rec.Dir == "" {
		wb.notify("No run to save: start one or open a run folder.")
		return
	}
	if wb.run.State() == runRunning {
		wb.notify("Pause the run before saving a copy of its folder.")
		return
	}
	wb.pickFolder("Save a copy of the run folder in…", "Save here", filepath.Dir(rec.Dir), func(parent string) {
		dst, err := saveRunAs(rec.Dir, parent)
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		wb.notify("Saved the run to " + dst)
	})
}

// saveRunAs copies the run folder src into parent (under the same name) and returns the copy.
func saveRunAs(src, parent string) (string, error) {
	dst := filepath.Join(parent, filepath.Base(src))
	if same, _ := samePath(src, dst); same {
		return "", errors.New("that is the run's own folder: choose another")
	}
	if _, err := os.Stat(dst); err == nil {
		return "", fmt.Errorf("%s already exists", dst)
	}
	return dst, copyRunFolder(src, dst)
}

func samePath(a, b string) (bool, error) {
	a, err := filepath.Abs(a)
	if err != nil {
		return false, err
	}
	b, err = filepath.Abs(b)
	return a == b || strings.HasPrefix(b, a+string(filepath.Separator)), err
}

// notify shows a short message at the bottom of the window.
func (wb *Workbench) notify(msg string) {
	wb.statusBar.SetText(msg)
}

// exportFolderDialog asks for a folder and writes the gallery's shown levels there as text and
// Tiled maps.
func (wb *Workbench) exportFolderDialog(pv *populationView) {
	wb.pickFolder("Export levels into a folder", "Export here", wb.prefs().outputDir(), func(dir string) {
		files, err := exportFolder(pv, dir)
		if err != nil {
			dialog.ShowError(err, wb.Window)
			return
		}
		wb.notify(fmt.Sprintf("Wrote %d files into %s", len(files), dir))
	})
}

// exportFolder writes the gallery's shown levels (its filter and order: the selection) into
// dir as VGLC-style text with its legend and, for tile-drawn problems, Tiled maps.
func exportFolder(pv *populationView, dir string) ([]string, error) {
	members := pv.shownMembers()
	if len(members) == 0 {
		return nil, errors.New("no level to export: the gallery is empty or filtered out")
	}
	name, p := pv.Problem()
	return exportLevels(dir, name+"-levels", name, p, members)
}
