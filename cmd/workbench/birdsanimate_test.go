package main

import (
	"context"
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
	out, took := runWindowChild(t, "workbench birds animate", "birds", "animate", level, "--speed", "4", "--screenshot", shot, "--exit-after", "60s")
	if !strings.Contains(out, "stability 0.6667 (2 of 6 blocks moved") {
		t.Fatalf("unexpected verdict:\n%s", out)
	}
	t.Logf("animated and captured in %v", took.Round(time.Millisecond))
	checkScreenshot(t, shot, "birds-animate.png", 600, 400, 6, out)
}

func TestBirdsAnimateUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("drop_block('b99', 3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkExits(t, []exitCase{
		{[]string{"birds", "animate"}, 2, "expected LEVEL"},
		{[]string{"birds", "animate", bad, "--speed", "0"}, 2, "--speed"},
		{[]string{"birds", "animate", bad}, 2, "BlockType does not exist"},
		{[]string{"birds", "animate", filepath.Join(t.TempDir(), "missing.txt")}, 1, "no such file"},
	})
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
