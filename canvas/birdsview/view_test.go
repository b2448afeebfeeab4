package birdsview

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"pcgwb/games/birds"
)

const (
	letterA  = "drop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 6)\ndrop_block('b13', 4)\ndrop_block('b13', 8)\ndrop_block('b31', 5)\ndrop_block('b31', 7)\n"
	toppling = "drop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b13', 5)\ndrop_block('b31', 6)\ndrop_block('b31', 7)\n"
)

func mustView(t *testing.T, program string) *View {
	t.Helper()
	lv, _, err := LevelFromText([]byte(program))
	if err != nil {
		t.Fatal(err)
	}
	v, err := New("test", lv)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The animation must end exactly where the evaluator's simulation does: it is the same run.
func TestAnimationEndsAtTheVerdict(t *testing.T) {
	for name, program := range map[string]string{"A": letterA, "toppling": toppling} {
		v := mustView(t, program)
		a := v.Animation()
		for !a.Done() {
			if err := a.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		got, want := a.Result(), a.Verdict()
		if got.Score != want.Score || got.Moving != want.Moving || got.Legacy != want.Legacy || got.Total != want.Total {
			t.Fatalf("%s: animation ends with %+v, Simulate says %+v", name, got, want)
		}
		for i := range want.Bodies {
			if got.Bodies[i].Last != want.Bodies[i].Last || got.Bodies[i].Image != want.Bodies[i].Image {
				t.Fatalf("%s: body %d ends at %+v, Simulate at %+v", name, i, got.Bodies[i].Last, want.Bodies[i].Last)
			}
		}
		t.Logf("%s: stability %.4f, %d of %d moving", name, want.Score, want.Moving, want.Total)
	}
}

func TestControls(t *testing.T) {
	v := mustView(t, letterA)
	a := v.Animation()
	v.Tick()
	v.Tick()
	if a.Step() != 2 {
		t.Fatalf("two ticks at real time made %d steps", a.Step())
	}
	v.TogglePause()
	v.Tick()
	if a.Step() != 2 || !v.Paused() {
		t.Fatalf("a paused view stepped to %d", a.Step())
	}
	v.StepOnce()
	if a.Step() != 3 || !v.Paused() {
		t.Fatalf("→ went to step %d (paused %v)", a.Step(), v.Paused())
	}
	v.TogglePause()
	v.ToggleSlow()
	for range 8 {
		v.Tick()
	}
	if a.Step() != 5 {
		t.Fatalf("8 ticks in slow motion made %d steps, want 2", a.Step()-3)
	}
	v.Restart()
	if a.Step() != 0 || !v.Slow() {
		t.Fatalf("restart left step %d (slow %v)", a.Step(), v.Slow())
	}
	v.Speed = 1000
	v.ToggleSlow()
	v.Tick()
	if !v.Done() {
		t.Fatalf("a tick at speed 1000 stopped at step %d", a.Step())
	}
}

func count(img *image.RGBA, c color.RGBA) int {
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				n++
			}
		}
	}
	return n
}

// TestFrame composes frames without a window: sky, ground, wood blocks at the start; the moving
// highlight while a structure falls; the verdict at the end.
func TestFrame(t *testing.T) {
	v := mustView(t, toppling)
	img := v.Frame()
	if img.Rect.Dx() != FrameWidth || img.Rect.Dy() != FrameHeight {
		t.Fatalf("frame is %v", img.Rect)
	}
	wood := MaterialColor(birds.Object{Kind: birds.KindBlock, Material: "wood"})
	if n := count(img, wood); n < 2000 {
		t.Fatalf("only %d wood pixels at the start", n)
	}
	if count(img, skyColor) < FrameWidth*100 || count(img, groundColor) < FrameWidth*10 {
		t.Fatal("no sky or ground")
	}
	if count(img, movingColor) != 0 {
		t.Fatal("a block is highlighted before anything moved")
	}
	if l1, l2, _ := v.Status(); !strings.Contains(l1, "step   0/514") || !strings.Contains(l2, "space pause") {
		t.Fatalf("status at the start: %q / %q", l1, l2)
	}
	sawMoving := false
	for !v.Done() {
		v.StepOnce()
		if v.Animation().Step()%10 == 0 && count(v.Frame(), movingColor) > 50 {
			sawMoving = true
		}
	}
	if v.Animation().Verdict().Moving > 0 && !sawMoving {
		t.Fatal("moving blocks were never highlighted")
	}
	l1, l2, _ := v.Status()
	if !strings.Contains(l2, "UNSTABLE: stability") {
		t.Fatalf("no verdict at the end: %q / %q", l1, l2)
	}
	// A stable structure shows the stable verdict.
	v = mustView(t, "drop_block('b31', 5)\ndrop_block('b31', 7)\n")
	v.Speed = 1000
	v.Tick()
	if _, l2, _ := v.Status(); !strings.HasPrefix(l2, "STABLE") {
		t.Fatalf("two flat blocks: %q", l2)
	}
}

func TestLevelFromText(t *testing.T) {
	lv, source, err := LevelFromText([]byte("Here:\n```python\n" + letterA + "```\n"))
	if err != nil || source != "answer" || len(lv.Objects) != 7 {
		t.Fatalf("answer: %v %q %v", err, source, lv)
	}
	xml := lv.XML()
	lv2, source, err := LevelFromText([]byte(xml))
	if err != nil || source != "level XML" || len(lv2.Objects) != 7 {
		t.Fatalf("xml: %v %q", err, source)
	}
	if _, _, err := LevelFromText([]byte("print('hello')")); err == nil {
		t.Fatal("a text without drop_block calls was accepted")
	}
	if _, _, err := LevelFromText([]byte("drop_block('b99', 3)")); err == nil {
		t.Fatal("a bad block was accepted")
	}
}
