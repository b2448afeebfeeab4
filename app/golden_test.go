package app

import (
	"image"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"pcgwb/internal/golden"
)

// goldenPath is where a golden file lives. go test ./app -run Golden -update rewrites them
// (the -update flag is pcgwb/internal/golden's, shared by every golden test).
func goldenPath(name string) string { return filepath.Join("testdata", "golden", name) }

// checkGoldenMarkup compares the Fyne markup of o (its objects, sizes, texts and colours)
// with a golden file. Other tabs' tests use it too (the compare table).
func checkGoldenMarkup(t *testing.T, name string, o fyne.CanvasObject) {
	t.Helper()
	golden.Check(t, goldenPath(name), []byte(test.RenderObjectToMarkup(o)), golden.Bytes)
}

// checkGoldenImage compares img pixel by pixel with a golden PNG: the widgets drawn here are
// rasterised by the app's own code (no text), so no tolerance is needed.
func checkGoldenImage(t *testing.T, name string, img image.Image) {
	t.Helper()
	golden.CheckImage(t, goldenPath(name), img, golden.Exact)
}

// goldenApp is a test app with the workbench's dark theme, so that golden files do not depend
// on Fyne's default theme.
func goldenApp(t *testing.T) {
	t.Helper()
	a := test.NewTempApp(t)
	holdUI(t)
	a.Settings().SetTheme(newTheme())
}

func TestGoldenBadges(t *testing.T) {
	goldenApp(t)
	tests := []struct {
		name  string
		label string
		value float64
	}{
		{"badge_passed.xml", "Q", 1},
		{"badge_partial.xml", "D", 0.42},
		{"badge_failed.xml", "C", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkGoldenMarkup(t, tt.name, NewBadge(tt.label, tt.value))
		})
	}
}

// goldenHeatmap is a small expressive range: 3 × 3 bins, one empty cell in the middle.
func goldenHeatmap() *heatmap {
	return expressiveRange(membersWith([2]float64{0, 0}, [2]float64{0, 0}, [2]float64{0, 0}, [2]float64{1, 0},
		[2]float64{2, 0}, [2]float64{0, 1}, [2]float64{2, 1}, [2]float64{0, 2}, [2]float64{1, 2}, [2]float64{2, 2},
		[2]float64{2, 2}), "a", "b", 10)
}

func TestGoldenHeatmap(t *testing.T) {
	goldenApp(t)
	h := goldenHeatmap()
	checkGoldenImage(t, "heatmap_cells.png", drawHeatmap(h, 12, 4, false))
	v := newHeatmapView(func(int, int) {})
	v.setHeatmap(h, false)
	v.Resize(fyne.NewSize(320, 260))
	checkGoldenMarkup(t, "heatmap_view.xml", v)
	// a tick per bin, at its centre value, and a legend from the fullest cell down to zero
	x, y, legend := v.axisLabels()
	if want := []string{"0", "1", "2"}; !reflect.DeepEqual(x, want) || !reflect.DeepEqual(y, want) {
		t.Errorf("ticks x %v y %v, want %v", x, y, want)
	}
	if want := []string{"3 levels", "0.75", "0"}; !reflect.DeepEqual(legend, want) {
		t.Errorf("legend %v, want %v", legend, want)
	}
	v.setHeatmap(h, true) // an archive: fitness in [0, 1]
	if _, _, legend := v.axisLabels(); !reflect.DeepEqual(legend, []string{"1 fitness", "0.25", "0"}) {
		t.Errorf("fitness legend %v", legend)
	}
}

// TestGoldenCheckFails makes sure the golden checks can fail: a different picture or markup
// does not match.
func TestGoldenCheckFails(t *testing.T) {
	goldenApp(t)
	a := drawHeatmap(goldenHeatmap(), 12, 4, false)
	b := drawHeatmap(goldenHeatmap(), 12, -1, false) // no selected cell
	if res, err := golden.Compare(a, b, golden.Exact); err == nil && res.Failed == 0 {
		t.Fatal("two different heatmaps compare equal")
	}
	if test.RenderObjectToMarkup(NewBadge("Q", 1)) == test.RenderObjectToMarkup(NewBadge("Q", 0.5)) {
		t.Fatal("a passed and a failed badge render the same markup")
	}
}

// Hovering a badge explains it; leaving hides the explanation.
func TestBadgeTooltips(t *testing.T) {
	goldenApp(t)
	for _, label := range []string{"Q", "D", "C"} {
		b := NewBadge(label, 0.5)
		w := test.NewWindow(withTipLayer(container.NewCenter(b), false))
		w.Resize(fyne.NewSize(400, 300))
		b.MouseIn(&desktop.MouseEvent{})
		if !strings.Contains(b.tip.shown(), "passes at 1.00") {
			t.Fatalf("%s: no tooltip", label)
		}
		b.MouseOut()
		if b.tip.shown() != "" {
			t.Fatalf("%s: the tooltip stayed", label)
		}
		w.Close()
	}
}
