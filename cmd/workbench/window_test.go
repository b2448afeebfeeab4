package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pcgwb/games/play"
	"pcgwb/problems"
	"pcgwb/problems/data/datatest"
)

// runWindowChild runs the workbench (this test binary in child mode) with args that open a real
// window and make it exit by itself, and waits up to 90 s for it; what names the command in
// failures. It returns the child's output and how long it ran.
func runWindowChild(t *testing.T, what string, args ...string) (out string, took time.Duration) {
	t.Helper()
	return runWindowChildFor(t, 90*time.Second, what, args...)
}

// runWindowChildFor is runWindowChild with another time limit.
func runWindowChildFor(t *testing.T, limit time.Duration, what string, args ...string) (out string, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	cmd, buf := startChild(ctx, t, args...)
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%s did not exit within %v:\n%s", what, limit, buf)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, buf)
	}
	return buf.String(), time.Since(start)
}

// checkScreenshot reads the screenshot a window child wrote to shot, keeps a copy for
// inspection as name, and fails the test unless it is at least minW×minH pixels and not blank:
// minColors colours or more, the most common covering under 90%. out is the child's output,
// shown when there is no screenshot.
func checkScreenshot(t *testing.T, shot, name string, minW, minH, minColors int, out string) {
	t.Helper()
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	saveForInspection(t, name, data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < minW || b.Dy() < minH {
		t.Fatalf("screenshot is %v", b.Size())
	}
	if colors, top := colorStats(img); colors < minColors || top >= 0.9 {
		t.Fatalf("screenshot looks blank: %d colours, the most common covers %.1f%%", colors, 100*top)
	}
}

// TestRealWindowGetsDataAndPlaysSMB is a fresh install's first Super Mario Bros level, in the
// real window under Xvfb: the workbench starts on smb-v0 with an empty data folder, and its
// scripting flags press the GUI's own buttons. Get the data… downloads the reference's archive
// from a local server (built from ../shared) and installs the checked files; the problem is
// then made and sampled, level 1's detail dialog opens, and its Play button starts the play
// window (an Ebiten child process) that plays a few keys and quits. The child's outcome comes
// back through the hand-off and the workbench prints it.
func TestRealWindowGetsDataAndPlaysSMB(t *testing.T) {
	if raceDetector {
		t.Skip("limits, CPU budgets and window timings do not hold under the race detector; make test runs this")
	}
	haveDisplay(t)
	if _, ok := problems.Lookup("smb-v0"); !ok {
		t.Skip("smb-v0 is not registered in this build")
	}
	home := noData(t)
	if err := os.MkdirAll(filepath.Join(home, ".cache"), 0o755); err != nil { // Fyne's cache
		t.Fatal(err)
	}
	archive := datatest.Archive(t, "")
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Write(archive)
	}))
	defer srv.Close()
	out, took := runWindowChildFor(t, 240*time.Second, "workbench --get-data --play 1",
		"--problem", "smb-v0", "-n", "2", "--seed", "3",
		"--data-url", srv.URL+"/pcg_benchmark.tar.gz", "--get-data",
		"--play", "1", "--play-script", "rrrrrr,esc", "--exit-after", "220s")
	t.Logf("downloaded, sampled and played in %v; the workbench printed:\n%s", took.Round(time.Millisecond), out)
	if requests.Load() != 1 {
		t.Errorf("the local server was asked %d times, want once", requests.Load())
	}
	if !strings.Contains(out, "data: ") || strings.Contains(out, "nothing to get") {
		t.Fatalf("Get the data… was not pressed or did not finish:\n%s", out)
	}
	installed := filepath.Join(home, ".config", "pcg-workbench", "data", "smb", "slices.txt")
	if _, err := os.Stat(installed); err != nil {
		t.Fatalf("the SMB data is not installed: %v\n%s", err, out)
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "play outcome: "); ok {
			line = rest
		}
	}
	if line == "" {
		t.Fatalf("no play outcome printed:\n%s", out)
	}
	var o play.Outcome
	if err := json.Unmarshal([]byte(line), &o); err != nil {
		t.Fatalf("play outcome %q: %v", line, err)
	}
	if o.Problem != "smb-v0" || !slices.Contains([]play.Result{play.ResultWon, play.ResultLost, play.ResultQuit}, o.Result) || o.Ticks <= 0 {
		t.Fatalf("play outcome %+v: want smb-v0 won, lost or quit after some ticks", o)
	}
	if len(o.Trace) == 0 {
		t.Errorf("the outcome has no input trace: the scripted keys did not reach the game")
	}
}
