package birds

import (
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"pcgwb/internal/testshared"
)

// unityCase is one level of the archived March 2023 Unity run with its legacy stability score
// (fraction of blocks not destroyed after 10 s) and the image the evaluator exported.
type unityCase struct {
	name   string
	level  string
	image  string
	legacy float64
}

func unityCases(t testing.TB) []unityCase {
	root := testshared.Dir(t, "science-birds", "unity-run-2023-03")
	f, err := os.Open(filepath.Join(root, "stability_legacy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []unityCase
	for _, row := range rows[1:] {
		score, err := strconv.ParseFloat(row[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		stem := strings.TrimSuffix(row[3], ".xml")
		out = append(out, unityCase{
			name:   stem,
			level:  filepath.Join(root, "levels", row[0], row[1], row[3]),
			image:  filepath.Join(root, "images", row[0], row[1], stem+".png"),
			legacy: score,
		})
	}
	return out
}

// simulateFile reads a level XML file and simulates it with the default configuration.
func simulateFile(t testing.TB, path string) (*Level, *Result) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lv, err := ParseLevel(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(lv, DefaultSimConfig())
	if err != nil {
		t.Fatal(err)
	}
	return lv, res
}

func loadMask(t testing.TB, path string) *Mask {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return MaskFromImage(img)
}

// Recorded minimums of what this implementation achieves on the archived run; the tests fail
// if a change makes agreement worse.
const (
	minLegacyAgreement = 103 // of 105
	minMeanIoU         = 0.969
	minExactImages     = 68
)

func TestUnityLegacyStability(t *testing.T) {
	cases := unityCases(t)
	agree := 0
	for _, c := range cases {
		_, res := simulateFile(t, c.level)
		if math.Abs(res.Legacy-c.legacy) < 1e-6 {
			agree++
		} else {
			t.Logf("%s: legacy %.4f, Unity %.4f", c.name, res.Legacy, c.legacy)
		}
	}
	lo, hi := wilson(agree, len(cases))
	t.Logf("legacy stability agrees with Unity on %d of %d levels (95 %% CI %.1f–%.1f %%)", agree, len(cases), 100*lo, 100*hi)
	if agree < minLegacyAgreement {
		t.Errorf("agreement %d < recorded minimum %d", agree, minLegacyAgreement)
	}
}

func TestUnityImages(t *testing.T) {
	cases := unityCases(t)
	var ious []float64
	exact := 0
	for _, c := range cases {
		_, res := simulateFile(t, c.level)
		got := Render(res)
		want := loadMask(t, c.image)
		iou := IoU(got, want)
		ious = append(ious, iou)
		if iou == 1 {
			exact++
		} else if iou < 0.9 {
			t.Logf("%s: IoU %.3f", c.name, iou)
		}
	}
	sort.Float64s(ious)
	mean := 0.0
	for _, v := range ious {
		mean += v
	}
	mean /= float64(len(ious))
	t.Logf("images: mean IoU %.4f, median %.4f, pixel-exact %d of %d", mean, ious[len(ious)/2], exact, len(ious))
	if mean < minMeanIoU || exact < minExactImages {
		t.Errorf("image agreement fell below the recorded minimum (mean %.4f ≥ %.2f, exact %d ≥ %d)", mean, minMeanIoU, exact, minExactImages)
	}
}
