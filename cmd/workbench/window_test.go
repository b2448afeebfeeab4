package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"testing"
	"time"
)

// runWindowChild runs the workbench (this test binary in child mode) with args that open a real
// window and make it exit by itself, and waits up to 90 s for it; what names the command in
// failures. It returns the child's output and how long it ran.
func runWindowChild(t *testing.T, what string, args ...string) (out string, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	cmd, buf := startChild(ctx, t, args...)
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%s did not exit within 90 s:\n%s", what, buf)
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
