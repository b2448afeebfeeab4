package app

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"pcgwb/problems"
)

func sample(t *testing.T, wb *Workbench, n, seed string) {
	t.Helper()
	wb.samples.count.SetText(n)
	wb.samples.seed.SetText(seed)
	test.Tap(wb.samples.sampleButton)
	wait(t, wb)
	if wb.samples.errorBanner.Visible() {
		t.Fatalf("error shown: %s", wb.samples.errorText.Text)
	}
}

var summaryPattern = regexp.MustCompile(`^Quality \d+\.\d% +Diversity \d+\.\d% +Controllability \d+\.\d%$`)

func TestSampleFillsGalleryWithBadges(t *testing.T) {
	wb := newTestWorkbench(t)
	if got := wb.picker.Selected(); got != fakeName {
		t.Fatalf("selected %q, want %q", got, fakeName)
	}
	if !strings.Contains(wb.description.Text, "rooms of walls") {
		t.Errorf("description not shown: %q", wb.description.Text)
	}
	if want := "7 × 11 grid of integers 0–2"; wb.contentSpace.Text != want {
		t.Errorf("content space %q, want %q", wb.contentSpace.Text, want)
	}
	if want := "walls: integer 0–76"; wb.controlSpace.Text != want {
		t.Errorf("control space %q, want %q", wb.controlSpace.Text, want)
	}

	sample(t, wb, "12", "7")
	if got := wb.samples.gallery.Len(); got != 12 {
		t.Fatalf("gallery has %d items, want 12", got)
	}
	set := wb.samples.Last()
	for i, th := range wb.samples.gallery.Thumbs() {
		if th.Image == nil || th.Image.Image == nil {
			t.Fatalf("thumb %d has no picture (%s)", i, th.Error)
		}
		for j, b := range th.Badges() {
			want := [...]string{"Q", "D", "C"}[j]
			if !strings.HasPrefix(b.Text(), want+" ") {
				t.Errorf("thumb %d badge %d reads %q", i, j, b.Text())
			}
		}
		if th.Quality.Value != set.Levels[i].Quality || th.Controllability.Value != set.Levels[i].Controllability {
			t.Errorf("thumb %d badges do not match the evaluation", i)
		}
	}
	if !summaryPattern.MatchString(wb.samples.summary.Text) {
		t.Errorf("summary %q does not show three percentages", wb.samples.summary.Text)
	}
	if wb.samples.summary.Text != formatSummary(set.Levels) {
		t.Errorf("summary %q is not the set's evaluation", wb.samples.summary.Text)
	}
	if !strings.Contains(wb.samples.status.Text, "seed 7") || wb.samples.progress.Visible() {
		t.Errorf("status %q / progress visible %v after sampling", wb.samples.status.Text, wb.samples.progress.Visible())
	}

	img := wb.Window.Canvas().Capture()
	if path := os.Getenv("APP_TEST_CAPTURE"); path != "" {
		savePNG(t, path, img)
	}
	checkNotBlank(t, img, 60)
}

func TestSeedReproducesTheGallery(t *testing.T) {
	wb := newTestWorkbench(t)
	sample(t, wb, "5", "42")
	first := itemsFileText(t, problems.ItemsOf(wb.samples.Last().Levels))
	sample(t, wb, "5", "43")
	other := itemsFileText(t, problems.ItemsOf(wb.samples.Last().Levels))
	sample(t, wb, "5", "42")
	again := itemsFileText(t, problems.ItemsOf(wb.samples.Last().Levels))
	if first != again {
		t.Fatal("the same seed gave a different gallery")
	}
	if first == other {
		t.Fatal("different seeds gave the same gallery")
	}
	// The CLI's `sample` draws content then control per item from the same PCG stream.
	p, _ := problems.Make(fakeName)
	r := newRand(42)
	c := p.ContentSpace().Sample(r)
	k := problems.SampleControl(p, r)
	if itemsFileText(t, []problems.Item{{Content: c, Control: k}}) != itemsFileText(t, problems.ItemsOf(wb.samples.Last().Levels[:1])) {
		t.Fatal("the gallery does not follow the CLI's sampling order")
	}
}

func TestNewerSampleWins(t *testing.T) {
	wb := newTestWorkbench(t)
	if err := wb.selectProblem(slowName); err != nil {
		t.Fatal(err)
	}
	wb.samples.count.SetText("30")
	test.Tap(wb.samples.sampleButton)
	if !wb.samples.busy() || !wb.samples.progress.Visible() {
		t.Fatal("no activity shown while sampling")
	}
	wb.samples.count.SetText("3")
	test.Tap(wb.samples.sampleButton)
	wait(t, wb)
	if got := wb.samples.gallery.Len(); got != 3 {
		t.Fatalf("gallery has %d items, want the newer sample's 3", got)
	}
	if wb.samples.busy() {
		t.Fatal("still busy after Wait")
	}
}

func TestErrorsAreShownNotPanicked(t *testing.T) {
	wb := newTestWorkbench(t)

	wb.samples.count.SetText("0")
	test.Tap(wb.samples.sampleButton)
	if !wb.samples.errorBanner.Visible() || !strings.Contains(wb.samples.errorText.Text, "samples") {
		t.Fatalf("bad count not reported: %q", wb.samples.errorText.Text)
	}
	wb.samples.count.SetText("4")
	wb.samples.seed.SetText("-1")
	test.Tap(wb.samples.sampleButton)
	if !strings.Contains(wb.samples.errorText.Text, "seed") {
		t.Fatalf("bad seed not reported: %q", wb.samples.errorText.Text)
	}
	wb.samples.seed.SetText("1")

	if err := wb.selectProblem(brokenName); err != nil {
		t.Fatal(err)
	}
	wait(t, wb)
	if !wb.samples.errorBanner.Visible() || !strings.Contains(wb.samples.errorText.Text, "always fails") {
		t.Fatalf("failing info not reported: %q", wb.samples.errorText.Text)
	}

	if err := wb.selectProblem(noPicName); err != nil {
		t.Fatal(err)
	}
	wait(t, wb)
	if wb.samples.errorBanner.Visible() {
		t.Fatalf("banner still up: %q", wb.samples.errorText.Text)
	}
	if wb.samples.gallery.Len() != 4 {
		t.Fatalf("gallery has %d items, want 4", wb.samples.gallery.Len())
	}
	for _, th := range wb.samples.gallery.Thumbs() {
		if th.Image != nil || !strings.Contains(th.Error, "no sprites") {
			t.Fatalf("render failure not shown on the thumb: %q", th.Error)
		}
	}
	checkNotBlank(t, wb.Window.Canvas().Capture(), 20)

	if err := wb.selectProblem("no-such-problem-v0"); err == nil || !wb.samples.errorBanner.Visible() {
		t.Fatal("unknown problem not reported")
	}
}

func TestShortcutsSample(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.samples.count.SetText("2")
	if !wb.handleShortcut(shortcutSample) {
		t.Fatal("Ctrl+R not handled")
	}
	wait(t, wb)
	if wb.samples.gallery.Len() != 2 {
		t.Fatalf("Ctrl+R: gallery has %d items, want 2", wb.samples.gallery.Len())
	}
	// With the focus in an entry the shortcut must still reach the workbench.
	wb.samples.count.SetText("3")
	wb.Window.Canvas().Focus(wb.samples.count)
	wb.samples.count.TypedShortcut(shortcutSample)
	wait(t, wb)
	if wb.samples.gallery.Len() != 3 {
		t.Fatalf("Ctrl+R in an entry: gallery has %d items, want 3", wb.samples.gallery.Len())
	}
	wb.samples.count.SetText("4")
	wb.samples.count.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF5})
	wait(t, wb)
	if wb.samples.gallery.Len() != 4 {
		t.Fatalf("F5: gallery has %d items, want 4", wb.samples.gallery.Len())
	}
	wb.samples.seed.SetText("")
	wb.samples.seed.TypedShortcut(shortcutNewSeed)
	wait(t, wb)
	if wb.samples.seed.Text == "" || wb.samples.Last().seed != mustSeed(t, wb.samples.seed.Text) {
		t.Fatalf("Ctrl+N: seed %q, last sample seed %d", wb.samples.seed.Text, wb.samples.Last().seed)
	}
	wb.samples.count.TypedShortcut(shortcutFilter)
	if wb.Window.Canvas().Focused() != wb.picker.filter {
		t.Fatal("Ctrl+F did not focus the problem filter")
	}
	// Keys the workbench does not use still reach the entry.
	wb.samples.count.SetText("")
	test.Type(wb.samples.count, "7")
	if wb.samples.count.Text != "7" {
		t.Fatalf("typing into the count gives %q", wb.samples.count.Text)
	}
}

func mustSeed(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := parseSeed(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPickerFilters(t *testing.T) {
	wb := newTestWorkbench(t)
	wb.picker.filter.SetText("apptest BROKEN")
	if got := wb.picker.Names(); len(got) != 1 || got[0] != brokenName {
		t.Fatalf("filter shows %v", got)
	}
	if wb.picker.Selected() != fakeName {
		t.Fatal("filtering changed the selected problem")
	}
	wb.picker.filter.OnSubmitted(wb.picker.filter.Text)
	wait(t, wb)
	if wb.picker.Selected() != brokenName || wb.problemTitle.Text != brokenName {
		t.Fatalf("Enter in the filter did not pick the match (selected %q)", wb.picker.Selected())
	}
	wb.picker.filter.SetText("")
	if len(wb.picker.Names()) < 4 {
		t.Fatalf("clearing the filter shows %v", wb.picker.Names())
	}
}

func itemsFileText(t *testing.T, items []problems.Item) string {
	t.Helper()
	b, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkNotBlank fails unless the image has at least minColors distinct colours and no colour
// covers 95 % of it.
func checkNotBlank(t *testing.T, img image.Image, minColors int) {
	t.Helper()
	b := img.Bounds()
	if b.Dx() < 640 || b.Dy() < 360 {
		t.Fatalf("capture is only %v", b.Size())
	}
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	if len(counts) < minColors || float64(top) >= 0.95*float64(b.Dx()*b.Dy()) {
		t.Fatalf("capture looks blank: %d colours, most common covers %.1f%%", len(counts), 100*float64(top)/float64(b.Dx()*b.Dy()))
	}
}

func savePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

func TestTypingACountDoesNotSample(t *testing.T) {
	wb := newTestWorkbench(t)
	before := wb.samples.gallery.Len()
	wb.samples.count.SetText("5")
	if wb.samples.busy() || wb.samples.countSlider.Value != 5 {
		t.Fatalf("typing a count: busy=%v slider=%v", wb.samples.busy(), wb.samples.countSlider.Value)
	}
	wb.samples.countSlider.SetValue(9)
	if wb.samples.busy() || wb.samples.count.Text != "9" || wb.samples.gallery.Len() != before {
		t.Fatalf("moving the slider programmatically: busy=%v count=%q", wb.samples.busy(), wb.samples.count.Text)
	}
}

func TestFailureStopsTheRunningSample(t *testing.T) {
	wb := newTestWorkbench(t)
	sample(t, wb, "2", "1")
	if err := wb.selectProblem(slowName); err != nil {
		t.Fatal(err)
	}
	wb.samples.count.SetText("30") // the selection above already started a slow sample of 2
	test.Tap(wb.samples.sampleButton)
	wb.samples.seed.SetText("not a seed")
	test.Tap(wb.samples.sampleButton)
	wait(t, wb)
	if !wb.samples.errorBanner.Visible() || wb.samples.progress.Visible() {
		t.Fatalf("banner %v, progress %v", wb.samples.errorBanner.Visible(), wb.samples.progress.Visible())
	}
	if got := wb.samples.gallery.Len(); got == 30 {
		t.Fatal("the cancelled sample still replaced the gallery")
	}
}

func TestShowTabNamedReachesEveryTab(t *testing.T) {
	wb := newTestWorkbench(t)
	for _, name := range []string{"sample", "run", "editor", "compare", "expressive", "birds", "Games", "llm", "Range", "SAMPLE"} {
		want := tabTable[tabNamed(name)]
		if !wb.showTab(name) || wb.frontTab() != want.name || wb.tabs.Selected().Text != want.title {
			t.Errorf("%s: selected %q", name, wb.tabs.Selected().Text)
		}
		wait(t, wb)
	}
	if wb.showTab("nope") {
		t.Error("an unknown tab was found")
	}
	if got := len(wb.tabs.Items); got != len(tabTable) || len(TabNames()) != got {
		t.Errorf("%d tabs shown, %d in the table", got, len(tabTable))
	}
	for i, item := range wb.tabs.Items {
		if item.Text != tabTable[i].title {
			t.Errorf("tab %d is %q, the table says %q", i, item.Text, tabTable[i].title)
		}
	}
}

// At the default window size the problem list shows at least ten problems.
func TestProblemListShowsTenRows(t *testing.T) {
	wb := newTestWorkbench(t)
	for _, size := range []fyne.Size{fyne.NewSize(1280, 720), fyne.NewSize(1024, 700)} {
		wb.Window.Resize(size)
		row := wb.picker.list.CreateItem().MinSize().Height + theme.Padding()
		if rows := wb.picker.list.Size().Height / row; rows < 10 {
			t.Errorf("%v: the problem list shows %.1f rows", size, rows)
		}
	}
}
