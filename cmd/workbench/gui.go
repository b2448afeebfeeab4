//go:build cgo

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
	"strings"
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

// appID is the workbench's Fyne application ID (also in cmd/workbench/FyneApp.toml): it names the
// preferences and storage folders.
const appID = "io.github.pcgworkbench"

// screenshotSettle is how long the window gets to paint a new gallery before it is captured:
// Capture reads the last frame drawn, not the widgets.
const screenshotSettle = 600 * time.Millisecond

// guiFlags are the window's command-line options, parsed apart from running it.
type guiFlags struct {
	opts         app.Options
	exitAfter    time.Duration
	screenshot   string
	quitAfterRun bool
	stall        bool
	script       guiScript
}

// parseGUIFlags reads the window's flags into app.Options and the shell's own settings.
func parseGUIFlags(args []string) (*guiFlags, error) {
	fs, finish := guiFlagSet()
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err.Error()}
	}
	return finish()
}

// guiFlagSet declares the window's flags (also listed by `workbench --help`); finish checks
// them once parsed.
func guiFlagSet() (*flag.FlagSet, func() (*guiFlags, error)) {
	fs := flag.NewFlagSet("workbench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g := &guiFlags{}
	fs.DurationVar(&g.exitAfter, "exit-after", 0, "quit after this long (0: run until the window is closed)")
	fs.StringVar(&g.screenshot, "screenshot", "", "once the first sample is drawn, save the window as a PNG at this path and quit")
	fs.StringVar(&g.opts.Problem, "problem", "", "problem to open (default "+app.DefaultProblem+")")
	fs.IntVar(&g.opts.Samples, "n", app.DefaultSamples, "number of contents to sample")
	seed := fs.Uint64("seed", 0, "random seed of the first sample (and of --run)")
	runGen := fs.String("run", "", "start a run with this generator (random, es, ga, …) once the window is up; --screenshot then waits for it to finish")
	generations := fs.Int("generations", 20, "generations of --run")
	pop := fs.Int("pop", app.DefaultPopulation, "population of --run")
	fs.StringVar(&g.opts.OutputDir, "out", "", "folder for run folders this session (default: the settings' output folder)")
	fs.StringVar(&g.opts.Tab, "tab", "", "tab to show: "+strings.Join(app.TabNames(), ", ")+" (default: run with --run, else sample)")
	fs.Func("open", "open a run folder (one run: the Run tab; a folder of runs: Compare); repeat to compare several", func(dir string) error {
		g.opts.Open = append(g.opts.Open, dir)
		return nil
	})
	fs.StringVar(&g.opts.BirdsFolder, "birds-folder", "", "evaluate this Science Birds competition folder (TEAM/raw/…) in the Birds tab (what `workbench FOLDER` does); --screenshot then waits for it")
	fs.BoolVar(&g.quitAfterRun, "quit-after-run", false, "quit when the --run run stops")
	g.script.flags(fs, &g.opts)
	fs.BoolVar(&g.stall, "stall-report", false, "measure how long the UI goroutine is kept busy and print the longest stall at exit")
	var birdsClassifier birdsFlags // the Birds tab's letter classifier, as on the birds commands
	birdsClassifier.registerClassifier(fs)
	return fs, func() (*guiFlags, error) {
		c, err := birdsClassifier.classifier()
		if err != nil {
			return nil, err
		}
		g.opts.BirdsClassifier = c
		return g.finish(fs, seed, runGen, generations, pop)
	}
}

func (g *guiFlags) finish(fs *flag.FlagSet, seed *uint64, runGen *string, generations, pop *int) (*guiFlags, error) {
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	if g.opts.Samples < 1 || g.opts.Samples > app.MaxSamples {
		return nil, usagef("-n must be from 1 to %d", app.MaxSamples)
	}
	if _, ok := problems.Lookup(g.opts.Problem); g.opts.Problem != "" && !ok {
		_, err := problems.Make(g.opts.Problem) // its error suggests the closest name
		return nil, usageError{err.Error()}
	}
	if *runGen != "" && (*generations < 0 || *pop < 1) {
		return nil, usagef("--generations must be >= 0 and --pop >= 1")
	}
	if g.opts.Tab != "" && !slices.Contains(app.TabNames(), strings.ToLower(g.opts.Tab)) {
		return nil, usagef("unknown tab %q (one of %s)", g.opts.Tab, strings.Join(app.TabNames(), ", "))
	}
	if g.opts.BirdsFolder != "" {
		if fi, err := os.Stat(g.opts.BirdsFolder); err != nil || !fi.IsDir() {
			return nil, usagef("--birds-folder %s is not a folder", excerptArg(g.opts.BirdsFolder))
		}
		if g.opts.Tab == "" {
			g.opts.Tab = "birds"
		}
	}
	g.opts.Seed = seed
	if *runGen != "" {
		g.opts.Run = &app.RunOptions{Generator: *runGen, Generations: *generations, Population: *pop}
	}
	g.opts.SampleAtStart = true
	if err := g.script.check(g); err != nil {
		return nil, err
	}
	return g, nil
}

// runGUI opens the workbench window and returns when it closes.
func runGUI(args []string) error {
	g, err := parseGUIFlags(args)
	if err != nil {
		return err
	}
	if g.screenshot != "" && os.Getenv("GALLIUM_DRIVER") == "" {
		// Capture reads the GL front buffer, and Mesa's llvmpipe (the software renderer under
		// Xvfb) returns it all black; softpipe returns the real frame. Hardware drivers ignore
		// the variable, and only screenshot runs pay for the slower renderer.
		os.Setenv("GALLIUM_DRIVER", "softpipe")
	}
	if err := checkDisplay(); err != nil {
		return err
	}
	a := fyneapp.NewWithID(appID)
	s := &guiSession{g: g, a: a}
	s.hook()
	s.hookScript()
	wb, err := app.New(a, g.opts)
	if err != nil {
		return usageError{err.Error()}
	}
	s.wb = wb
	return s.run()
}

// guiSession is one window's life: the hooks of --screenshot, --quit-after-run and
// --stall-report, and the first error any of them met.
type guiSession struct {
	g        *guiFlags
	a        fyne.App
	wb       *app.Workbench
	mu       sync.Mutex
	result   error
	sampled  bool        // the first sample is on screen (UI goroutine only)
	captured atomic.Bool // the screenshot was attempted
	meter    *stallMeter
}

func (s *guiSession) setResult(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result == nil {
		s.result = err
	}
}

// hook sets the options' callbacks: a screenshot after the first sample or the run, a quit
// after the run.
func (s *guiSession) hook() {
	g := s.g
	if g.opts.Run != nil {
		g.opts.OnRunStopped = func(_ *app.RunRecord, state app.RunState, err error) {
			if m := s.stallMeter(); m != nil {
				if report, first := m.stop(); first {
					fmt.Println(report)
				}
			}
			if state != app.RunFinished && err == nil {
				err = fmt.Errorf("the run stopped: %v", state)
			}
			if err != nil {
				s.setResult(fmt.Errorf("the run failed: %w", err))
			}
			switch {
			case g.screenshot != "":
				s.capture(nil)
			case g.quitAfterRun:
				s.a.Quit()
			}
		}
	}
	if g.screenshot != "" && g.opts.Run == nil {
		g.opts.OnSampled = func(_ *app.SampleSet, sampleErr error) {
			if s.sampled {
				return
			}
			s.sampled = true
			// Save even a failed sample: the picture shows the error banner.
			if sampleErr != nil {
				sampleErr = fmt.Errorf("the first sample failed: %w", sampleErr)
			}
			s.capture(sampleErr)
		}
	}
}

// capture saves the window once it has had time to paint, then quits.
func (s *guiSession) capture(stepErr error) {
	go func() {
		// let every panel finish drawing (galleries render their levels in the background),
		// then give the window time to paint the result
		// A loaded machine (CI running other tests) can take long: wait as long as the
		// session may last rather than a fixed half minute.
		// Leave time to take the picture before an --exit-after quit.
		wait := 90 * time.Second
		if s.g.exitAfter > 0 {
			wait = max(10*time.Second, s.g.exitAfter-15*time.Second)
		}
		if err := s.wb.WaitIdle(wait); err != nil {
			s.setResult(fmt.Errorf("screenshot: %w", err))
		}
		time.Sleep(screenshotSettle)
		fyne.Do(func() {
			s.captured.Store(true)
			if err := writePNG(s.g.screenshot, s.wb); err != nil {
				s.setResult(err)
			}
			if stepErr != nil {
				s.setResult(stepErr)
			}
			s.a.Quit()
		})
	}()
}

// run shows the window and returns when it closes.
func (s *guiSession) run() error {
	g, a, wb := s.g, s.a, s.wb
	if g.exitAfter > 0 {
		timer := time.AfterFunc(g.exitAfter, func() { fyne.Do(a.Quit) })
		defer timer.Stop()
	}
	if g.stall && g.opts.Run == nil {
		s.setStallMeter(startStallMeter(wb.LongestUICallback))
	}
	wb.Window.SetMaster() // closing it quits, whatever other windows panels open later
	wb.Window.Show()
	if g.opts.Run != nil {
		// Start once the window is up, so that --stall-report measures the run, not start-up.
		a.Lifecycle().SetOnStarted(func() {
			time.AfterFunc(300*time.Millisecond, func() {
				fyne.Do(func() {
					if g.stall {
						s.setStallMeter(startStallMeter(wb.LongestUICallback))
						wb.LongestUICallback(true)
					}
					wb.StartRun()
				})
			})
		})
	}
	s.startScript()
	a.Run()
	wb.Close()
	if m := s.stallMeter(); m != nil {
		if report, first := m.stop(); first {
			fmt.Println(report)
		}
	}
	if g.screenshot != "" && !s.captured.Load() {
		s.setResult(errors.New("quit before the first sample (or the run) was drawn: no screenshot taken"))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result
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
	// longest is the window's LongestUICallback.
	longest func(reset bool) time.Duration
	// once makes stop safe to call twice: the run's end and the window's close can both stop
	// the meter (an exit-after during a long run does both).
	once   sync.Once
	report string
	mu     sync.Mutex
	beats  []time.Duration
}

func startStallMeter(longest func(reset bool) time.Duration) *stallMeter {
	m := &stallMeter{stopCh: make(chan struct{}), done: make(chan struct{}), longest: longest}
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

// stallMeter is the session's meter (nil without --stall-report); the UI goroutine and the
// main goroutine both read it.
func (s *guiSession) stallMeter() *stallMeter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meter
}

func (s *guiSession) setStallMeter(m *stallMeter) {
	s.mu.Lock()
	s.meter = m
	s.mu.Unlock()
}

// stop ends the measurement and reports the longest wait and the 99th percentile; first is
// false for every call after the first (which should not print it again).
func (m *stallMeter) stop() (report string, first bool) {
	m.once.Do(func() { m.report, first = m.measure(), true })
	return m.report, first
}

// measure stops the heartbeat and summarises it.
func (m *stallMeter) measure() string {
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
		m.longest(false).Round(100*time.Microsecond))
}
