package birds

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pcgwb/internal/testshared"
	"pcgwb/stats"
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

// unityRun is a level the Unity evaluator ran, with what it recorded: the legacy stability
// score, and the image when one is shared.
type unityRun struct {
	name, level, image string
	legacy             float64
}

// sharedUnityRuns is every Unity evaluator run in ../shared: the 105 levels of the archived
// March 2023 run, then the four levels whose legacy scores the evaluator project ships
// (evaluator-samples: result_22 and result_23 with their snapshots, and later runs of V1_L_1
// and V1_L_5 without images).
func sharedUnityRuns(t testing.TB) []unityRun {
	var runs []unityRun
	for _, c := range unityCases(t) {
		runs = append(runs, unityRun{c.name, c.level, c.image, c.legacy})
	}
	dir := testshared.Dir(t, "science-birds", "evaluator-samples")
	var samples struct {
		Raws []struct {
			Tag   string  `json:"tag"`
			Score float64 `json:"score"`
		} `json:"raws"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "stability_legacy.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &samples); err != nil {
		t.Fatal(err)
	}
	for _, r := range samples.Raws {
		stem := strings.TrimSuffix(r.Tag[strings.LastIndexAny(r.Tag, `\/`)+1:], ".xml")
		run := unityRun{name: "sample/" + stem, level: filepath.Join(dir, stem+".xml"), legacy: r.Score}
		if _, err := os.Stat(filepath.Join(dir, stem+".png")); err == nil {
			run.image = filepath.Join(dir, stem+".png")
		}
		runs = append(runs, run)
	}
	if len(runs) != 109 {
		t.Fatalf("%d shared Unity runs, want 105 archived + 4 evaluator samples", len(runs))
	}
	return runs
}

// agreement is how a simulation agrees with Unity on a set of runs, canonical trial.
type agreement struct {
	legacy, runs  int       // runs whose legacy score equals Unity's, of runs
	ious          []float64 // black-pixel IoU with Unity's image, for the runs with one
	exact         int       // images equal pixel for pixel
	legacyMisses  []string
	imageOutliers []string // IoU below 0.9
}

func measureAgreement(t testing.TB, runs []unityRun, cfg SimConfig) agreement {
	var a agreement
	for _, r := range runs {
		res, err := Simulate(readLevelFile(t, r.level), cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.runs++
		if math.Abs(res.Legacy-r.legacy) < 1e-6 {
			a.legacy++
		} else {
			a.legacyMisses = append(a.legacyMisses, fmt.Sprintf("%s: legacy %.4f, Unity %.4f", r.name, res.Legacy, r.legacy))
		}
		if r.image == "" {
			continue
		}
		iou := IoU(Render(res), loadMask(t, r.image))
		a.ious = append(a.ious, iou)
		if iou == 1 {
			a.exact++
		} else if iou < 0.9 {
			a.imageOutliers = append(a.imageOutliers, fmt.Sprintf("%s: IoU %.3f", r.name, iou))
		}
	}
	return a
}

// legacySummary and imageSummary are the agreement's figures with their 95 % intervals
// (pcgwb/stats: Wilson for proportions, percentile bootstrap for the mean IoU); the unit is the
// Unity run (one level as Unity's evaluator ran it once).
func (a agreement) legacySummary() string {
	leg := stats.Wilson(a.legacy, a.runs)
	return fmt.Sprintf("legacy stability agrees on %d of %d runs (%.1f %%, Wilson %.1f–%.1f %%)", a.legacy, a.runs, 100*leg.Mean, 100*leg.Lo, 100*leg.Hi)
}

func (a agreement) imageSummary() string {
	ex, iou := stats.Wilson(a.exact, len(a.ious)), stats.BootstrapMean(a.ious)
	sorted := slices.Sorted(slices.Values(a.ious))
	return fmt.Sprintf("images (%s): mean IoU %.4f (bootstrap %.4f–%.4f), median %.4f, pixel-exact %d (%.1f %%, Wilson %.1f–%.1f %%)",
		stats.NText(len(a.ious), "run"), iou.Mean, iou.Lo, iou.Hi, sorted[len(sorted)/2], a.exact, 100*ex.Mean, 100*ex.Lo, 100*ex.Hi)
}

func (a agreement) meanIoU() float64 { return stats.Mean(a.ious) }

// defaultAgreement is the canonical trial's agreement on the archive (105 runs) and on every
// shared run pooled (109 stability scores, 107 images), measured once for the tests below.
var defaultAgreement struct {
	once            sync.Once
	archive, pooled agreement
}

func measureDefaultAgreement(t testing.TB) (archive, pooled agreement) {
	d := &defaultAgreement
	d.once.Do(func() {
		runs := sharedUnityRuns(t)
		d.archive = measureAgreement(t, runs[:105], DefaultSimConfig())
		d.pooled = measureAgreement(t, runs[105:], DefaultSimConfig()).plus(d.archive)
	})
	if d.pooled.runs == 0 {
		t.Fatal("the agreement could not be measured")
	}
	return d.archive, d.pooled
}

func TestUnityLegacyStability(t *testing.T) {
	archive, pooled := measureDefaultAgreement(t)
	for _, m := range pooled.legacyMisses {
		t.Log(m)
	}
	t.Logf("archive: %s", archive.legacySummary())
	t.Logf("pooled:  %s", pooled.legacySummary())
	if archive.legacy < minLegacyAgreement || pooled.legacy < minLegacyAgreement+4 {
		t.Errorf("agreement %d (pooled %d) < recorded minimum %d (%d)", archive.legacy, pooled.legacy, minLegacyAgreement, minLegacyAgreement+4)
	}
}

func TestUnityImages(t *testing.T) {
	archive, pooled := measureDefaultAgreement(t)
	for _, m := range pooled.imageOutliers {
		t.Log(m)
	}
	t.Logf("archive: %s", archive.imageSummary())
	t.Logf("pooled:  %s", pooled.imageSummary())
	if archive.meanIoU() < minMeanIoU || archive.exact < minExactImages || pooled.exact < minExactImages+1 {
		t.Errorf("image agreement fell below the recorded minimum (mean %.4f ≥ %.3f, exact %d ≥ %d, pooled exact %d ≥ %d)",
			archive.meanIoU(), minMeanIoU, archive.exact, minExactImages, pooled.exact, minExactImages+1)
	}
}

func (a agreement) plus(b agreement) agreement {
	return agreement{
		legacy: a.legacy + b.legacy, runs: a.runs + b.runs, exact: a.exact + b.exact,
		ious:          append(slices.Clone(b.ious), a.ious...),
		legacyMisses:  append(slices.Clone(b.legacyMisses), a.legacyMisses...),
		imageOutliers: append(slices.Clone(b.imageOutliers), a.imageOutliers...),
	}
}
