package golden

import (
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// disc draws an anti-aliased disc of radius r centred at (cx, cy) in c on white: each pixel's
// coverage is sampled 8×8 times, as a rasteriser's would be, so a sub-pixel move changes the
// edge pixels' values the way it does for glyphs.
func disc(w, h int, cx, cy, r float64, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	const n = 8
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			in := 0
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					dx, dy := float64(x)+(float64(sx)+0.5)/n-cx, float64(y)+(float64(sy)+0.5)/n-cy
					if math.Hypot(dx, dy) <= r {
						in++
					}
				}
			}
			a := float64(in) / n / n
			mix := func(v uint8) uint8 { return uint8(math.Round(float64(v)*a + 255*(1-a))) }
			img.SetNRGBA(x, y, color.NRGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255})
		}
	}
	return img
}

func noisy(img *image.NRGBA, amount int) *image.NRGBA {
	out := image.NewNRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	for i := range out.Pix {
		if i%4 == 3 {
			continue
		}
		v := int(out.Pix[i]) + amount*(1-2*(i/4%2)) // alternate up and down
		out.Pix[i] = uint8(max(0, min(255, v)))
	}
	return out
}

func TestCompareTolerance(t *testing.T) {
	red := color.NRGBA{R: 241, G: 90, B: 96, A: 255}
	green := color.NRGBA{R: 122, G: 195, B: 106, A: 255}
	base := disc(40, 30, 20, 15, 8, red)
	tests := []struct {
		name   string
		got    image.Image
		tol    Tolerance
		failed bool
	}{
		{"identical, exact", disc(40, 30, 20, 15, 8, red), Exact, false},
		{"identical, text", disc(40, 30, 20, 15, 8, red), Text, false},
		{"moved a third of a pixel", disc(40, 30, 20.33, 15, 8, red), Text, false},
		{"moved half a pixel both ways", disc(40, 30, 20.5, 15.5, 8, red), Text, false},
		{"moved one pixel", disc(40, 30, 21, 15, 8, red), Text, false},
		{"moved half a pixel, exact", disc(40, 30, 20.5, 15, 8, red), Exact, true},
		{"moved three pixels", disc(40, 30, 23, 15, 8, red), Text, true},
		{"radius two pixels larger", disc(40, 30, 20, 15, 10, red), Text, true},
		{"another colour", disc(40, 30, 20, 15, 8, green), Text, true},
		{"gone", disc(40, 30, 20, 15, 0, red), Text, true},
		{"rounding noise of 8", noisy(base, 8), Text, false},
		{"noise of 40", noisy(base, 40), Text, true},
		{"rounding noise of 8, exact", noisy(base, 8), Exact, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Compare(base, tt.got, tt.tol)
			if err != nil {
				t.Fatal(err)
			}
			if (res.Failed > 0) != tt.failed {
				t.Fatalf("%d pixels failed (first at %v), want failure %v", res.Failed, res.First, tt.failed)
			}
			// the check is symmetric
			back, _ := Compare(tt.got, base, tt.tol)
			if back.Failed != res.Failed {
				t.Errorf("%d pixels fail one way, %d the other", res.Failed, back.Failed)
			}
		})
	}
	// A disc that vanishes in the got image fails as surely as one that appears.
	empty := disc(40, 30, 20, 15, 0, red)
	if res, _ := Compare(empty, base, Text); res.Failed == 0 {
		t.Error("an added disc passes")
	}
	if _, err := Compare(base, disc(41, 30, 20, 15, 8, red), Text); err == nil || !strings.Contains(err.Error(), "size") {
		t.Errorf("another size: %v", err)
	}
	// An image whose bounds do not start at (0, 0) is compared by position.
	sub := disc(50, 40, 25, 20, 8, red).SubImage(image.Rect(5, 5, 45, 35))
	if res, err := Compare(base, sub, Exact); err != nil || res.Failed != 0 {
		t.Errorf("an offset image: %d failed, %v", res.Failed, err)
	}
}

// fatalTB records a failure instead of ending the test (it panics and the caller recovers), so
// that the failure path of CheckImage can be checked.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = format
	panic(f)
}
func (f *fatalTB) Fatal(args ...any) { panic(f) }

func checkFails(t *testing.T, fn func(tb testing.TB)) (failed bool) {
	tb := &fatalTB{TB: t}
	defer func() {
		if r := recover(); r != nil {
			if r != tb {
				panic(r)
			}
			failed = true
		}
	}()
	fn(tb)
	return false
}

// CheckImage writes the golden file with -update, passes against it, and on a difference
// fails and leaves NAME.got.png and NAME.diff.png with the failing pixels in red.
func TestCheckImageUpdateAndDiff(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "golden", "disc.png")
	red := color.NRGBA{R: 241, G: 90, B: 96, A: 255}
	want := disc(40, 30, 20, 15, 8, red)
	if !checkFails(t, func(tb testing.TB) { CheckImage(tb, path, want, Text) }) {
		t.Fatal("a missing golden file passes")
	}
	*update = true
	CheckImage(t, path, want, Text)
	*update = false
	if checkFails(t, func(tb testing.TB) { CheckImage(tb, path, disc(40, 30, 20.5, 15, 8, red), Text) }) {
		t.Fatal("a half-pixel move fails the text tolerance")
	}
	moved := disc(40, 30, 24, 15, 8, red)
	if !checkFails(t, func(tb testing.TB) { CheckImage(tb, path, moved, Text) }) {
		t.Fatal("a disc moved by 4 pixels passes")
	}
	got := ReadPNG(t, filepath.Join(dir, "golden", "disc.got.png"))
	if res, _ := Compare(moved, got, Exact); res.Failed != 0 {
		t.Error("disc.got.png is not what the test drew")
	}
	diff := ReadPNG(t, filepath.Join(dir, "golden", "disc.diff.png"))
	reds := 0
	b := diff.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := color.NRGBAModel.Convert(diff.At(x, y)).(color.NRGBA); c == (color.NRGBA{R: 255, A: 255}) {
				reds++
			}
		}
	}
	res, _ := Compare(want, moved, Text)
	if reds != res.Failed || reds == 0 {
		t.Errorf("the diff image marks %d pixels, %d failed", reds, res.Failed)
	}
}

// Check (text and markup) fails on the first different byte and writes NAME.got.
func TestCheckBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.xml")
	if err := os.WriteFile(path, []byte("<a>1</a>"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, path, []byte("<a>1</a>"), Bytes)
	if !checkFails(t, func(tb testing.TB) { Check(tb, path, []byte("<a>2</a>"), Bytes) }) {
		t.Fatal("different markup passes")
	}
	if got, err := os.ReadFile(path + ".got"); err != nil || string(got) != "<a>2</a>" {
		t.Fatalf("a.xml.got: %q, %v", got, err)
	}
	if err := Bytes([]byte("abc"), []byte("abd")); err == nil || !strings.Contains(err.Error(), "byte 2") {
		t.Errorf("Bytes: %v", err)
	}
}
