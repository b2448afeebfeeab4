//go:build cgo

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealWindowPressesEverything is the front door in a real window under Xvfb: the real
// binary, with --press-everything, brings every tab to the front, presses what it finds there,
// chooses every menu item and types every shortcut, opening and dismissing every dialog on the
// way — the file and folder dialogs that once crashed the window among them — and then quits
// by itself with exit status 0: it was alive to the end.
func TestRealWindowPressesEverything(t *testing.T) {
	haveDisplay(t)
	home := noData(t)
	if err := os.MkdirAll(filepath.Join(home, ".cache"), 0o755); err != nil { // Fyne's cache
		t.Fatal(err)
	}
	// Under the race detector every press is several times slower; the limit is for a hang.
	out, took := runWindowChildFor(t, 8*time.Minute, "workbench --press-everything",
		"--press-everything", "-n", "8", "--seed", "5", "--out", t.TempDir(),
		"--data-url", filepath.Join(t.TempDir(), "no-archive.tar.gz"))
	t.Logf("pressed everything in %v", took.Round(time.Millisecond))
	if !strings.Contains(out, "pressed ") {
		t.Fatalf("no summary printed:\n%s", out)
	}
	for _, dialog := range []string{
		"Open a run folder", "Add a run folder to Compare", "Save a copy of the run folder",
		"Open a level", "Evaluate a competition folder", "Open a game script",
		"Settings", "PCG Workbench guide", "About PCG Workbench", "sample the selected problem",
	} {
		if !strings.Contains(out, "dialog: ") || !containsLine(out, "dialog: ", dialog) {
			t.Errorf("the dialog %q was never opened in the real window", dialog)
		}
	}
	for _, tab := range []string{"sample", "run", "editor", "compare", "expressive", "birds", "games", "llm", "menu", "shortcut"} {
		if !strings.Contains(out, "press: "+tab+": ") {
			t.Errorf("nothing pressed in %s", tab)
		}
	}
	if t.Failed() {
		t.Logf("the workbench printed:\n%s", out)
	}
}

// containsLine reports whether a line of out starts with prefix and contains want.
func containsLine(out, prefix, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// Without a display the window cannot open: the workbench says why and what to do instead,
// and exits 1 (it was a Go panic).
func TestNoDisplaySaysSo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-n", "4")
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "DISPLAY=") && !strings.HasPrefix(e, "WAYLAND_DISPLAY=") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, childEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("workbench without a display: %v, want exit status 1\n%s", err, out)
	}
	if s := string(out); !strings.Contains(s, "no display") || !strings.Contains(s, "xvfb-run") || strings.Contains(s, "panic") {
		t.Fatalf("workbench without a display said:\n%s", s)
	}
}
