package birds

import (
	"context"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportFolder(t *testing.T) {
	dir := competitionFolder(t)
	opt := Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}
	if _, err := Evaluate(context.Background(), dir, opt); err != nil {
		t.Fatal(err)
	}
	// One broken image: the sheet is still drawn, its cell marked.
	if err := os.WriteFile(filepath.Join(dir, "beta", StageImages, "I", "beta_I_2.png"), []byte("broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := ReportFolder(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Teams) != 2 {
		t.Fatalf("%d teams", len(rep.Teams))
	}
	for _, tr := range rep.Teams {
		if len(tr.Letters) != 26 {
			t.Errorf("%s: %d letter rows", tr.Team, len(tr.Letters))
		}
		f, err := os.Open(tr.Sheet)
		if err != nil {
			t.Fatalf("%s: no sheet: %v", tr.Team, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		letters := map[string]bool{}
		cols := 0
		// Trials that failed before their image have a (marked) cell too.
		for _, v := range append(FailedTrials(dir, tr.Team, opt), tr.Trials...) {
			letters[v.Letter] = true
			cols = max(cols, v.Trial)
		}
		wantW := sheetLabel + cols*(sheetThumb+sheetPad) + sheetPad
		wantH := len(letters)*(sheetThumb+sheetCaption+sheetPad) + sheetPad
		if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
			t.Errorf("%s: sheet %v, want %d×%d", tr.Team, b, wantW, wantH)
		}
		// Each trial's thumbnail has black pixels (the structure) unless unreadable.
		for _, v := range tr.Trials {
			x0 := sheetLabel + (v.Trial-1)*(sheetThumb+sheetPad) + sheetPad
			y0 := sheetPad
			for l := range letters {
				if l < v.Letter {
					y0 += sheetThumb + sheetCaption + sheetPad
				}
			}
			black := 0
			for y := y0; y < y0+sheetThumb; y++ {
				for x := x0; x < x0+sheetThumb; x++ {
					if r, _, _, _ := img.At(x, y).RGBA(); r == 0 {
						black++
					}
				}
			}
			if lv, err := ReadTrialLevel(v); err != nil || !strings.Contains(string(lv), "<Level") {
				t.Errorf("%s %s trial %d: level %v", v.Team, v.Letter, v.Trial, err)
			}
			broken := strings.HasSuffix(v.Image, "beta_I_2.png")
			if broken != (black == 0) {
				t.Errorf("%s %s trial %d: %d black pixels (broken %v)", v.Team, v.Letter, v.Trial, black, broken)
			}
		}
	}
	// The organisers' CSVs are in place.
	data, err := os.ReadFile(filepath.Join(dir, StageResult, "character_scores.csv"))
	if err != nil || !strings.HasPrefix(string(data), `"teamName","character"`) {
		t.Fatalf("character_scores.csv: %v %q", err, data[:min(len(data), 60)])
	}
}

func TestCompareFolders(t *testing.T) {
	a, b := competitionFolder(t), competitionFolder(t)
	opt := Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}
	for _, d := range []string{a, b} {
		if _, err := Evaluate(context.Background(), d, opt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := CompareFolders(context.Background(), a, b, CompareOptions{}); err == nil {
		t.Fatal("two teams and none named: want an error")
	}
	// The same folder against itself: every difference and interval is exactly 0.
	same, err := CompareFolders(context.Background(), a, b, CompareOptions{TeamA: "alpha", TeamB: "alpha", Resamples: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Letters) != 26 {
		t.Fatalf("%d letters", len(same.Letters))
	}
	for _, lc := range append(same.Letters, same.Overall) {
		if lc.Score.Diff != 0 || lc.Stability.Diff != 0 {
			t.Fatalf("%s: %+v", lc.Letter, lc)
		}
	}
	// alpha against beta (beta has 1 good I answer of 2 and no L): differences inside their
	// intervals, and the same seed gives the same intervals.
	c1, err := CompareFolders(context.Background(), a, b, CompareOptions{TeamA: "alpha", TeamB: "beta", Resamples: 500, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := CompareFolders(context.Background(), a, b, CompareOptions{TeamA: "alpha", TeamB: "beta", Resamples: 500, Seed: 3})
	for i, lc := range c1.Letters {
		for _, iv := range []Interval{lc.Stability, lc.Similarity, lc.Score} {
			if iv.Low > iv.Diff+1e-12 || iv.High < iv.Diff-1e-12 || math.Abs(iv.Diff-(iv.MeanB-iv.MeanA)) > 1e-12 {
				t.Fatalf("%s: %+v", lc.Letter, iv)
			}
		}
		if lc != c2.Letters[i] {
			t.Fatal("same seed, different intervals")
		}
	}
	l := c1.Letters[strings.IndexByte(Letters, 'L')]
	if l.Stability.Diff >= 0 || l.Stability.MeanB != 0 {
		t.Fatalf("L: beta has no L levels, want a negative difference: %+v", l.Stability)
	}
}

// Contact sheets never outlive what they show: report removes those of teams no longer in the
// folder (and leaves other files and links alone), and evaluate removes them all, since it has
// just derived the trials they picture again.
func TestContactSheetsAreNotLeftStale(t *testing.T) {
	dir := competitionFolder(t)
	opt := Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}
	if _, err := Evaluate(context.Background(), dir, opt); err != nil {
		t.Fatal(err)
	}
	sheets := filepath.Join(dir, StageResult, ContactSheetsDir)
	if err := os.MkdirAll(sheets, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "victim.png")
	for path, data := range map[string]string{outside: "precious", filepath.Join(sheets, "gone.png"): "old sheet", filepath.Join(sheets, "notes.txt"): "mine"} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(sheets, "linked.png")); err != nil {
		t.Fatal(err)
	}
	rep, err := ReportFolder(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 2 {
		t.Errorf("report removed %d stale sheets, want 2 (gone.png and the link)", rep.Removed)
	}
	names := func() []string {
		entries, _ := os.ReadDir(sheets)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got := strings.Join(names(), " "); got != "alpha.png beta.png notes.txt" {
		t.Errorf("after report: %s", got)
	}
	if data, _ := os.ReadFile(outside); string(data) != "precious" {
		t.Fatal("the link's target was touched")
	}
	evRep, err := Evaluate(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(), " "); got != "notes.txt" {
		t.Errorf("after evaluate: %s", got)
	}
	if score := evRep.Stages[len(evRep.Stages)-1]; score.Stage != "score" || score.Removed != 2 {
		t.Errorf("evaluate's score stage: %+v, want 2 removed", score)
	}
}
