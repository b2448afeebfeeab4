package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pcgwb/app"
)

// A tower of four posts with two beams hanging off it to the right: two blocks fall.
const topplingProgram = "drop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b31', 6)\ndrop_block('b31', 7)\n"

// TestBirdsAnimateSmoke opens `workbench birds animate` in a real window (a child process),
// plays the simulation to its end four times faster than real time, and checks the verdict
// printed and the screenshot read back from the GPU.
func TestBirdsAnimateSmoke(t *testing.T) {
	haveDisplay(t)
	dir := t.TempDir()
	level := filepath.Join(dir, "tower.txt")
	if err := os.WriteFile(level, []byte(topplingProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "animate.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	cmd, out := startChild(ctx, t, "birds", "animate", level, "--speed", "4", "--screenshot", shot, "--exit-after", "60s")
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("workbench birds animate did not exit within 90 s:\n%s", out)
	}
	if err != nil {
		t.Fatalf("workbench birds animate: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "stability 0.6667 (2 of 6 blocks moved") {
		t.Fatalf("unexpected verdict:\n%s", out)
	}
	t.Logf("animated and captured in %v", time.Since(start).Round(time.Millisecond))
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	saveForInspection(t, "birds-animate.png", data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 {
		t.Fatalf("screenshot is %v", b.Size())
	}
	if colors, top := colorStats(img); colors < 6 || top >= 0.9 {
		t.Fatalf("screenshot looks blank: %d colours, the most common covers %.1f%%", colors, 100*top)
	}
}

func TestBirdsAnimateUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("drop_block('b99', 3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"birds", "animate"}, 2, "expected LEVEL"},
		{[]string{"birds", "animate", bad, "--speed", "0"}, 2, "--speed"},
		{[]string{"birds", "animate", bad}, 1, "BlockType does not exist"},
		{[]string{"birds", "animate", filepath.Join(t.TempDir(), "missing.txt")}, 1, "no such file"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// The GUI's Animate button runs this executable as `birds animate` in a child and shows the
// child's error: here a program with an unknown block, which fails before any window opens.
func TestLaunchBirdsAnimateReportsTheChildsError(t *testing.T) {
	t.Setenv(childEnv, "1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := app.LaunchBirdsAnimate(ctx, "drop_block('b99', 3)\n")
	if err == nil || !strings.Contains(err.Error(), "BlockType does not exist") {
		t.Fatalf("LaunchBirdsAnimate error %v, want the child's conversion error", err)
	}
}
