package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/playtest"
	"pcgwb/games/playtest/playtesttest"
)

// TestPlaytestKioskFillsTheScreen opens the kiosk as a workshop would, without --window: its
// pause screen covers the whole X screen (1280×800 under make test's Xvfb), at least twice the
// 640×400 window in one direction, and the frame is scaled to it, text included.
func TestPlaytestKioskFillsTheScreen(t *testing.T) {
	haveDisplay(t)
	runs := playtesttest.RunFolders(t, t.TempDir())
	dir := filepath.Join(t.TempDir(), "session")
	if _, err := playtest.Create(dir, playtest.Options{Sources: []playtest.Source{{Dir: runs["ga"], N: 1, Pick: playtest.PickBest}}, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	sizes := map[bool][2]int{}
	for _, window := range []bool{false, true} {
		shot := filepath.Join(t.TempDir(), "kiosk.png")
		args := []string{"playtest", "play", dir, "--participant", "P01", "--script", "", "--screenshot", shot, "--exit-after", "60s"}
		if window {
			args = append(args, "--window")
		}
		out, _ := runWindowChild(t, "workbench playtest play", args...)
		if !strings.Contains(out, "P01: 0 levels recorded") {
			t.Fatalf("the kiosk said:\n%s", out)
		}
		data, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		// The pause screen is text on black: a few colours, most of it black.
		if colors, _ := colorStats(img); colors < 2 {
			t.Fatalf("the kiosk's screen is blank")
		}
		sizes[window] = [2]int{img.Bounds().Dx(), img.Bounds().Dy()}
	}
	full, win := sizes[false], sizes[true]
	t.Logf("full screen %v, window %v", full, win)
	if full[0] < 2*win[0]-1 && full[1] < 2*win[1]-1 {
		t.Fatalf("the full-screen kiosk is %v, the window %v: it does not fill the screen", full, win)
	}
}
