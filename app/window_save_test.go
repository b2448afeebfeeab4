package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// labelsSay reports whether a label under o holds s (case ignored: error dialogs capitalise).
func labelsSay(o fyne.CanvasObject, s string) bool {
	switch v := o.(type) {
	case *widget.Label:
		return strings.Contains(strings.ToLower(v.Text), strings.ToLower(s))
	case *fyne.Container:
		for _, c := range v.Objects {
			if labelsSay(c, s) {
				return true
			}
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			if labelsSay(c, s) {
				return true
			}
		}
	}
	return false
}

// saveWorkbench is a workbench whose output folder is a fresh temporary folder.
func saveWorkbench(t *testing.T) (*Workbench, string) {
	wb := newTestWorkbench(t)
	dir := t.TempDir()
	wb.prefs().setOutputDir(dir)
	return wb, dir
}

func dialogsOpen(wb *Workbench) int { return len(wb.Window.Canvas().Overlays().List()) }

// closeDialogs closes whatever dialogs a failed check left open.
func closeDialogs(wb *Workbench) {
	for o := wb.Window.Canvas().Overlays().Top(); o != nil; o = wb.Window.Canvas().Overlays().Top() {
		wb.Window.Canvas().Overlays().Remove(o)
	}
}

// expectError checks that the dialog in front is an error saying what, then closes it.
func expectError(t *testing.T, wb *Workbench, what string) {
	t.Helper()
	top := wb.Window.Canvas().Overlays().Top()
	if top == nil || !labelsSay(top, what) {
		t.Fatalf("no error dialog saying %q in front", what)
	}
	test.Tap(findButton(t, top, "OK"))
}

func bytesOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Saving asks in the output folder with the suggested name, writes the bytes into the chosen
// folder through a temporary file renamed over the name (none is left behind) and says so in
// the status bar; Enter in the name saves too. The form's controls explain themselves.
func TestSaveWritesTheChosenFile(t *testing.T) {
	wb, dir := saveWorkbench(t)
	f := wb.saveFileDialog("zelda-levels.json", func() ([]byte, error) { return []byte(`{"items": []}`), nil })
	if f.dir != dir || f.folder.Text != dir || f.name.Text != "zelda-levels.json" || dialogsOpen(wb) != 1 {
		t.Fatalf("the form asks for %q in %q (%d dialogs), want zelda-levels.json in the output folder %s", f.name.Text, f.dir, dialogsOpen(wb), dir)
	}
	if missing := untipped(f.content, nil); len(missing) > 0 {
		t.Errorf("%d controls of the save form without a tooltip: %q", len(missing), missing)
	}
	test.Tap(f.saveButton)
	path := filepath.Join(dir, "zelda-levels.json")
	if got := bytesOf(t, path); got != `{"items": []}` {
		t.Fatalf("saved %q", got)
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 {
		t.Fatalf("saved file: %v, %v", st, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the folder holds %d entries, want only the file (no temporary file left)", len(entries))
	}
	if dialogsOpen(wb) != 0 || wb.statusBar.Text != "Saved "+path {
		t.Fatalf("after saving: %d dialogs, status %q", dialogsOpen(wb), wb.statusBar.Text)
	}

	// another folder (what Browse… hands back) and another name, confirmed with Enter
	sub := filepath.Join(dir, "pictures")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	f = wb.saveFileDialog("zelda-1.png", func() ([]byte, error) { return []byte("png"), nil })
	f.setFolder(sub)
	f.name.SetText("  first.png ")
	f.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := bytesOf(t, filepath.Join(sub, "first.png")); got != "png" || dialogsOpen(wb) != 0 {
		t.Fatalf("Enter saved %q, %d dialogs open", got, dialogsOpen(wb))
	}
	// a failing data() is shown, and writes nothing
	f = wb.saveFileDialog("empty.png", func() ([]byte, error) { return nil, os.ErrInvalid })
	test.Tap(f.saveButton)
	expectError(t, wb, "invalid")
	if _, err := os.Lstat(filepath.Join(dir, "empty.png")); err == nil || dialogsOpen(wb) != 0 {
		t.Fatalf("a failed export left a file or %d dialogs", dialogsOpen(wb))
	}
}

// A symbolic link at the chosen name is refused (whether it points to a file, to nothing yet,
// or appears between the confirmation and the write), and so are a folder and a special file:
// the link stays a link and what it points to is left byte for byte (Fyne's save dialog would
// have truncated it with os.Create before asking anything).
func TestSaveRefusesLinksAndSpecialFiles(t *testing.T) {
	wb, dir := saveWorkbench(t)
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.json")
	if err := os.WriteFile(victim, []byte("precious data"), 0o644); err != nil {
		t.Fatal(err)
	}
	ghost := filepath.Join(outside, "ghost.json")
	data := func() ([]byte, error) { return []byte("overwritten!"), nil }
	checkUntouched := func(t *testing.T) {
		t.Helper()
		if got := bytesOf(t, victim); got != "precious data" {
			t.Fatalf("the link's target now holds %q", got)
		}
		if _, err := os.Lstat(ghost); err == nil {
			t.Fatal("a file was created where a dangling link points")
		}
	}
	for _, tt := range []struct {
		name, says string
		make       func(path string) error
	}{
		{"link to a file", "symbolic link", func(p string) error { return os.Symlink(victim, p) }},
		{"dangling link", "symbolic link", func(p string) error { return os.Symlink(ghost, p) }},
		{"folder", "is a folder", func(p string) error { return os.Mkdir(p, 0o755) }},
		{"named pipe", "special file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer closeDialogs(wb)
			name := strings.ReplaceAll(tt.name, " ", "-") + ".json"
			path := filepath.Join(dir, name)
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			f := wb.saveFileDialog(name, data)
			test.Tap(f.saveButton)
			if dialogsOpen(wb) != 2 {
				t.Fatalf("%d dialogs open, want the form and an error", dialogsOpen(wb))
			}
			expectError(t, wb, tt.says)
			if dialogsOpen(wb) != 1 {
				t.Fatal("the form closed: another name could not be chosen")
			}
			f.dialog.Hide()
			checkUntouched(t)
			if st, err := os.Lstat(path); err != nil || st.Mode().IsRegular() {
				t.Fatalf("the target was replaced: %v, %v", st, err)
			}
		})
	}
	t.Run("link put in place after the confirmation", func(t *testing.T) {
		defer closeDialogs(wb)
		path := filepath.Join(dir, "swapped.json")
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		f := wb.saveFileDialog("swapped.json", data)
		test.Tap(f.saveButton)
		top := wb.Window.Canvas().Overlays().Top()
		if !labelsSay(top, "already exists") {
			t.Fatal("no confirmation asked for an existing file")
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, path); err != nil {
			t.Fatal(err)
		}
		test.Tap(findButton(t, top, "Replace"))
		expectError(t, wb, "symbolic link")
		f.dialog.Hide()
		checkUntouched(t)
		if target, err := os.Readlink(path); err != nil || target != victim {
			t.Fatalf("the link was changed: %q, %v", target, err)
		}
	})
}

// An existing regular file is replaced only after "Replace": Cancel leaves it and the form
// open. The new bytes replace it by a rename (a hard link to the old file keeps the old bytes,
// which an in-place write would have changed), with the old file's permissions.
func TestSaveReplacesAFileOnlyAfterConfirming(t *testing.T) {
	wb, dir := saveWorkbench(t)
	path := filepath.Join(dir, "levels.csv")
	if err := os.WriteFile(path, []byte("old rows"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "old-copy")
	if err := os.Link(path, keep); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	f := wb.saveFileDialog("levels.csv", func() ([]byte, error) { return []byte("new rows"), nil })
	test.Tap(f.saveButton)
	top := wb.Window.Canvas().Overlays().Top()
	if !labelsSay(top, "already exists") || !labelsSay(top, "levels.csv") {
		t.Fatal("no confirmation naming the existing file")
	}
	if got := bytesOf(t, path); got != "old rows" {
		t.Fatalf("the file changed before the confirmation: %q", got)
	}
	test.Tap(findButton(t, top, "Cancel"))
	if got := bytesOf(t, path); got != "old rows" || dialogsOpen(wb) != 1 {
		t.Fatalf("after Cancel the file holds %q, %d dialogs open (want the form)", got, dialogsOpen(wb))
	}
	test.Tap(f.saveButton)
	test.Tap(findButton(t, wb.Window.Canvas().Overlays().Top(), "Replace"))
	if got := bytesOf(t, path); got != "new rows" {
		t.Fatalf("after Replace the file holds %q", got)
	}
	if got := bytesOf(t, keep); got != "old rows" {
		t.Fatalf("the old file was rewritten in place (its hard link holds %q), not replaced", got)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("replaced file: %v, %v (want its old permissions 0640)", st, err)
	}
	if dialogsOpen(wb) != 0 || wb.statusBar.Text != "Saved "+path {
		t.Fatalf("after saving: %d dialogs, status %q", dialogsOpen(wb), wb.statusBar.Text)
	}
}

// A file name with a folder part, a path separator, "." or "..", or no name at all, is
// refused with a message, the form stays open, and nothing is written anywhere; so is a
// folder that no longer exists.
func TestSaveRefusesBadFileNames(t *testing.T) {
	wb, dir := saveWorkbench(t)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	f := wb.saveFileDialog("levels.json", func() ([]byte, error) { return []byte("x"), nil })
	for _, tt := range []struct{ name, says string }{
		{"", "type a file name"},
		{"   ", "type a file name"},
		{".", "not a file name"},
		{"..", "not a file name"},
		{"../levels.json", "path separator"},
		{"sub/levels.json", "path separator"},
		{`sub\levels.json`, "path separator"},
		{filepath.Join(elsewhere, "levels.json"), "path separator"},
		{"..\\..\\levels.json", "path separator"},
	} {
		f.name.SetText(tt.name)
		test.Tap(f.saveButton)
		expectError(t, wb, tt.says)
		if dialogsOpen(wb) != 1 {
			t.Fatalf("%q: the form closed", tt.name)
		}
	}
	f.name.SetText("levels.json")
	f.setFolder(filepath.Join(dir, "gone"))
	test.Tap(f.saveButton)
	expectError(t, wb, "does not exist")
	for _, d := range []string{dir, sub, elsewhere, filepath.Dir(dir)} {
		if _, err := os.Lstat(filepath.Join(d, "levels.json")); err == nil {
			t.Fatalf("a refused name wrote %s", filepath.Join(d, "levels.json"))
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the output folder holds %d entries, want only sub", len(entries))
	}
}

// The save form says what it saves: one level's picture is not "levels".
func TestSaveFormTitleSaysWhatIsSaved(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"zelda-v0-3.png", "Save the level's picture"},
		{"zelda-v0-3.json", "Save the level"},
		{"zelda-v0-edited.png", "Save the level's picture"},
		{"zelda-v0-levels.png", "Save a contact sheet of the levels"},
		{"zelda-v0-levels.json", "Save the levels"},
		{"zelda-v0-levels.csv", "Save the levels' metrics"},
	} {
		if got := saveTitle(tc.file); got != tc.want {
			t.Errorf("saveTitle(%q) = %q, want %q", tc.file, got, tc.want)
		}
	}
}
