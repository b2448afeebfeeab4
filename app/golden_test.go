package app

import (
	"image"
	"path/filepath"
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
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

// TestGoldenCheckFails makes sure the golden checks can fail: a different picture does not
// match (the widgets' own golden tests check markup the same way).
func TestGoldenCheckFails(t *testing.T) {
	goldenApp(t)
	a := drawHeatmap(goldenHeatmap(), 12, 4, false)
	b := drawHeatmap(goldenHeatmap(), 12, -1, false) // no selected cell
	if res, err := golden.Compare(a, b, golden.Exact); err == nil && res.Failed == 0 {
		t.Fatal("two different heatmaps compare equal")
	}
}

// The Compare table with two seeds of one configuration, and with mixed configurations (run
// lengths, generators, an unfinished run, a repeated seed): golden markup of the table as
// shown, and the cells that tell the groups apart.
func TestGoldenCompareTable(t *testing.T) {
	twoSeeds := t.TempDir()
	stopAfter(t, filepath.Join(twoSeeds, "ga", "1"), "ga", 1, 3, -1)
	stopAfter(t, filepath.Join(twoSeeds, "ga", "2"), "ga", 2, 3, -1)
	mixed := t.TempDir()
	stopAfter(t, filepath.Join(mixed, "ga", "1"), "ga", 1, 3, -1)
	stopAfter(t, filepath.Join(mixed, "ga", "2"), "ga", 2, 3, -1)
	stopAfter(t, filepath.Join(mixed, "ga", "2-again"), "ga", 2, 3, -1) // the same seed: one seed
	stopAfter(t, filepath.Join(mixed, "ga-long", "1"), "ga", 1, 5, -1)
	stopAfter(t, filepath.Join(mixed, "es", "1"), "es", 1, 3, -1)
	stopAfter(t, filepath.Join(mixed, "es", "2"), "es", 2, 3, 0) // cancelled after generation 0
	stopAfter(t, filepath.Join(mixed, "random", "1"), "random", 1, 0, -1)
	for _, tc := range []struct {
		name   string
		dir    string
		labels []string // first cell of each row after the header
		seeds  []string // second cell
	}{
		{"compare_table_two_seeds.xml", twoSeeds, []string{"ga · quality"}, []string{"2"}},
		{"compare_table_mixed.xml", mixed,
			[]string{"random · quality", "es · quality", "ga · quality · pop 8 · 3 gens", "ga · quality · pop 8 · 5 gens"},
			[]string{"1", "2 (1 done)", "2, 1 repeated seed(s) left out", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wb := newTestWorkbench(t)
			wb.app.Settings().SetTheme(newTheme())
			recs, err := LoadRunRecords(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			wb.showTab("compare")
			wb.compare.addRuns(recs...)
			rows := wb.compare.tableText()
			if len(rows) != len(tc.labels)+1 {
				t.Fatalf("table rows %q", rows)
			}
			for i, row := range rows[1:] {
				if row[0] != tc.labels[i] || row[1] != tc.seeds[i] {
					t.Errorf("row %d: %q, want %q with seeds %q", i+1, row, tc.labels[i], tc.seeds[i])
				}
			}
			checkGoldenMarkup(t, tc.name, wb.compare.table)
		})
	}
}

// pictureSize enlarges small levels by whole factors, shrinks large ones to the box but not
// below half size.
func TestPictureSize(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		box  fyne.Size
		want fyne.Size
	}{
		{176, 112, fyne.NewSize(560, 440), fyne.NewSize(528, 336)},    // zelda: ×3
		{2400, 256, fyne.NewSize(1500, 280), fyne.NewSize(1500, 160)}, // smb on a wide screen: ×0.625
		{2400, 256, fyne.NewSize(924, 228), fyne.NewSize(1200, 128)},  // smb at 1024 px: half size, scrolls
		{600, 100, fyne.NewSize(600, 100), fyne.NewSize(600, 100)},    // exactly the box: ×1
		{0, 10, fyne.NewSize(100, 100), fyne.NewSize(0, 0)},
	} {
		if got := pictureSize(tc.w, tc.h, tc.box); got != tc.want {
			t.Errorf("pictureSize(%d, %d, %v) = %v, want %v", tc.w, tc.h, tc.box, got, tc.want)
		}
	}
}
