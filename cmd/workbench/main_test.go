package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
	"pcgwb/problems/space"
)

// childEnv makes the test binary act as the workbench itself, so a test can open the real
// window (cgo GLFW driver, real GL) in a child process: Fyne wants the main thread of a
// process of its own.
const childEnv = "WORKBENCH_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if len(problems.List()) == 0 {
			registerSmokeProblem() // keep the smoke test meaningful in a build without problems
		}
		os.Args = append(os.Args[:1], withoutTestFlags(os.Args[1:])...)
		main() // exits
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func withoutTestFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-test.") {
			out = append(out, a)
		}
	}
	return out
}

// haveDisplay starts every test that opens a real window: it skips under -short (the unit
// tier: real windows are slow) and without a display, except on CI (CI=true), where `make
// test` runs the tests under xvfb-run and a missing display is a broken setup.
func haveDisplay(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("opens a real window (-short)")
	}
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no DISPLAY: run the tests under xvfb-run (make test does)")
	}
	t.Skip("no display: run under xvfb-run -a -s \"-screen 0 1280x800x24\"")
}

// startChild runs the workbench (this test binary in child mode) with args.
func startChild(ctx context.Context, t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		cmd.Env = append(cmd.Env, "XDG_RUNTIME_DIR="+t.TempDir()) // quiets Fyne's Wayland probe
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func TestRealWindowSmoke(t *testing.T) {
	haveDisplay(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	start := time.Now()
	cmd, out := startChild(ctx, t, "--screenshot", shot, "--exit-after", "20s")
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the workbench did not exit within 90 s:\n%s", out)
	}
	if err != nil {
		t.Fatalf("workbench: %v\n%s", err, out)
	}
	t.Logf("window opened, sampled, captured and closed in %v", time.Since(start).Round(time.Millisecond))

	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	saveForInspection(t, "smoke-window.png", data)
	saveForInspection(t, "sample.png", data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 450 || b.Dx() > 4000 || b.Dy() > 3000 {
		t.Fatalf("screenshot is %v; the window should be about 1280×720", b.Size())
	}
	if colors, top := colorStats(img); colors < 20 || top >= 0.95 {
		t.Fatalf("screenshot looks blank: %d colours, the most common covers %.1f%%", colors, 100*top)
	}
}

// TestRealWindowRunsGA opens the real window, runs a short GA on binary-v0 in the Run tab and
// saves the window once the run is done: plots, status and the final population must be there.
func TestRealWindowRunsGA(t *testing.T) {
	haveDisplay(t)
	if _, ok := problems.Lookup("binary-v0"); !ok {
		t.Skip("binary-v0 is not registered in this build")
	}
	shot := filepath.Join(t.TempDir(), "run.png")
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	start := time.Now()
	cmd, log := startChild(ctx, t, "--problem", "binary-v0", "--run", "ga", "--generations", "30", "--seed", "1",
		"--out", out, "--screenshot", shot, "--exit-after", "100s")
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the workbench did not exit within 120 s:\n%s", log)
	}
	if err != nil {
		t.Fatalf("workbench: %v\n%s", err, log)
	}
	t.Logf("ran 30 generations of GA on binary-v0 in the real window in %v", time.Since(start).Round(time.Millisecond))
	finals, _ := filepath.Glob(filepath.Join(out, "*", "final.json"))
	if len(finals) != 1 {
		t.Fatalf("the run folder has no final.json (%v)\n%s", finals, log)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, log)
	}
	saveForInspection(t, "run-binary-ga.png", data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if colors, top := colorStats(img); colors < 20 || top >= 0.95 {
		t.Fatalf("screenshot looks blank: %d colours, the most common covers %.1f%%", colors, 100*top)
	}
	// the plots draw best fitness in palette lime and the badges pass in palette green
	if n := countColor(img, assets.Palette['l']); n < 100 {
		t.Errorf("the fitness curve is not visible (%d lime pixels)", n)
	}
	if n := badgePixels(img); n < 500 {
		t.Errorf("the population gallery is not visible (%d badge pixels)", n)
	}
}

// TestRealWindowStaysResponsive runs 200 generations of GA (population 100) on binary-v0 in
// the real window and measures how long the UI goroutine keeps queued work waiting (a beat
// every 5 ms). Under Xvfb the frames are painted by Mesa's software renderer on the same
// cores as the run, so the heartbeat includes painting and depends on the machine's load: it
// is reported, not asserted. The workbench's own callbacks are measured separately (aim: under
// 50 ms; the test fails only on a gross regression such as drawing on the UI goroutine).
func TestRealWindowStaysResponsive(t *testing.T) {
	if raceDetector {
		t.Skip("limits, CPU budgets and window timings do not hold under the race detector; make test runs this")
	}
	haveDisplay(t)
	if _, ok := problems.Lookup("binary-v0"); !ok {
		t.Skip("binary-v0 is not registered in this build")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	cmd, log := startChild(ctx, t, "--problem", "binary-v0", "--run", "ga", "--generations", "200", "--seed", "1",
		"--out", t.TempDir(), "--quit-after-run", "--stall-report", "--exit-after", "280s")
	if err := cmd.Wait(); err != nil || ctx.Err() != nil {
		t.Fatalf("workbench: %v\n%s", err, log)
	}
	line := ""
	if i := strings.Index(log.String(), "ui stall:"); i >= 0 {
		line = strings.TrimSpace(strings.SplitN(log.String()[i:], "\n", 2)[0])
	}
	t.Log(line)
	var longest, p99, callback time.Duration
	var beats int
	var l, p, c string
	if _, err := fmt.Sscanf(line, "ui stall: longest %s p99 %s over %d beats; longest workbench callback %s", &l, &p, &beats, &c); err != nil {
		t.Fatalf("cannot read the stall report %q: %v", line, err)
	}
	longest, _ = time.ParseDuration(strings.TrimSuffix(l, ","))
	p99, _ = time.ParseDuration(p)
	callback, _ = time.ParseDuration(c)
	if beats < 20 {
		t.Errorf("only %d heartbeats: the UI goroutine was blocked", beats)
	}
	// A gross regression (drawing or computing on the UI goroutine) shows as one callback far
	// longer than the machine's own stalls. On a starved machine (other test binaries busy on
	// every core) every wait grows alike, so a long callback is judged against the p99 wait:
	// a wall-clock figure alone would fail on load, not on code.
	if callback > 250*time.Millisecond && callback > 2*p99 {
		t.Errorf("a workbench callback held the UI goroutine for %v (aim: under 50 ms; p99 wait %v)", callback, p99)
	}
	if longest > 50*time.Millisecond || callback > 50*time.Millisecond {
		t.Logf("above the 50 ms aim: longest wait %v (p99 %v), longest workbench callback %v", longest, p99, callback)
	}
}

// TestRealWindowTabs opens the Editor, Compare and Expressive range tabs in the real window
// and keeps a screenshot of each in testdata/screens/ (the README's pictures come from docs/screens/regenerate.sh): the compared runs are
// small GA and random-search runs of zelda-v0 recorded first.
func TestRealWindowTabs(t *testing.T) {
	if raceDetector {
		t.Skip("limits, CPU budgets and window timings do not hold under the race detector; make test runs this")
	}
	haveDisplay(t)
	if _, ok := problems.Lookup("zelda-v0"); !ok {
		t.Skip("zelda-v0 is not registered in this build")
	}
	runs := t.TempDir()
	for _, g := range []string{"random", "es", "ga"} {
		for seed := 1; seed <= 3; seed++ {
			cfg := experiment.Config{Generator: g, Generations: 15, Options: search.Options{
				Problem: "zelda-v0", Fitness: search.FitnessQuality, Seed: uint64(seed), PopSize: 30}}
			r, err := experiment.Create(filepath.Join(runs, g, fmt.Sprint(seed)), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Execute(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		args []string
	}{
		{"editor", []string{"--problem", "zelda-v0", "--tab", "editor"}},
		{"compare", []string{"--problem", "zelda-v0", "--open", runs}},
		{"expressive", []string{"--problem", "zelda-v0", "--open", filepath.Join(runs, "ga", "1"), "--tab", "expressive"}},
		{"birds", []string{"--problem", "zelda-v0", "--tab", "birds"}},
		{"games", []string{"--problem", "zelda-v0", "--tab", "games"}},
		{"llm", []string{"--problem", "zelda-v0", "--tab", "llm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shot := filepath.Join(t.TempDir(), "shot.png")
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd, log := startChild(ctx, t, append(tt.args, "--screenshot", shot, "--exit-after", "60s")...)
			if err := cmd.Wait(); err != nil || ctx.Err() != nil {
				t.Fatalf("workbench: %v\n%s", err, log)
			}
			data, err := os.ReadFile(shot)
			if err != nil {
				t.Fatalf("no screenshot: %v\n%s", err, log)
			}
			saveForInspection(t, tt.name+".png", data)
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if colors, top := colorStats(img); colors < 20 || top >= 0.95 {
				t.Fatalf("screenshot looks blank: %d colours, the most common covers %.1f%%", colors, 100*top)
			}
		})
	}
}

// countColor counts the pixels of exactly colour c.
func countColor(img image.Image, c color.RGBA) int {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// TestRealWindowOnXRoot checks what the X server itself shows, independently of Fyne's
// capture: ImageMagick grabs the root window while the workbench runs.
func TestRealWindowOnXRoot(t *testing.T) {
	haveDisplay(t)
	if os.Getenv("DISPLAY") == "" {
		t.Skip("not an X display")
	}
	importCmd, err := exec.LookPath("import")
	if err != nil {
		t.Skip("ImageMagick's import is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd, out := startChild(ctx, t, "--exit-after", "60s")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	grab := filepath.Join(t.TempDir(), "root.png")
	var colors int
	var top float64
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	deadline := time.After(45 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err // for the deferred cleanup
			t.Fatalf("the workbench exited before it was seen on the X root window: %v\n%s", err, out)
		case <-deadline:
			t.Fatalf("the X root window never showed the workbench (last grab: %d colours, top %.1f%%)\n%s", colors, 100*top, out)
		case <-tick.C:
		}
		if err := exec.CommandContext(ctx, importCmd, "-window", "root", grab).Run(); err != nil {
			continue
		}
		data, err := os.ReadFile(grab)
		if err != nil {
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			continue
		}
		// The window chrome appears first; wait for the gallery, recognisable by its badges
		// (solid palette green and red, which the chrome does not use).
		if colors, top = colorStats(img); colors >= 20 && top < 0.95 && badgePixels(img) >= 500 {
			saveForInspection(t, "smoke-xroot.png", data)
			return
		}
	}
}

// badgePixels counts the pixels in the badges' pass green and fail red.
func badgePixels(img image.Image) int {
	green, red := assets.Palette['g'], assets.Palette['r']
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0xff}
			if c == green || c == red {
				n++
			}
		}
	}
	return n
}

// colorStats returns the number of distinct colours and the share of the most common one.
func colorStats(img image.Image) (int, float64) {
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return len(counts), float64(top) / float64(max(1, b.Dx()*b.Dy()))
}

// saveForInspection keeps a real-window screenshot in testdata/screens/ (ignored by git; the
// README's pictures come from docs/screens/regenerate.sh) and, when $WORKBENCH_SMOKE_OUT is set, there too.
func saveForInspection(t *testing.T, name string, data []byte) {
	for _, dir := range []string{filepath.Join("testdata", "screens"), os.Getenv("WORKBENCH_SMOKE_OUT")} {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Log(err)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Log(err)
		}
	}
}

// smokeProblem stands in when no real problem is registered: a grid of the atlas's common
// tiles whose quality is the share of floor.
type smokeProblem struct{}

func registerSmokeProblem() {
	problems.MustRegister("smoke-grid-v0", problems.Params{}, func(problems.Params) (problems.Problem, error) {
		return smokeProblem{}, nil
	})
}

func (smokeProblem) ContentSpace() space.Space { return space.Grid(7, 11, 3) }
func (smokeProblem) ControlSpace() space.Space {
	return space.Dict{{Key: "floor", Space: space.Int{Min: 0, Max: 78}}}
}

func (smokeProblem) Info(c problems.Content) (problems.Info, error) {
	floor := 0
	for _, row := range c.([]any) {
		for _, v := range row.([]any) {
			if v.(int) == 0 {
				floor++
			}
		}
	}
	return floor, nil
}

func (smokeProblem) Quality(i problems.Info) float64 { return min(1, float64(i.(int))/30) }
func (smokeProblem) Diversity(a, b problems.Info) float64 {
	if a.(int) == b.(int) {
		return 0
	}
	return 1
}
func (smokeProblem) Controllability(i problems.Info, c problems.Control) float64 {
	d := i.(int) - c.(map[string]any)["floor"].(int)
	return max(0, 1-float64(d*d)/100)
}

func (smokeProblem) Render(c problems.Content) (image.Image, error) {
	var names [][]string
	for _, row := range c.([]any) {
		var line []string
		for _, v := range row.([]any) {
			line = append(line, [...]string{"floor", "wall", "player"}[v.(int)])
		}
		names = append(names, line)
	}
	return assets.TileMap(names), nil
}
