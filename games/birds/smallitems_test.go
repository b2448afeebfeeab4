package birds

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trial file whose name is not ASCII is refused with the reason, not carried through every
// stage to score 0.
func TestNonASCIITrialNameIsRefused(t *testing.T) {
	dir := t.TempDir()
	writeAnswer(t, dir, "alpha", "I", 1, "```\ndrop_block('b31', 10)\n```")
	odd := filepath.Join(dir, "alpha", StageRaw, "I", "alpha_I_é2.txt")
	if err := os.WriteFile(odd, []byte("```\ndrop_block('b31', 10)\n```"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), dir, Options{Classifier: Unavailable{}, Workers: 1, Trials: 1})
	if err != nil && rep == nil {
		t.Fatal(err)
	}
	ex := rep.Stages[0]
	if ex.Stage != "extract" || ex.Written != 1 || len(ex.Failures) != 1 || !strings.Contains(ex.Failures[0].Err, "not ASCII") {
		t.Fatalf("extract report %+v", ex)
	}
	if _, err := os.Stat(filepath.Join(dir, "alpha", StageLevels, "I", "alpha_I_é2.xml")); !os.IsNotExist(err) {
		t.Fatalf("the non-ASCII trial was converted: %v", err)
	}
}

// denseGrid is n SquareTiny blocks (0.22 m) side by side in rows of cols, touching their
// neighbours without overlapping: every block makes up to eight contacts.
func denseGrid(n, cols int) *Level {
	lv := &Level{Width: 5}
	for i := 0; i < n; i++ {
		col, row := i%cols, i/cols
		lv.Objects = append(lv.Objects, Object{Kind: KindBlock, Type: "SquareTiny", Material: "wood",
			X: -5.5 + float64(col)*0.22, Y: -3.39 + float64(row)*0.22})
	}
	return lv
}

// A dense grid of 999 blocks that do not overlap is simulated: the contact limit follows the
// level (its touching pairs), not a fixed count that such a grid exceeds.
func TestDenseGridIsSimulated(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 999 blocks (-short)")
	}
	lv := denseGrid(999, 50)
	res, err := Simulate(lv, DefaultSimConfig())
	if err != nil {
		t.Fatalf("a dense grid of 999 blocks was refused: %v", err)
	}
	if res.Total != 999 {
		t.Fatalf("total %d", res.Total)
	}
	// Objects piled on one spot are still refused.
	pile := &Level{Width: 5}
	for i := 0; i < 999; i++ {
		pile.Objects = append(pile.Objects, Object{Kind: KindBlock, Type: "SquareTiny", Material: "wood", X: 0, Y: -3})
	}
	if _, err := Simulate(pile, DefaultSimConfig()); err == nil {
		t.Fatal("999 blocks on one spot were simulated")
	}
}

// embeddingClassifier is letterClassifier with an embedding, as a 2025 evaluation needs.
type embeddingClassifier struct{ letterClassifier }

func (c *embeddingClassifier) Classify(ctx context.Context, img image.Image) (*Classification, error) {
	cl, err := c.letterClassifier.Classify(ctx, img)
	if err == nil {
		black := MaskFromImage(img).Black()
		cl.Embedding = []float64{float64(black % 7), 1, float64(black % 3)}
	}
	return cl, err
}

// `score --edition 2025` refuses a folder evaluated under another edition's rules and the
// same folder given twice.
func TestScoreModelFoldersRefusesMixedEditionsAndRepeats(t *testing.T) {
	evaluate := func(ed Edition) string {
		dir := competitionFolder(t)
		if _, err := Evaluate(context.Background(), dir, Options{Edition: ed, Classifier: &embeddingClassifier{}, Workers: 2, Trials: 1}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b, old := evaluate(Edition2025), evaluate(Edition2025), evaluate(Edition2024)
	opt := Options{Edition: Edition2025}
	if _, err := ScoreModelFolders(context.Background(), []string{a, b}, opt); err != nil {
		t.Fatalf("two 2025 folders: %v", err)
	}
	if _, err := ScoreModelFolders(context.Background(), []string{a, b, a + string(filepath.Separator)}, opt); err == nil || !strings.Contains(err.Error(), "same folder") {
		t.Fatalf("a folder twice: %v", err)
	}
	if _, err := ScoreModelFolders(context.Background(), []string{a, old}, opt); err == nil || !strings.Contains(err.Error(), "another edition") {
		t.Fatalf("a 2024 folder among 2025 ones: %v", err)
	}
}

// The stability file keeps the best trial's score and, as Unity's evaluator does, the object
// counts of the last trial it ran.
func TestStabilityRawCountsAreTheLastTrials(t *testing.T) {
	tr := &Trials{Best: 1, Results: []*Result{
		{Score: 0.5, Total: 4, Moving: 2},
		{Score: 0.75, Total: 4, Moving: 1},
		{Score: 0.25, Total: 4, Moving: 3},
	}}
	r := stabilityRaw("a/levels/I/a_I_1.xml", tr)
	if r.Score != 0.75 || r.StartingObjects != 4 || r.MovingObjects != 3 {
		t.Fatalf("raw %+v: want score 0.75 (best) with 3 moving of 4 (last trial)", r)
	}
}

// The contact sheet marks a trial that produced no image, with its reason.
func TestContactSheetMarksFailedTrials(t *testing.T) {
	dir := competitionFolder(t)
	if _, err := Evaluate(context.Background(), dir, Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1}); err != nil {
		t.Fatal(err)
	}
	failed := FailedTrials(dir, "alpha", Options{})
	reasons := map[int]string{}
	for _, f := range failed {
		if f.Letter == "L" {
			reasons[f.Trial] = f.Failed
		}
	}
	if !strings.HasPrefix(reasons[4], "extract: ") || !strings.HasPrefix(reasons[5], "convert: ") || len(failed) != 2 {
		t.Fatalf("failed trials %+v", failed)
	}
	rep, err := ReportFolder(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Teams {
		if tr.Team != "alpha" {
			continue
		}
		data, err := os.ReadFile(tr.Sheet)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		// Row 1 (L), column 4: the failed cell's tint.
		x := sheetLabel + 3*(sheetThumb+sheetPad) + sheetPad + sheetThumb - 10
		y := sheetPad + 1*(sheetThumb+sheetCaption+sheetPad) + sheetThumb - 10
		if r, g, b, _ := img.At(x, y).RGBA(); r>>8 != 0xf4 || g>>8 != 0xd6 || b>>8 != 0xd6 {
			t.Fatalf("cell of L trial 4 is %x %x %x, not marked failed", r>>8, g>>8, b>>8)
		}
		return
	}
	t.Fatal("no report for alpha")
}

func TestWrapText(t *testing.T) {
	got := wrapText("convert: block b31 at column 19 is outside the grid", 17, 2)
	if len(got) != 2 || len(got[0]) > 17 || len(got[1]) > 17 || !strings.HasSuffix(got[1], "...") {
		t.Fatalf("%q", got)
	}
}

// A result folder that is a link fails the score stage with its reason; every stage before it
// and the ranking are still reported, and nothing is written through the link.
func TestResultFolderLinkFailsOnlyTheScoreStage(t *testing.T) {
	dir := competitionFolder(t)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, StageResult)); err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), dir, Options{Classifier: &letterClassifier{}, Workers: 2, Trials: 1})
	if err == nil || rep == nil || rep.Scores == nil || len(rep.Scores.Prompts) != 2 {
		t.Fatalf("evaluate: %v, report %+v", err, rep)
	}
	last := rep.Stages[len(rep.Stages)-1]
	if last.Stage != "score" || last.Written != 0 || len(last.Failures) == 0 || !strings.Contains(last.Failures[len(last.Failures)-1].Err, "not a real folder") {
		t.Fatalf("score stage %+v", last)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("written through the link: %v", entries)
	}
}
