package smb

import (
	"errors"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/smb/engine"
	"pcgwb/problems/space"
)

func refData(t testing.TB) { problemtest.RefDataFiles(t, data.SMBSlices) }

func mustMake(t testing.TB, name string) *Problem {
	t.Helper()
	p, err := problems.Make(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Problem)
}

// Every golden item runs, including the two levels the A* agent plays for the full 499 steps.
func TestGolden(t *testing.T) {
	refData(t)
	problemtest.CheckGolden(t, mustMake(t, "smb-v0"), problemtest.LoadGolden(t, "testdata/smb-v0.json"))
}

func TestConformance(t *testing.T) {
	refData(t)
	for _, name := range []string{"smb-v0", "smb-medium-v0", "smb-small-v0", "smb-scene-v0"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			problemtest.Conformance(t, name, problemtest.Options{})
		})
	}
}

func TestVariantParameters(t *testing.T) {
	refData(t)
	for _, c := range []struct {
		name                    string
		timer                   int
		solver                  float64
		enemies, jumps, coins   int
		cEnemies, cJumps, cCoin int
	}{
		{"smb-v0", 15, 100, 21, 30, 15, 2, 3, 1},
		{"smb-medium-v0", 10, 100, 14, 20, 10, 1, 2, 1},
		{"smb-small-v0", 5, 100, 7, 10, 5, 0, 1, 0},
		{"smb-scene-v0", 2, 50, 2, 3, 2, 0, 0, 0},
	} {
		p := mustMake(t, c.name)
		ctl := p.control
		got := []int{p.timer, ctl[0].Space.(space.Int).Max, ctl[1].Space.(space.Int).Max,
			ctl[2].Space.(space.Int).Max, p.errEnemies, p.errJumps, p.errCoins}
		want := []int{c.timer, c.enemies, c.jumps, c.coins, c.cEnemies, c.cJumps, c.cCoin}
		for i := range want {
			if got[i] != want[i] || p.solver != c.solver {
				t.Errorf("%s: timer, control maxima, errors = %v (solver %v), want %v (solver %v)", c.name, got, p.solver, want, c.solver)
				break
			}
		}
	}
}

// Without any data directory the problem is listed but refuses to run, with one line saying
// how to enable it.
func TestMissingDataRefusesWithHint(t *testing.T) {
	t.Setenv(data.EnvVar, t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	_, err := problems.Make("smb-v0")
	if err == nil {
		t.Fatal("smb-v0 was made without its slice library")
	}
	if msg := err.Error(); !strings.Contains(msg, "smb/slices.txt") || !strings.Contains(msg, data.EnvVar) || strings.Contains(msg, "\n") {
		t.Errorf("error %q does not name the file and the variable on one line", msg)
	}
}

func TestParseSlicesFollowsTheReference(t *testing.T) {
	lib, err := parseSlices([]byte("--------------XX\r\n\n  ----------ttttXX  \n--------------XX"))
	if err != nil || len(lib) != 3 || lib[1] != "----------ttttXX" {
		t.Fatalf("parseSlices = %q, %v", lib, err)
	}
	if _, err := parseSlices([]byte("---XX\n")); err == nil {
		t.Error("a short slice was accepted")
	}
}

func TestStaticChecks(t *testing.T) {
	// A pipe run of odd length counts when a non-pipe tile ends it, not at the row's end.
	if n := tubeIssues([]string{"-ttt-tt-t", "t-tt", "ttt"}); n != 2 {
		t.Errorf("tubeIssues = %d, want 2", n)
	}
	rows := make([]string, Rows)
	for y := range rows {
		rows[y] = strings.Repeat("-", 10)
	}
	rows[Rows-1] = "XXXXXXXXXX"
	rows[Rows-2] = "XXXXXX-XXX"
	rows[Rows-3] = "-g----k---"
	rows[Rows-5] = "-X--------"
	rows[Rows-6] = "-g--------"
	f, err := floatingEnemies(rows, false)
	if err != nil || f != 1.0/3 {
		t.Errorf("floating enemies = %v, %v; want 1/3 (the koopa over the hole)", f, err)
	}
	n := noise(rows)
	two, nine := 2.0, 9.0
	if want := two/nine - 0.16; n[Rows-2] != want || n[0] != 0 || n[Rows-1] != 0 {
		t.Errorf("noise = %v, want %v in row 14, 0 in rows 0 and 15", n, want)
	}
	// An enemy on the bottom row: the tile version counts it floating, the slice version
	// fails like the reference (which reads past the level).
	rows[Rows-1] = "XXXXgXXXXX"
	if f, err := floatingEnemies(rows, true); err != nil || f != 2.0/4 {
		t.Errorf("tile version: %v, %v; want 0.5", f, err)
	}
	if _, err := floatingEnemies(rows, false); err == nil {
		t.Error("slice version accepted an enemy on the bottom row")
	}
	for y := range rows {
		rows[y] = strings.Repeat("-", 10)
	}
	if _, err := floatingEnemies(rows, true); !errors.Is(err, ErrNoEnemies) {
		t.Errorf("a level without enemies: %v, want ErrNoEnemies", err)
	}
}

// A level of plain ground slices has no enemy: the reference raises ZeroDivisionError there.
func TestNoEnemiesIsAnError(t *testing.T) {
	refData(t)
	p := mustMake(t, "smb-scene-v0")
	c := make([]any, 16)
	for i := range c {
		c[i] = 0
	}
	if _, err := p.Info(c); !errors.Is(err, ErrNoEnemies) {
		t.Errorf("Info = %v, want ErrNoEnemies", err)
	}
}

// The diversity grid clamps x to column 15 like y, so positions past the first screen count
// in the same cell.
func TestDiversityClampsXToTheFirstScreen(t *testing.T) {
	refData(t)
	p := mustMake(t, "smb-v0")
	a := &Info{Locations: [][2]float64{{300, 200}, {2000, 200}}}
	b := &Info{Locations: [][2]float64{{1000, 207}, {2390, 192}}}
	if d := p.Diversity(a, b); d != 0 {
		t.Errorf("diversity = %v, want 0 (every location in column 15, row 12)", d)
	}
	c := &Info{Locations: [][2]float64{{20, 200}, {40, 200}}}
	if d := p.Diversity(a, c); d != 1 {
		t.Errorf("diversity = %v, want 1", d)
	}
	if d := p.Diversity(&Info{}, &Info{}); d != 0 {
		t.Errorf("diversity of two unplayed levels = %v, want 0", d)
	}
}

func TestRenderSize(t *testing.T) {
	refData(t)
	p := mustMake(t, "smb-v0")
	g := problemtest.LoadGolden(t, "testdata/smb-v0.json")
	img, err := p.Render(g.Contents(t, p)[20])
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2496 || b.Dy() != 256 {
		t.Errorf("render is %v, want 2496×256", b)
	}
	if c := img.At(5, 5); c != Sky {
		t.Errorf("top-left pixel %v, want the sky", c)
	}
}

func TestRenderWorldShowsTheScreen(t *testing.T) {
	refData(t)
	p := mustMake(t, "smb-v0")
	g := problemtest.LoadGolden(t, "testdata/smb-v0.json")
	rows, _ := p.Rows(g.Contents(t, p)[21])
	l, err := engine.ParseLevel(Text(rows))
	if err != nil {
		t.Fatal(err)
	}
	game := engine.NewGame(l, p.Timer())
	for i := 0; i < 100; i++ {
		game.Step(engine.Right | engine.Speed)
	}
	img := RenderWorld(game.World())
	if b := img.Bounds(); b.Dx() != engine.ScreenWidth || b.Dy() != engine.ScreenHeight {
		t.Errorf("frame is %v", b)
	}
}

func BenchmarkInfo(b *testing.B) {
	refData(b)
	p := mustMake(b, "smb-v0")
	g := problemtest.LoadGolden(b, "testdata/smb-v0.json")
	problemtest.BenchInfo(b, p, g.Contents(b, p))
}
