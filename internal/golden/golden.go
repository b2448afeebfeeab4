// Package golden checks what a test drew or rendered against a file kept under the test's
// testdata, and rewrites those files when the test runs with -update:
//
//	go test ./problems/experiment -run Golden -update
//
// It is for tests only (it imports testing and declares the -update flag, so a test package
// that imports it must not declare its own). On a difference it writes what the test got next
// to the golden file (NAME.got, or NAME.got.png and a NAME.diff.png for images) so that the
// change can be looked at before it is accepted with -update.
//
// Images are compared with a tolerance (Tolerance) because text and anti-aliased lines are
// rasterised with floating point: a compiler that fuses multiply-adds (arm64, ppc64, s390x)
// or a new font rasteriser moves an edge by a fraction of a pixel and changes its coverage,
// which a byte comparison would report as a failure on every figure.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata instead of comparing with them")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the golden file at path, or rewrites the file with -update. same
// says how want and got differ (nil when they match). On a difference Check writes got to
// path + ".got" and fails the test.
func Check(t testing.TB, path string, got []byte, same func(want, got []byte) error) {
	t.Helper()
	if *update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update creates it)", err, t.Name())
	}
	if err := same(want, got); err != nil {
		_ = os.WriteFile(path+".got", got, 0o644)
		t.Fatalf("%s differs from its golden file (%v); what the test got is in %s.got (go test -update accepts it)", path, err, path)
	}
}

// Bytes is the comparison for text and markup: byte for byte.
func Bytes(want, got []byte) error {
	if bytes.Equal(want, got) {
		return nil
	}
	n := 0
	for n < len(want) && n < len(got) && want[n] == got[n] {
		n++
	}
	return fmt.Errorf("first difference at byte %d", n)
}

// Tolerance says how far a drawn image may be from its golden image and still match.
//
// A pixel matches when each of its channels lies within the range of that channel over the
// golden image's pixels at most Shift pixels away (the square around it), widened by Channel
// on both sides; the check is made both ways (the got image against the golden one and the
// golden one against the got one), so a line that disappears fails as surely as one that
// appears. At most Pixels pixels may fail.
//
// Why a range and not the nearest value: an edge moved by a fraction of a pixel has the
// coverage of a blend of its neighbours, which lies between their values but need not be
// near any one of them.
type Tolerance struct {
	// Channel is the slack per channel on the 8-bit scale (0..255).
	Channel uint8
	// Shift is how far, in pixels, a pixel may have moved.
	Shift int
	// Pixels is how many pixels may still fail.
	Pixels int
}

// Exact is no tolerance: every pixel equal.
var Exact = Tolerance{}

// Text is the tolerance for drawings with anti-aliased text and lines (plots, widgets): every
// edge may move by up to one pixel (sub-pixel placement of glyphs and line ends, which is where
// floating-point differences show) and a channel may differ by 16 of 255 beyond that (coverage
// rounding in the rasteriser; two colours of the report's palette differ by far more). No pixel
// may fail beyond that, so a curve that moves by two pixels or more, another colour, another
// label text or a missing legend entry fail (TestCompareTolerance; the figures' own tests
// check that a changed run fails its golden figure).
var Text = Tolerance{Channel: 16, Shift: 1}

// Result is the outcome of comparing two images.
type Result struct {
	// Failed counts the pixels that fail, in either direction; the first is at First.
	Failed int
	First  image.Point
	// Diff shows the failing pixels in red over a faded copy of the golden image (nil when the
	// sizes differ).
	Diff *image.NRGBA
}

// Compare compares got with want under tol. It returns an error when the sizes differ.
func Compare(want, got image.Image, tol Tolerance) (Result, error) {
	wb, gb := want.Bounds(), got.Bounds()
	if wb.Size() != gb.Size() {
		return Result{}, fmt.Errorf("size %v, want %v", gb.Size(), wb.Size())
	}
	w, g := toNRGBA(want), toNRGBA(got)
	res := Result{Diff: faded(w)}
	r := w.Rect
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if within(g, w, x, y, tol) && within(w, g, x, y, tol) {
				continue
			}
			if res.Failed == 0 {
				res.First = image.Pt(x, y)
			}
			res.Failed++
			res.Diff.SetNRGBA(x, y, color.NRGBA{R: 255, A: 255})
		}
	}
	return res, nil
}

// within reports whether a's pixel (x, y) lies, channel by channel, within the range of b's
// pixels around (x, y), widened by tol.Channel.
func within(a, b *image.NRGBA, x, y int, tol Tolerance) bool {
	p := a.NRGBAAt(x, y)
	px := [4]uint8{p.R, p.G, p.B, p.A}
	lo := [4]int{255, 255, 255, 255}
	hi := [4]int{0, 0, 0, 0}
	area := image.Rect(x-tol.Shift, y-tol.Shift, x+tol.Shift+1, y+tol.Shift+1).Intersect(b.Rect)
	for yy := area.Min.Y; yy < area.Max.Y; yy++ {
		for xx := area.Min.X; xx < area.Max.X; xx++ {
			q := b.NRGBAAt(xx, yy)
			for i, v := range [4]uint8{q.R, q.G, q.B, q.A} {
				lo[i], hi[i] = min(lo[i], int(v)), max(hi[i], int(v))
			}
		}
	}
	for i, v := range px {
		if int(v) < lo[i]-int(tol.Channel) || int(v) > hi[i]+int(tol.Channel) {
			return false
		}
	}
	return true
}

// toNRGBA copies img into an NRGBA image whose bounds start at (0, 0), so that two images
// are compared by position whatever their origins.
func toNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}

// faded is img at a quarter of its contrast over white, the background of a diff image.
func faded(img *image.NRGBA) *image.NRGBA {
	out := image.NewNRGBA(img.Rect)
	for i := 0; i < len(img.Pix); i += 4 {
		for c := 0; c < 3; c++ {
			v := int(img.Pix[i+c])*int(img.Pix[i+3])/255 + 255 - int(img.Pix[i+3]) // over white
			out.Pix[i+c] = uint8(255 - (255-v)/4)
		}
		out.Pix[i+3] = 255
	}
	return out
}

// CheckImage compares img with the golden PNG at path under tol, or rewrites the PNG with
// -update. On a difference it writes img as NAME.got.png and the failing pixels as
// NAME.diff.png beside the golden file, and fails the test.
func CheckImage(t testing.TB, path string, img image.Image, tol Tolerance) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if *update {
		write(t, path, buf.Bytes())
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update creates it)", err, t.Name())
	}
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res, err := Compare(want, img, tol)
	if err == nil && res.Failed <= tol.Pixels {
		return
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	_ = os.WriteFile(base+".got.png", buf.Bytes(), 0o644)
	if err != nil {
		t.Fatalf("%s: %v; what the test drew is in %s.got.png (go test -update accepts it)", path, err, base)
	}
	var diff bytes.Buffer
	if png.Encode(&diff, res.Diff) == nil {
		_ = os.WriteFile(base+".diff.png", diff.Bytes(), 0o644)
	}
	t.Fatalf("%s: %d pixels differ beyond the tolerance %+v, the first at %v; what the test drew is in %s.got.png, the failing pixels in red in %s.diff.png (go test -update accepts it)",
		path, res.Failed, tol, res.First, base, base)
}

// CheckPNGFile is CheckImage for a PNG file a command wrote.
func CheckPNGFile(t testing.TB, golden, file string, tol Tolerance) {
	t.Helper()
	CheckImage(t, golden, ReadPNG(t, file), tol)
}

// ReadPNG decodes the PNG file at path, failing the test when it cannot.
func ReadPNG(t testing.TB, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
