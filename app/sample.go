package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
)

// Limits of the sample count: enough for a statistic, few enough to see each item.
const (
	DefaultSamples = 12
	MaxSamples     = 100
)

// samplePanel is the Sample tab: draw N random contents of the current problem from a seed,
// evaluate them as a set and show them as a gallery with per-item badges.
type samplePanel struct {
	count         *widgets.Entry
	countSlider   *widget.Slider
	seed          *widgets.Entry
	newSeedButton *widget.Button
	sampleButton  *widget.Button
	progress      *widget.ProgressBarInfinite
	// summary is the set's pass rates; Status says what was sampled (or what is running).
	summary   *widget.Label
	status    *widget.Label
	errorText *widget.Label
	gallery   *widgets.Gallery

	// onSampled is called on the UI goroutine each time a sample set has been shown, or has
	// failed (set is nil then).
	onSampled func(set *SampleSet, err error)

	errorBanner *fyne.Container
	content     fyne.CanvasObject
	current     func() (string, problems.Problem, error)
	// fixedControl returns the control every item is judged against, or nil to sample one per
	// item (the reference's way).
	fixedControl func() problems.Control
	// onOpen is called when thumbnail i of set is tapped.
	onOpen func(set *SampleSet, i int)
	// afterApply is called after a new set is shown.
	afterApply func()
	syncing    bool // the count entry and slider are updating each other

	jobs latest // the sample being computed; only the newest one's result is shown

	mu   sync.Mutex
	last *SampleSet
}

func newSamplePanel(keys keyHandler, current func() (string, problems.Problem, error)) *samplePanel {
	sp := &samplePanel{current: current}

	sp.count = newEntry(keys)
	sp.count.SetText(strconv.Itoa(DefaultSamples))
	sp.count.OnSubmitted = func(string) { sp.Sample() }
	sp.countSlider = widget.NewSlider(1, MaxSamples)
	sp.countSlider.Step = 1
	sp.countSlider.SetValue(DefaultSamples)
	sp.count.OnChanged = func(s string) {
		if n, err := parseCount(s); err == nil && !sp.syncing {
			sp.syncing = true
			sp.countSlider.SetValue(float64(n))
			sp.syncing = false
		}
	}
	sp.countSlider.OnChanged = func(v float64) {
		if !sp.syncing {
			sp.syncing = true
			sp.count.SetText(strconv.Itoa(int(v)))
			sp.syncing = false
		}
	}

	sp.seed = newEntry(keys)
	sp.seed.SetText("0")
	sp.seed.OnSubmitted = func(string) { sp.Sample() }
	sp.newSeedButton = widget.NewButtonWithIcon("New seed", theme.ViewRefreshIcon(), sp.newSeed)

	sp.sampleButton = widget.NewButtonWithIcon("Sample  (Ctrl+R)", theme.MediaPlayIcon(), sp.Sample)
	sp.sampleButton.Importance = widget.HighImportance
	sp.progress = widget.NewProgressBarInfinite()
	sp.progress.Stop()
	sp.progress.Hide()

	sp.summary = widget.NewLabel("Quality –   Diversity –   Controllability –")
	sp.summary.TextStyle = fyne.TextStyle{Bold: true}
	sp.summary.SizeName = theme.SizeNameSubHeadingText
	sp.status = widget.NewLabel("")
	sp.status.Alignment = fyne.TextAlignTrailing
	sp.status.Truncation = fyne.TextTruncateEllipsis
	sp.status.SizeName = theme.SizeNameCaptionText

	sp.errorText, sp.errorBanner = newErrorBanner()

	sp.gallery = widgets.NewGallery("Press Sample (Ctrl+R or F5) to draw random contents of the selected problem.")

	// The groups wrap in a narrow window (Projector on a small screen) instead of pushing the
	// Sample button out of view.
	toolbar := container.New(widgets.NewWrapLayout(),
		container.NewHBox(caption("SAMPLES"), widgets.FixedWidth(64, sp.count), widgets.FixedWidth(160, sp.countSlider)),
		container.NewHBox(caption("SEED"), widgets.FixedWidth(120, sp.seed), sp.newSeedButton),
		sp.sampleButton,
	)
	header := container.NewBorder(nil, nil, sp.summary, nil, sp.status)
	top := container.NewVBox(
		toolbar,
		container.NewPadded(sp.progress),
		header,
		sp.errorBanner,
	)
	sp.content = container.NewBorder(top, nil, nil, nil, sp.gallery)
	return sp
}

// Content is the panel's root object (the Sample tab's content).
func (sp *samplePanel) Content() fyne.CanvasObject { return sp.content }

// Last returns the sample set on screen, or nil.
func (sp *samplePanel) Last() *SampleSet {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.last
}

// busy reports whether a sample is being computed.
func (sp *samplePanel) busy() bool { return sp.jobs.busy() }

// wait blocks until the latest sample is on screen (or was dropped), at most timeout. It must
// not be called from the UI goroutine, which has to apply the result.
func (sp *samplePanel) wait(timeout time.Duration) error {
	if err := sp.jobs.wait(timeout); err != nil {
		return fmt.Errorf("sampling: %w", err)
	}
	return nil
}

// newSeed picks a fresh random seed and samples with it.
func (sp *samplePanel) newSeed() {
	sp.seed.SetText(strconv.FormatUint(rand.Uint64N(1_000_000), 10))
	sp.Sample()
}

// Sample starts sampling with the current problem, count and seed, cancelling a sample still
// running. The work happens off the UI goroutine; the result is applied with fyne.Do.
func (sp *samplePanel) Sample() {
	n, err := parseCount(sp.count.Text)
	if err != nil {
		sp.fail(fmt.Errorf("samples: %w", err))
		return
	}
	seed, err := parseSeed(sp.seed.Text)
	if err != nil {
		sp.fail(fmt.Errorf("seed: %w", err))
		return
	}
	name, p, err := sp.current()
	if err != nil {
		sp.fail(err)
		return
	}
	// Cancel the sample still running before the UI shows the new one: a cancelled job's
	// result is dropped, so it cannot land between these updates and the new job's start.
	sp.jobs.Cancel()
	sp.hideError()
	sp.progress.Show()
	sp.progress.Start()
	sp.status.SetText(fmt.Sprintf("sampling %d × %s, seed %d…", n, name, seed))
	var fixed problems.Control
	if sp.fixedControl != nil {
		fixed = sp.fixedControl()
	}
	sp.jobs.Go(func(ctx context.Context) func() {
		set, err := sampleAndEvaluateWith(ctx, name, p, n, seed, fixed)
		return func() { sp.apply(set, err) }
	})
}

// Cancel stops a running sample; the gallery keeps what it shows.
func (sp *samplePanel) Cancel() { sp.jobs.Cancel() }

func (sp *samplePanel) apply(set *SampleSet, err error) {
	sp.progress.Stop()
	sp.progress.Hide()
	if err != nil {
		sp.status.SetText("")
		sp.showError(err)
	} else {
		thumbs := make([]*widgets.Thumb, len(set.Levels))
		for i := range thumbs {
			thumbs[i] = thumbOf(set, i)
			i := i
			thumbs[i].OnTapped = func() {
				if sp.onOpen != nil {
					sp.onOpen(set, i)
				}
			}
		}
		sp.gallery.SetThumbs(thumbs)
		sp.summary.SetText(formatSummary(set.Levels))
		sp.status.SetText(fmt.Sprintf("%s · %d items · seed %d · %s", set.problem, len(set.Levels), set.seed, formatDuration(set.elapsed)))
		sp.mu.Lock()
		sp.last = set
		sp.mu.Unlock()
		if sp.afterApply != nil {
			sp.afterApply()
		}
	}
	if sp.onSampled != nil {
		sp.onSampled(set, err)
	}
}

// fail reports a sample that could not start. A sample still running is stopped: its result
// would arrive after, and hide, the error.
func (sp *samplePanel) fail(err error) {
	sp.Cancel()
	sp.progress.Stop()
	sp.progress.Hide()
	sp.status.SetText("")
	sp.showError(err)
	if sp.onSampled != nil {
		sp.onSampled(nil, err)
	}
}

// showError puts a message on the red banner above the gallery.
func (sp *samplePanel) showError(err error) {
	sp.errorText.SetText(err.Error())
	sp.errorBanner.Show()
}

// hideError removes the banner.
func (sp *samplePanel) hideError() {
	sp.errorText.SetText("")
	sp.errorBanner.Hide()
}

// formatSummary is the header line: the share of items passing quality, diversity and
// controllability, as the reference's evaluate() reports them.
func formatSummary(levels []problems.Scored) string {
	q, d, c := problems.PassRates(levels)
	return fmt.Sprintf("Quality %s    Diversity %s    Controllability %s", percent(q), percent(d), percent(c))
}

func percent(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

func formatDuration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func parseCount(s string) (int, error) { return parseWhole(s, "", 1, MaxSamples) }

// parseWhole reads a whole number in [lo, hi] typed into an entry; the error names what the
// number is (what, may be empty) and the range.
func parseWhole(s, what string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < lo || n > hi {
		if what != "" {
			what += ": "
		}
		return 0, fmt.Errorf("%senter a whole number from %d to %d", what, lo, hi)
	}
	return n, nil
}

func parseSeed(s string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, errors.New("enter a whole number ≥ 0")
	}
	return n, nil
}

// newErrorBanner is a panel's hidden error banner: bold wrapped text (the theme's white text
// reads well on the red) on a rounded red card.
func newErrorBanner() (*widget.Label, *fyne.Container) {
	text := widget.NewLabel("")
	text.Wrapping = fyne.TextWrapWord
	text.TextStyle = fyne.TextStyle{Bold: true}
	back := canvas.NewRectangle(colorErrorBack)
	back.CornerRadius = 4
	banner := container.NewStack(back, text)
	banner.Hide()
	return text, banner
}

// caption is a small muted heading for a group of controls.
func caption(text string) fyne.CanvasObject {
	c := &themedCaption{text: canvas.NewText(text, colorMuted())}
	c.text.TextStyle = fyne.TextStyle{Bold: true}
	c.ExtendBaseWidget(c)
	return container.NewCenter(c)
}

// themedCaption is a caption's text kept in the current theme's muted colour and caption size:
// Fyne refreshes every widget when the theme changes, but not a bare canvas.Text.
type themedCaption struct {
	widget.BaseWidget
	text *canvas.Text
}

func (c *themedCaption) CreateRenderer() fyne.WidgetRenderer {
	r := &themedCaptionRenderer{c}
	r.Refresh()
	return r
}

type themedCaptionRenderer struct{ c *themedCaption }

func (r *themedCaptionRenderer) Layout(s fyne.Size)           { r.c.text.Resize(s) }
func (r *themedCaptionRenderer) MinSize() fyne.Size           { return r.c.text.MinSize() }
func (r *themedCaptionRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.c.text} }
func (r *themedCaptionRenderer) Destroy()                     {}
func (r *themedCaptionRenderer) Refresh() {
	r.c.text.Color = colorMuted()
	r.c.text.TextSize = theme.Size(theme.SizeNameCaptionText)
	r.c.text.Refresh()
}

// tips are the Sample tab's tooltips (buildTabs hands them to tipAll; the texts several tabs
// share are in widget_tips.go).
func (sp *samplePanel) tips() map[fyne.CanvasObject]string {
	return map[fyne.CanvasObject]string{
		sp.count:         "How many levels to sample, from 1 to 100. Diversity is measured within this set.",
		sp.countSlider:   "How many levels to sample, from 1 to 100.",
		sp.seed:          tipSeed,
		sp.newSeedButton: "Pick a new random seed (then Sample for a new set).",
		sp.sampleButton:  "Draw a new set of random levels of the selected problem and score each one (Ctrl+R).",
		sp.summary:       "Share of the set that passes each measure: quality, diversity and controllability pass at 1.00.",
	}
}
