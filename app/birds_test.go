package app

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/birds"
)

// fixedLetterClassifier always answers the same letter, like a proxy would.
type fixedLetterClassifier struct{ letter byte }

func (c fixedLetterClassifier) Name() string { return "test proxy" }

func (c fixedLetterClassifier) Classify(context.Context, image.Image) (*birds.Classification, error) {
	var cl birds.Classification
	for i := range cl.Probabilities {
		cl.Probabilities[i] = 0.2 / 25
	}
	cl.Probabilities[c.letter-'A'] = 0.8
	return &cl, nil
}

func hasBirdsTab(t *testing.T, wb *Workbench) {
	t.Helper()
	for _, item := range wb.tabs.Items {
		if item.Text == "Birds" {
			return
		}
	}
	t.Fatal("no Science Birds tab")
}

func newTestBirdsPanel(t *testing.T) *birdsPanel {
	t.Helper()
	wb := newTestWorkbench(t)
	hasBirdsTab(t, wb)
	p := newBirdsPanel(wb)
	p.classifier = func() birds.Classifier { return fixedLetterClassifier{'I'} }
	w := test.NewWindow(p.Content())
	w.Resize(fyne.NewSize(1200, 800))
	t.Cleanup(w.Close)
	return p
}

// Typing a program evaluates it once typing pauses: the image, the stability and the letters
// appear; a broken program shows its error inline; clearing the text clears the results.
func TestBirdsPanelEvaluatesAsYouType(t *testing.T) {
	p := newTestBirdsPanel(t)
	// Typed character by character: only the last text is evaluated, after the pause.
	test.Type(p.program, "drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n")
	eventually(t, "the stability", func() bool { return strings.HasPrefix(p.stability.Text, "Stability: 1.0000") })
	if !strings.Contains(p.stability.Text, "0 of 3 blocks") || !strings.Contains(p.stability.Text, "drop_block program") {
		t.Fatalf("stability %q", p.stability.Text)
	}
	if !strings.Contains(p.letters.Text, "I 0.800") || !strings.Contains(p.letters.Text, "proxy") {
		t.Fatalf("letters %q", p.letters.Text)
	}
	if p.problem.Text != "" || p.animateButton.Disabled() {
		t.Fatalf("error %q, animate disabled %v", p.problem.Text, p.animateButton.Disabled())
	}
	b := p.image.Image.Bounds()
	if b.Dx() != birds.ImageSize {
		t.Fatalf("image %v, want the evaluator's %d px", b, birds.ImageSize)
	}
	black := 0
	for y := 0; y < b.Dy(); y += 4 {
		for x := 0; x < b.Dx(); x += 4 {
			if r, _, _, _ := p.image.Image.At(x, y).RGBA(); r == 0 {
				black++
			}
		}
	}
	if black < 1000 {
		t.Fatalf("the evaluator image has only %d black samples", black)
	}

	p.program.SetText("drop_block('b99', 3)")
	eventually(t, "the inline error", func() bool { return strings.Contains(p.problem.Text, "BlockType does not exist") })
	if p.stability.Text != "Stability: –" || !p.animateButton.Disabled() {
		t.Fatalf("after an error: %q, animate disabled %v", p.stability.Text, p.animateButton.Disabled())
	}

	p.program.SetText("")
	eventually(t, "the cleared panel", func() bool { return p.problem.Text == "" && p.stability.Text == "Stability: –" })
}

func TestBirdsPanelWithoutClassifier(t *testing.T) {
	p := newTestBirdsPanel(t)
	p.classifier = func() birds.Classifier { return birds.Unavailable{} }
	p.program.SetText("Answer:\n```\ndrop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```")
	eventually(t, "the result", func() bool {
		return strings.HasPrefix(p.stability.Text, "Stability: ") && p.stability.Text != "Stability: –"
	})
	if !strings.Contains(p.stability.Text, "answer") || !strings.Contains(p.letters.Text, "no classifier") {
		t.Fatalf("stability %q, letters %q", p.stability.Text, p.letters.Text)
	}
}

func TestTopLetters(t *testing.T) {
	cl, _ := fixedLetterClassifier{'L'}.Classify(context.Background(), nil)
	if got := topLetters(cl, 2); got != "L 0.800 · A 0.008" {
		t.Fatalf("top letters %q", got)
	}
	if got := classifierLabel(fixedLetterClassifier{'L'}); got != "test proxy" {
		t.Fatalf("label %q", got)
	}
	if got := classifierLabel(&birds.HTTPClassifier{URL: "http://vit"}); got != "http: http://vit" {
		t.Fatalf("label %q", got)
	}
}

func writeBirdsAnswer(t *testing.T, dir, team, letter string, n int, text string) {
	t.Helper()
	path := filepath.Join(dir, team, "raw", letter, fmt.Sprintf("%s_%s_%d.txt", team, letter, n))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Evaluate folder runs the whole pipeline with progress and shows the ranking.
func TestBirdsPanelEvaluatesAFolder(t *testing.T) {
	p := newTestBirdsPanel(t)
	dir := t.TempDir()
	i := "```\ndrop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n```"
	l := "```\ndrop_block('b13', 3)\ndrop_block('b13', 3)\ndrop_block('b31', 5)\n```"
	for n := 1; n <= 3; n++ {
		writeBirdsAnswer(t, dir, "alpha", "I", n, i)
		writeBirdsAnswer(t, dir, "beta", "I", n, l)
	}
	p.evaluateFolder(dir)
	eventually(t, "the ranking", func() bool { return len(p.ranking) == 2 && !p.evaluateButton.Disabled() })
	await(t, p.wait)
	// Identical trials have no diversity, so both teams score 0 and the tie goes by prompt
	// length (the same here): what matters is that the table shows the pipeline's ranking.
	if p.ranking[0][0] != "1" || p.ranking[1][0] != "2" || p.ranking[0][1]+p.ranking[1][1] != "alphabeta" && p.ranking[0][1]+p.ranking[1][1] != "betaalpha" {
		t.Errorf("ranking %v", p.ranking)
	}
	if p.progress.Value != 1 || !strings.Contains(p.progressLabel.Text, "competition score") || !strings.Contains(p.progressLabel.Text, "test proxy") {
		t.Errorf("progress %v, label %q", p.progress.Value, p.progressLabel.Text)
	}
	if p.team.Selected != p.ranking[0][1] || len(p.team.Options) != 2 {
		t.Errorf("chart team %q of %v", p.team.Selected, p.team.Options)
	}
	p.Ranking.Select(widget.TableCellID{Row: 2, Col: 1})
	if p.team.Selected != p.ranking[1][1] {
		t.Errorf("selecting the second row shows %q", p.team.Selected)
	}
	if _, err := os.Stat(filepath.Join(dir, "result", "prompt_scores_ranks.csv")); err != nil {
		t.Fatal("the pipeline wrote no result:", err)
	}
}

// The chart has a group of bars per letter: here only I has results.
func TestLetterChart(t *testing.T) {
	chars := []birds.CharacterScore{
		{Team: "alpha", Character: "I", Stability: birds.MustDecimal("1"), Similarity: birds.MustDecimal("0.5"), Score: birds.MustDecimal("0.3")},
		{Team: "beta", Character: "L", Stability: birds.MustDecimal("1"), Similarity: birds.MustDecimal("1"), Score: birds.MustDecimal("1")},
	}
	img := letterChart(chars, "alpha")
	bars := map[int]int{} // column group → coloured pixels
	b := img.Bounds()
	for y := b.Min.Y + 30; y < b.Max.Y-20; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for _, c := range letterChartColors {
				if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
					bars[(x-30)/30]++
				}
			}
		}
	}
	if len(bars) != 1 || bars[8] < 1000 {
		t.Fatalf("bars by letter group %v, want only I's (group 8)", bars)
	}
}

// A file opened in the Birds tab is read with a size limit, and a device or a too-large file
// is refused with the editor left as it was.
func TestBirdsOpenProgramFileIsBounded(t *testing.T) {
	p := newTestBirdsPanel(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "i.txt")
	if err := os.WriteFile(good, []byte("drop_block('b31', 10)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, make([]byte, maxBirdsLevelFile+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.openProgramFile(good); err != nil || p.program.Text != "drop_block('b31', 10)\n" {
		t.Fatalf("good file: %v, text %q", err, p.program.Text)
	}
	for _, bad := range []string{big, "/dev/zero", filepath.Join(dir, "missing.txt")} {
		if err := p.openProgramFile(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
		if p.program.Text != "drop_block('b31', 10)\n" {
			t.Fatalf("%s changed the editor to %d bytes", bad, len(p.program.Text))
		}
	}
}
