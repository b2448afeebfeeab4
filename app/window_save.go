package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/internal/atomicfile"
)

// Saving a file. Fyne's save dialog (dialog.NewFileSave) cannot be used: before its callback
// runs it has already opened the chosen path with os.Create, which follows a symbolic link and
// truncates whatever the link points to, and its writer writes in place (a crash leaves half a
// file). Fyne has no save dialog that only returns the chosen name. So the workbench asks with
// its own small form: the folder (Browse… picks another with Fyne's folder dialog, which writes
// nothing) and the file name. The target is checked with Lstat: an existing regular file is
// replaced only after a confirmation; a symbolic link, a folder or a special file is refused.
// The bytes go through atomicfile (a temporary file in the same folder, synced, renamed over
// the name, the folder synced), which refuses a link again at the moment of writing.

// saveForm is the save question a saveFileDialog shows.
type saveForm struct {
	wb     *Workbench
	data   func() ([]byte, error)
	dir    string
	dialog *dialog.CustomDialog
	// folder shows the folder the file goes into; BrowseButton picks another.
	folder       *widget.Label
	browseButton *widget.Button
	// name is the file's name (no folder).
	name         *widget.Entry
	saveButton   *widget.Button
	cancelButton *widget.Button
	// content is the form inside the dialog (for the tooltip check).
	content fyne.CanvasObject
}

// saveFileDialog asks where to save (a folder, starting in the output folder, and a name,
// fileName to begin with) and writes data() there atomically. Every "save a file" of the
// workbench goes through here.
func (wb *Workbench) saveFileDialog(fileName string, data func() ([]byte, error)) *saveForm {
	f := &saveForm{wb: wb, data: data, dir: existingParent(wb.prefs().outputDir())}
	f.folder = widget.NewLabel(f.dir)
	f.folder.Wrapping = fyne.TextWrapBreak // a long path wraps instead of widening the dialog
	f.browseButton = widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() {
		wb.pickFolder("Save in…", "Choose", f.dir, f.setFolder)
	})
	f.name = widget.NewEntry()
	f.name.SetPlaceHolder("File name, e.g. " + fileName)
	f.name.SetText(fileName)
	f.name.OnSubmitted = func(string) { f.save() }
	f.saveButton = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), f.save)
	f.saveButton.Importance = widget.HighImportance
	f.cancelButton = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { f.dialog.Hide() })
	form := widget.NewForm(
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil,
			container.NewVBox(widgets.Tip(f.browseButton, "Choose another folder to save in.")), f.folder)),
		widget.NewFormItem("File name", f.name))
	buttons := container.NewGridWithColumns(2,
		widgets.Tip(f.cancelButton, "Close without saving anything."),
		widgets.Tip(f.saveButton, "Write the file into the folder (Enter). An existing file is replaced only after you confirm; a link or a special file is never written."))
	f.content = container.NewBorder(nil, buttons, nil, nil, form)
	f.dialog = dialog.NewCustomWithoutButtons(saveTitle(fileName), widgets.WithTipLayer(f.content, true), wb.Window)
	f.dialog.Resize(fitDialog(wb.Window.Canvas().Size(), fyne.NewSize(640, 240)))
	f.dialog.Show()
	wb.Window.Canvas().Focus(f.name)
	return f
}

// saveTitle is the save form's title for the file it proposes: what is saved, said as the
// user knows it (one level's picture is not "levels").
func saveTitle(fileName string) string {
	ext := strings.ToLower(filepath.Ext(fileName))
	many := strings.Contains(strings.TrimSuffix(fileName, filepath.Ext(fileName)), "-levels")
	switch {
	case many && ext == ".png":
		return "Save a contact sheet of the levels"
	case many && ext == ".csv":
		return "Save the levels' metrics"
	case many:
		return "Save the levels"
	case ext == ".png":
		return "Save the level's picture"
	case ext == ".csv":
		return "Save the level's metrics"
	}
	return "Save the level"
}

// setFolder makes dir the folder the file goes into.
func (f *saveForm) setFolder(dir string) {
	f.dir = dir
	f.folder.SetText(dir)
}

// save checks the name and the target, asks before replacing an existing file, and writes.
// An error is shown over the form, which stays open so that another name or folder can be
// chosen.
func (f *saveForm) save() {
	path, err := savePath(f.dir, f.name.Text)
	if err == nil {
		var exists bool
		var perm os.FileMode
		if perm, exists, err = saveTarget(path); err == nil && exists {
			c := dialog.NewConfirm("Replace the file?",
				fmt.Sprintf("%s already exists in\n%s.\nReplace it?", filepath.Base(path), filepath.Dir(path)),
				func(ok bool) {
					if ok {
						f.write(path, perm)
					}
				}, f.wb.Window)
			c.SetConfirmText("Replace")
			c.SetDismissText("Cancel")
			c.Show()
			return
		}
		if err == nil {
			f.write(path, perm)
			return
		}
	}
	dialog.ShowError(err, f.wb.Window)
}

// write writes data() to path (perm: the permissions it gets) and closes the form.
func (f *saveForm) write(path string, perm os.FileMode) {
	b, err := f.data()
	if err != nil {
		f.dialog.Hide() // nothing to save: another place would not help
		dialog.ShowError(err, f.wb.Window)
		return
	}
	// atomicfile checks the target again: a link put there since the check is refused too
	if err := atomicfile.Write(path, b, perm); err != nil {
		dialog.ShowError(err, f.wb.Window)
		return
	}
	f.dialog.Hide()
	f.wb.notify("Saved " + path)
}

// savePath joins the folder dir and a file name typed by the user, which must be a plain name:
// no folder part, no path separator, not "." or "..".
func savePath(dir, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errors.New("type a file name")
	case name == "." || name == "..":
		return "", fmt.Errorf("%q is not a file name", name)
	case strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0):
		return "", fmt.Errorf("the file name %q holds a path separator: type only the name, and choose the folder with Browse…", name)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("the folder %s does not exist: choose another with Browse…", dir)
	}
	return filepath.Join(dir, name), nil
}

// saveTarget says whether path exists as a regular file (and its permissions, kept when it is
// replaced; a new file gets 0644). Anything else there is refused: a symbolic link (saving
// would write where it points, or replace the link), a folder, a device, a pipe or a socket.
func saveTarget(path string) (perm os.FileMode, exists bool, err error) {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0o644, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		return m.Perm(), true, nil
	case m&fs.ModeSymlink != 0:
		return 0, false, fmt.Errorf("%s is a symbolic link: the workbench never saves through a link. Choose another name or folder", path)
	case m.IsDir():
		return 0, false, fmt.Errorf("%s is a folder: choose another name", path)
	}
	return 0, false, fmt.Errorf("%s is a special file (%v), not a regular file: choose another name", path, m.Type())
}
