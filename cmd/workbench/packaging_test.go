package main

import (
	"bufio"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readFyneApp reads FyneApp.toml's "key = value" lines by section ("Details.Name"), enough of
// TOML for the file as written (strings unquoted, arrays kept as written).
func readFyneApp(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, section := map[string]string{}, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: not a key = value line: %q", path, line)
			}
			out[section+"."+strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return out
}

// The packaging metadata `fyne package` reads (make package; docs/packaging.md): the app's
// name, ID and icon, and what makes fyne write "Exec=workbench %F". fyne appends
// LinuxAndBSD.ExecParams to the command without a space ("Exec=workbench%F", which a launcher
// runs as a program of that name); the files a launcher may pass are declared as CanOpen MIME
// types, which make it write " %F" and the MimeType line.
func TestFyneAppMetadata(t *testing.T) {
	m := readFyneApp(t, "FyneApp.toml")
	for k, want := range map[string]string{"Details.Name": "PCG Workbench", "Details.ID": "io.github.pcgworkbench", "Details.Icon": "Icon.png"} {
		if m[k] != want {
			t.Errorf("FyneApp.toml %s = %q, want %q", k, m[k], want)
		}
	}
	if v, ok := m["LinuxAndBSD.ExecParams"]; ok {
		t.Errorf("FyneApp.toml sets LinuxAndBSD.ExecParams %q: fyne writes Exec=workbench%s (no space); declare [CanOpen] MimeTypes instead", v, v)
	}
	mimes := m["CanOpen.MimeTypes"]
	for _, want := range []string{"inode/directory", "application/json"} {
		if !strings.Contains(mimes, want) {
			t.Errorf("FyneApp.toml CanOpen.MimeTypes %q lacks %s (workbench FOLDER, workbench LEVEL.json)", mimes, want)
		}
	}
	f, err := os.Open(m["Details.Icon"])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != cfg.Height || cfg.Width < 256 {
		t.Errorf("%s: %dx%d (%v), want a square PNG of at least 256 px", m["Details.Icon"], cfg.Width, cfg.Height, err)
	}
	// The hand-made install's entry says the same.
	desktop, err := os.ReadFile(filepath.Join("..", "..", "packaging", "pcg-workbench.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Name=" + m["Details.Name"], "Exec=workbench %F", "MimeType=" + mimes} {
		if !strings.Contains(string(desktop), "\n"+want+"\n") {
			t.Errorf("packaging/pcg-workbench.desktop has no line %q", want)
		}
	}
}
