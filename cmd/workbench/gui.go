package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"pcgwb/app"
	"pcgwb/internal/atomicfile"
	"pcgwb/problems"
	_ "pcgwb/problems/all"
)

// appID is the workbench's Fyne application ID (also in FyneApp.toml): it names the
// preferences and storage folders.
const appID = "io.github.pcgworkbench"

// screenshotSettle is how long the window gets to paint a new gallery before it is captured:
// Capture reads the last frame drawn, not the widgets.
const screenshotSettle = 600 * time.Millisecond

// runGUI opens the workbench window and returns when it closes.
func runGUI(args []string) error {
	fs := flag.NewFlagSet("workbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	exitAfter := fs.Duration("exit-after", 0, "quit after this long (0: run until the window is closed)")
	screenshot := fs.String("screenshot", "", "once the first sample is drawn, save the window as a PNG at this path and quit")
	problem := fs.String("problem", "", "problem to open (default "+app.DefaultProblem+")")
	count := fs.Int("n", app.DefaultSamples, "number of contents to sample")
	seed := fs.Uint64("seed", 0, "random seed of the first sample")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *count < 1 || *count > app.MaxSamples {
		return usagef("-n must be from 1 to %d", app.MaxSamples)
	}
	if _, ok := problems.Lookup(*problem); *problem != "" && !ok {
		_, err := problems.Make(*problem) // its error suggests the closest name
		return usageError{err.Error()}
	}

	if *screenshot != "" && os.Getenv("GALLIUM_DRIVER") == "" {
		// Capture reads the GL front buffer, and Mesa's llvmpipe (the software renderer under
		// Xvfb) returns it all black; softpipe returns the real frame. Hardware drivers ignore
		// the variable, and only screenshot runs pay for the slower renderer.
		os.Setenv("GALLIUM_DRIVER", "softpipe")
	}
	a := fyneapp.NewWithID(appID)
	wb := app.New(a)
	wb.Count.SetText(strconv.Itoa(*count))
	wb.Seed.SetText(strconv.FormatUint(*seed, 10))

	var (
		mu       sync.Mutex
		result   error
		sampled  bool        // the first sample is on screen (UI goroutine only)
		captured atomic.Bool // the screenshot was attempted
	)
	setResult := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if result == nil {
			result = err
		}
	}
	if *screenshot != "" {
		path := *screenshot
		wb.OnSampled = func(_ *app.SampleSet, sampleErr error) {
			if sampled {
				return
			}
			sampled = true
			time.AfterFunc(screenshotSettle, func() {
				fyne.Do(func() {
					// Save even a failed sample: the picture shows the error banner.
					captured.Store(true)
					if err := writePNG(path, wb); err != nil {
						setResult(err)
					}
					if sampleErr != nil {
						setResult(fmt.Errorf("the first sample failed: %w", sampleErr))
					}
					a.Quit()
				})
			})
		}
	}
	if *exitAfter > 0 {
		timer := time.AfterFunc(*exitAfter, func() { fyne.Do(a.Quit) })
		defer timer.Stop()
	}

	wb.Window.SetMaster() // closing it quits, whatever other windows panels open later
	wb.Window.Show()
	if *problem != "" && *problem != wb.Picker.Selected() {
		// Selecting samples it; a problem that cannot be made (missing data) is reported in
		// the window, like any later failure.
		_ = wb.SelectProblem(*problem)
	} else {
		wb.Sample()
	}
	a.Run()
	wb.Cancel()

	if *screenshot != "" && !captured.Load() {
		setResult(errors.New("quit before the first sample was drawn: no screenshot taken"))
	}
	mu.Lock()
	defer mu.Unlock()
	return result
}

func writePNG(path string, wb *app.Workbench) error {
	img := wb.Window.Canvas().Capture()
	if img == nil || img.Bounds().Empty() {
		return errors.New("screenshot: the window capture is empty")
	}
	if err := atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if isUniform(img) {
		return fmt.Errorf("screenshot: the capture in %s is one flat colour: the GL driver did not return the frame", path)
	}
	return nil
}

// isUniform reports whether every pixel of img has the same colour (a failed GL read-back).
func isUniform(img image.Image) bool {
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, a0 := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, a := img.At(x, y).RGBA(); r != r0 || g != g0 || bl != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}
