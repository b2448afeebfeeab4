package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"slices"
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
	seed := fs.Uint64("seed", 0, "random seed of the first sample (and of --run)")
	runGen := fs.String("run", "", "start a run with this generator (random, es, ga, …) once the window is up; --screenshot then waits for it to finish")
	generations := fs.Int("generations", 20, "generations of --run")
	pop := fs.Int("pop", app.DefaultPopulation, "population of --run")
	out := fs.String("out", "", "folder for run folders this session (default: the settings' output folder)")
	tab := fs.String("tab", "", "tab to show: sample, run, editor, compare, expressive, birds, games, llm (default: run with --run, else sample)")
	var opens []string
	fs.Func("open", "open a run folder (one run: the Run tab; a folder of runs: Compare); repeat to compare several", func(dir string) error {
		opens = append(opens, dir)
		return nil
	})
	quitAfterRun := fs.Bool("quit-after-run", false, "quit when the --run run stops")
	stall := fs.Bool("stall-report", false, "measure how long the UI goroutine is kept busy and print the longest stall at exit")
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
	if *runGen != "" && (*generations < 0 || *pop < 1) {
		return usagef("--generations must be >= 0 and --pop >= 1")
	}
	a := fyneapp.NewWithID(appID)
	wb := app.New(a)
	wb.Count.SetText(strconv.Itoa(*count))
	wb.Seed.SetText(strconv.FormatUint(*seed, 10))
	wb.OutputDirOverride = *out
	if *runGen != "" {
		wb.Run.Generator.SetSelected(*runGen)
		wb.Run.Generations.SetText(strconv.Itoa(*generations))
		wb.Run.PopSize.SetText(strconv.Itoa(*pop))
		wb.Run.Seed.SetText(strconv.FormatUint(*seed, 10))
	}
	if *tab == "" && *runGen != "" {
		*tab = "run"
	}

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
	// capture saves the window once it has had time to paint, then quits.
	capture := func(stepErr error) {
		path := *screenshot
		go func() {
			// let every panel finish drawing (galleries render their levels in the
			// background), then give the window time to paint the result
			if err := wb.WaitIdle(30 * time.Second); err != nil {
				setResult(fmt.Errorf("screenshot: %w", err))
			}
			time.Sleep(screenshotSettle)
			fyne.Do(func() {
				captured.Store(true)
				if err := writePNG(path, wb); err != nil {
					setResult(err)
				}
				if stepErr != nil {
					setResult(stepErr)
				}
				a.Quit()
			})
		}()
	}
	var meter *stallMeter
	if *runGen != "" {
		wb.Run.OnRunStopped = func(_ *app.RunRecord, state app.RunState, err error) {
			if meter != nil {
				fmt.Println(meter.stop())
				meter = nil
			}
			if state != app.RunFinished && err == nil {
				err = fmt.Errorf("the run stopped: %v", state)
			}
			if err != nil {
				setResult(fmt.Errorf("the run failed: %w", err))
			}
			switch {
			case *screenshot != "":
				capture(nil)
			case *quitAfterRun:
				a.Quit()
			}
		}
	}
	if *screenshot != "" && *runGen == "" {
		wb.OnSampled = func(_ *app.SampleSet, sampleErr error) {
			if sampled {
				return
			}
			sampled = true
			// Save even a failed sample: the picture shows the error banner.
			if sampleErr != nil {
				sampleErr = fmt.Errorf("the first sample failed: %w", sampleErr)
			}
			capture(sampleErr)
		}
	}
	if *exitAfter > 0 {
		timer := time.AfterFunc(*exitAfter, func() { fyne.Do(a.Quit) })
		defer timer.Stop()
	}

	if *stall && *runGen == "" {
		meter = startStallMeter()
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
	for _, dir := range opens {
		if len(opens) > 1 {
			runs, err := app.LoadRunRecords(dir)
			if err != nil {
				return usageError{err.Error()}
			}
			wb.Compare.AddRuns(runs...)
			wb.ShowTabNamed("compare")
		} else if err := wb.OpenRunFolder(dir); err != nil {
			return usageError{err.Error()}
		}
	}
	if *tab != "" && !wb.ShowTabNamed(*tab) {
		return usagef("unknown tab %q", *tab)
	}
	if *runGen != "" {
		// Start once the window is up, so that --stall-report measures the run, not start-up.
		a.Lifecycle().SetOnStarted(func() {
			time.AfterFunc(300*time.Millisecond, func() {
				fyne.Do(func() {
					if *stall {
						meter = startStallMeter()
						app.LongestUICallback(true)
					}
					wb.Run.Start()
				})
			})
		})
	}
	a.Run()
	wb.Close()
	if meter != nil {
		fmt.Println(meter.stop())
	}

	if *screenshot != "" && !captured.Load() {
		setResult(errors.New("quit before the first sample (or the run) was drawn: no screenshot taken"))
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

// stallMeter measures how long the UI goroutine keeps other work waiting: a beat is queued
// every few milliseconds and the time until it runs is recorded.
type stallMeter struct {
	stopCh chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	beats  []time.Duration
}

func startStallMeter() *stallMeter {
	m := &stallMeter{stopCh: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-m.stopCh:
				return
			case <-tick.C:
			}
			queued := time.Now()
			ran := make(chan time.Duration, 1)
			fyne.Do(func() { ran <- time.Since(queued) })
			select {
			case d := <-ran:
				m.mu.Lock()
				m.beats = append(m.beats, d)
				m.mu.Unlock()
			case <-m.stopCh:
				return
			}
		}
	}()
	return m
}

// stop ends the measurement and reports the longest wait and the 99th percentile.
func (m *stallMeter) stop() string {
	close(m.stopCh)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.beats) == 0 {
		return "ui stall: no beats measured"
	}
	sorted := append([]time.Duration(nil), m.beats...)
	slices.Sort(sorted)
	p99 := sorted[min(len(sorted)-1, len(sorted)*99/100)]
	return fmt.Sprintf("ui stall: longest %v, p99 %v over %d beats; longest workbench callback %v",
		sorted[len(sorted)-1].Round(100*time.Microsecond), p99.Round(100*time.Microsecond), len(sorted),
		app.LongestUICallback(false).Round(100*time.Microsecond))
}
