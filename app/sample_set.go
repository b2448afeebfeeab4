package app

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"pcgwb/app/widgets"
	"pcgwb/problems"
)

// NewRand is the seeded source behind a gallery: the same as the CLI's, so
// `workbench sample P -n N --seed S` and the gallery for the same P, N and S show the same items.
func newRand(seed uint64) *rand.Rand { return problems.NewRand(seed) }

// SampleSet is N random contents (with a sampled control each) of one problem, evaluated the
// way the reference's evaluate() does, and drawn.
type SampleSet struct {
	problem string
	seed    uint64
	// Levels are the evaluated items in sampling order, ranked by quality (problems.ScoreItems).
	Levels []problems.Scored
	// images[i] is nil when drawing item i failed; renderErrors[i] says why.
	images       []image.Image
	renderErrors []error
	elapsed      time.Duration
}

// SampleAndEvaluate draws n contents and controls from seed (problems.SampleN, as the CLI's
// sample command does), evaluates the set and renders every content. It stops early
// when ctx is cancelled, and turns a panic inside a problem into an error.
func SampleAndEvaluate(ctx context.Context, name string, p problems.Problem, n int, seed uint64) (*SampleSet, error) {
	return sampleAndEvaluateWith(ctx, name, p, n, seed, nil)
}

// sampleAndEvaluateWith is SampleAndEvaluate with every item judged against control fixed
// (when not nil). The controls are still drawn, so the contents are the same as without it.
func sampleAndEvaluateWith(ctx context.Context, name string, p problems.Problem, n int, seed uint64, fixed problems.Control) (set *SampleSet, err error) {
	defer func() {
		if r := recover(); r != nil {
			set, err = nil, fmt.Errorf("%s failed: %v", name, r)
		}
	}()
	start := time.Now()
	items, err := problems.SampleN(ctx, p, n, seed)
	if err != nil {
		return nil, err
	}
	if fixed != nil {
		for i := range items {
			items[i].Control = fixed
		}
	}
	ev, err := problems.Evaluate(ctx, p, problems.Contents(items), problems.Controls(items))
	if err != nil {
		return nil, err
	}
	set = &SampleSet{problem: name, seed: seed, Levels: problems.ScoreItems(items, ev)}
	set.images = make([]image.Image, n)
	set.renderErrors = make([]error, n)
	for i, it := range set.Levels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		set.images[i], set.renderErrors[i] = safeRender(p, it.Content)
	}
	set.elapsed = time.Since(start)
	return set, nil
}

func safeRender(p problems.Problem, c problems.Content) (img image.Image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("render failed: %v", r)
		}
	}()
	img, err = p.Render(c)
	if err == nil && (img == nil || img.Bounds().Empty()) {
		err = fmt.Errorf("render returned an empty image")
	}
	if err != nil {
		img = nil
	}
	return img, err
}

// thumbOf builds the gallery cell for item i of a sample set.
func thumbOf(set *SampleSet, i int) *widgets.Thumb {
	s := &set.Levels[i]
	return widgets.NewThumb(i, set.images[i], set.renderErrors[i], s.Quality, s.Diversity, s.Controllability)
}
