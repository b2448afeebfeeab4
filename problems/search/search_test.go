package search

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search/searchtest"
)

var fakeAxes = []Axis{{Field: "ones", Min: 0, Max: 17, Bins: 6}, {Field: "full_rows", Min: 0, Max: 5, Bins: 5}}

func newFake(t testing.TB, gen string, opts Options) (Generator, *searchtest.Toy) {
	t.Helper()
	p := &searchtest.Toy{}
	if opts.PopSize == 0 {
		opts.PopSize = 12
	}
	if opts.Lambda == 0 {
		opts.Lambda = 10
	}
	if gen == "mapelites" && opts.Axes == nil {
		opts.Axes = fakeAxes
	}
	g, err := New(p, gen, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, p
}

func saved(t testing.TB, g Generator) string {
	t.Helper()
	s, err := g.Save()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runSteps(t testing.TB, g Generator, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := g.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

var searchGens = []string{"random", "es", "ga", "mapelites"}

func TestFitnessFunctionsAreTheReferenceCascade(t *testing.T) {
	cases := []struct {
		name    string
		q, c, d float64
		want    float64
	}{
		{"quality", 0.4, 1, 1, 0.4},
		{"fitness_quality", 1, 0, 0, 1},
		{"quality_control", 0.6, 0.9, 1, 0.3},
		{"quality_control", 1, 0.5, 0.2, 0.75},
		{"quality_control_diversity", 0.9, 1, 1, 0.3},
		{"quality_control_diversity", 1, 0.7, 1, 1.7 / 3},
		{"quality_control_diversity", 1, 1, 0.25, 2.25 / 3},
		{"fitness_quality_control_diversity", 1, 1, 1, 1},
	}
	for _, c := range cases {
		_, f, err := ParseFitness(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := f(c.q, c.c, c.d); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s(%v, %v, %v) = %v, want %v", c.name, c.q, c.c, c.d, got, c.want)
		}
	}
	if _, _, err := ParseFitness("speed"); err == nil || !strings.Contains(err.Error(), "quality_control") {
		t.Errorf("unknown fitness error = %v", err)
	}
}

func TestSameSeedSameRunDifferentSeedDifferentRun(t *testing.T) {
	for _, gen := range searchGens {
		t.Run(gen, func(t *testing.T) {
			run := func(seed uint64) string {
				g, _ := newFake(t, gen, Options{Seed: seed, Fitness: "quality_control_diversity"})
				if err := g.Reset(context.Background()); err != nil {
					t.Fatal(err)
				}
				runSteps(t, g, 4)
				return saved(t, g)
			}
			a, b, c := run(3), run(3), run(4)
			if a != b {
				t.Fatal("the same seed gave different runs")
			}
			if a == c {
				t.Fatal("different seeds gave the same run")
			}
		})
	}
}

func TestResetRestartsTheRun(t *testing.T) {
	g, _ := newFake(t, "ga", Options{Seed: 9})
	ctx := context.Background()
	if err := g.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 2)
	first := saved(t, g)
	if err := g.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 2)
	if saved(t, g) != first {
		t.Fatal("Reset did not restart from the seed")
	}
}

// A run saved and loaded (through JSON) continues exactly like the uninterrupted one.
func TestSaveLoadContinuesBitForBit(t *testing.T) {
	for _, gen := range searchGens {
		t.Run(gen, func(t *testing.T) {
			opts := Options{Seed: 11, Fitness: "quality_control_diversity"}
			ctx := context.Background()
			whole, _ := newFake(t, gen, opts)
			if err := whole.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			runSteps(t, whole, 5)

			part, _ := newFake(t, gen, opts)
			if err := part.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			runSteps(t, part, 2)
			var st State
			if err := json.Unmarshal([]byte(saved(t, part)), &st); err != nil {
				t.Fatal(err)
			}
			resumed, _ := newFake(t, gen, opts)
			if err := resumed.Load(ctx, &st); err != nil {
				t.Fatal(err)
			}
			if resumed.Generation() != 2 {
				t.Fatalf("generation after load = %d", resumed.Generation())
			}
			runSteps(t, resumed, 3)
			if saved(t, resumed) != saved(t, whole) {
				t.Fatal("the resumed run differs from the uninterrupted one")
			}
			if resumed.Evaluations() != whole.Evaluations() {
				t.Fatalf("evaluations %d vs %d", resumed.Evaluations(), whole.Evaluations())
			}
		})
	}
}

func TestLoadRefusesOtherGeneratorOrOptions(t *testing.T) {
	ctx := context.Background()
	g, _ := newFake(t, "es", Options{Seed: 1})
	if err := g.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	st, _ := g.Save()
	other, _ := newFake(t, "ga", Options{Seed: 1})
	if err := other.Load(ctx, st); err == nil {
		t.Error("a GA loaded an ES state")
	}
	diff, _ := newFake(t, "es", Options{Seed: 1, PopSize: 5})
	if err := diff.Load(ctx, st); err == nil {
		t.Error("loaded a state saved with another population size")
	}
}

// A cancelled Step fails and leaves the generator exactly as it was.
func TestCancelledStepChangesNothing(t *testing.T) {
	for _, gen := range searchGens {
		t.Run(gen, func(t *testing.T) {
			g, _ := newFake(t, gen, Options{Seed: 5})
			if err := g.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			runSteps(t, g, 1)
			before := saved(t, g)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := g.Step(ctx); err == nil {
				t.Fatal("a cancelled step succeeded")
			}
			if saved(t, g) != before {
				t.Fatal("the failed step changed the generator")
			}
			// and the run carries on as if nothing happened
			ref, _ := newFake(t, gen, Options{Seed: 5})
			_ = ref.Reset(context.Background())
			runSteps(t, ref, 2)
			runSteps(t, g, 1)
			if saved(t, g) != saved(t, ref) {
				t.Fatal("the run after a cancelled step differs")
			}
		})
	}
}

// A Step cancelled in the middle of its evaluation is undone completely: the retried run
// matches an uninterrupted one, evaluation count included.
func TestCancelInsideEvaluationIsUndone(t *testing.T) {
	for _, gen := range searchGens {
		t.Run(gen, func(t *testing.T) {
			opts := Options{Seed: 21, PopSize: 16, Lambda: 16}
			ref, _ := newFake(t, gen, opts)
			if err := ref.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			runSteps(t, ref, 4)

			g, p := newFake(t, gen, opts)
			if err := g.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			runSteps(t, g, 2)
			ctx, cancel := context.WithCancel(context.Background())
			stopAt := p.Infos.Load() + 1
			p.OnInfo = func(n int64) {
				if n == stopAt {
					cancel()
				}
			}
			if err := g.Step(ctx); err == nil {
				t.Fatal("the cancelled step succeeded")
			}
			p.OnInfo = nil
			runSteps(t, g, 2)
			if saved(t, g) != saved(t, ref) {
				t.Fatal("the run after a cancelled step differs from the uninterrupted one")
			}
		})
	}
}

// Elitist generators never lose their best quality.
func TestBestQualityNeverDecreases(t *testing.T) {
	for _, gen := range []string{"random", "es", "ga"} {
		t.Run(gen, func(t *testing.T) {
			g, _ := newFake(t, gen, Options{Seed: 2, PopSize: 20, Lambda: 20})
			if err := g.Reset(context.Background()); err != nil {
				t.Fatal(err)
			}
			prev := g.Best()
			for i := 0; i < 15; i++ {
				runSteps(t, g, 1)
				if g.Best() < prev {
					t.Fatalf("generation %d: best %v < %v", g.Generation(), g.Best(), prev)
				}
				prev = g.Best()
			}
			if gen != "random" && prev < 1 {
				t.Errorf("%s did not solve the toy problem in 15 generations (best %v)", gen, prev)
			}
		})
	}
}

func TestPopulationSizesAndOrder(t *testing.T) {
	for _, gen := range searchGens {
		g, _ := newFake(t, gen, Options{Seed: 8, PopSize: 12, Lambda: 7})
		if err := g.Reset(context.Background()); err != nil {
			t.Fatal(err)
		}
		runSteps(t, g, 3)
		pop := g.Population()
		if gen != "mapelites" && len(pop) != 12 {
			t.Errorf("%s: population %d, want 12", gen, len(pop))
		}
		for i := 1; i < len(pop); i++ {
			if g.Fitness(pop[i]) > g.Fitness(pop[i-1]) {
				t.Errorf("%s: population not sorted best first at %d", gen, i)
			}
		}
		if g.Best() != g.Fitness(pop[0]) {
			t.Errorf("%s: Best() is not the first individual's fitness", gen)
		}
	}
}

// The batch evaluation (cache, deduplication, parallel matrix) gives exactly what the
// reference's evaluate() gives.
func TestEvaluationMatchesProblemsEvaluate(t *testing.T) {
	p := &searchtest.Toy{}
	r := rand.New(rand.NewPCG(1, 2))
	var batch []*Individual
	var contents []problems.Content
	var controls []problems.Control
	for i := 0; i < 30; i++ {
		c := p.ContentSpace().Sample(r)
		if i%4 == 3 {
			c = contents[i-2] // duplicates share one info
		}
		k := p.ControlSpace().Sample(r)
		contents = append(contents, c)
		controls = append(controls, k)
		batch = append(batch, NewIndividual(c, k))
	}
	want, err := problems.Evaluate(context.Background(), p, contents, controls)
	if err != nil {
		t.Fatal(err)
	}
	ev := newEvaluator(p, nil)
	// evaluate a half first so that the second evaluation reuses cached infos and pairs
	if err := ev.evaluate(context.Background(), batch[:15]); err != nil {
		t.Fatal(err)
	}
	calls := p.Infos.Load()
	if err := ev.evaluate(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
	for i, ind := range batch {
		if ind.Quality != want.Details.Quality[i] || ind.Diversity != want.Details.Diversity[i] || ind.Controllability != want.Details.Controllability[i] {
			t.Fatalf("item %d: got q=%v d=%v c=%v, want q=%v d=%v c=%v", i, ind.Quality, ind.Diversity, ind.Controllability,
				want.Details.Quality[i], want.Details.Diversity[i], want.Details.Controllability[i])
		}
	}
	distinct := map[string]bool{}
	for _, c := range contents[15:] {
		k, _ := contentKey(c)
		distinct[k] = true
	}
	for _, c := range contents[:15] {
		k, _ := contentKey(c)
		delete(distinct, k)
	}
	if got := p.Infos.Load() - calls; got != int64(len(distinct)) {
		t.Errorf("second evaluation computed %d infos, want %d (only the new distinct contents)", got, len(distinct))
	}
}

// Every info is computed once: the evaluation counter is the number of Info calls, and the GA's
// elites are not recomputed.
func TestInfoComputedOncePerContent(t *testing.T) {
	g, p := newFake(t, "ga", Options{Seed: 4, PopSize: 20})
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 5)
	if int64(g.Evaluations()) != p.Infos.Load() {
		t.Fatalf("Evaluations() = %d, Info calls = %d", g.Evaluations(), p.Infos.Load())
	}
	if g.Evaluations() > 20+5*18 {
		t.Fatalf("%d evaluations: elites were recomputed", g.Evaluations())
	}
}

func TestEventSummarisesThePopulation(t *testing.T) {
	g, _ := newFake(t, "es", Options{Seed: 6, Fitness: "quality_control"})
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 2)
	ev := g.Event()
	if ev.Generation != 2 || ev.Size != len(g.Population()) || ev.Generator != "es" || ev.Evaluations != g.Evaluations() {
		t.Fatalf("event header %+v", ev)
	}
	feasible, sum := 0, 0.0
	for _, ind := range g.Population() {
		if ind.Quality >= 1 {
			feasible++
		}
		sum += g.Fitness(ind)
	}
	if ev.Feasible != feasible || math.Abs(ev.MeanFitness-sum/float64(ev.Size)) > 1e-12 || ev.BestFitness != g.Best() {
		t.Fatalf("event %+v", ev)
	}
	if ev.Quality.Min > ev.Quality.Mean || ev.Quality.Mean > ev.Quality.Max {
		t.Fatalf("quality stats %+v", ev.Quality)
	}
}

func TestMapElitesArchive(t *testing.T) {
	g, _ := newFake(t, "mapelites", Options{Seed: 3})
	if err := g.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	runSteps(t, g, 6)
	ev := g.Event()
	if ev.Archive == nil || ev.Archive.Filled != len(g.Population()) || len(ev.Archive.Cells) != ev.Archive.Filled {
		t.Fatalf("archive view %+v", ev.Archive)
	}
	seen := map[int]bool{}
	for _, ind := range g.Population() {
		if seen[ind.Cell] {
			t.Fatalf("two elites in cell %d", ind.Cell)
		}
		seen[ind.Cell] = true
		info := ind.Info.(*searchtest.ToyInfo)
		want := fakeAxes[1].bin(float64(info.Rows))*fakeAxes[0].Bins + fakeAxes[0].bin(float64(info.Ones))
		if ind.Cell != want {
			t.Fatalf("elite in cell %d, its features say %d", ind.Cell, want)
		}
	}
	if len(seen) < 5 {
		t.Errorf("only %d cells filled", len(seen))
	}
}

func TestMapElitesAxesErrors(t *testing.T) {
	if _, err := ParseAxes("ones:0:16:4,full_rows:0:4"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"ones:0", "ones:a:1", "ones:0:1:x"} {
		if _, err := ParseAxes(bad); err == nil {
			t.Errorf("ParseAxes(%q) accepted", bad)
		}
	}
	if _, err := New(&searchtest.Toy{}, "mapelites", Options{Axes: fakeAxes[:1]}); err == nil {
		t.Error("one axis accepted")
	}
	g, err := New(&searchtest.Toy{}, "mapelites", Options{PopSize: 4, Axes: []Axis{{Field: "nope", Min: 0, Max: 1, Bins: 2}, fakeAxes[0]}})
	if err != nil {
		t.Fatal(err)
	}
	err = g.Reset(context.Background())
	if err == nil || !strings.Contains(err.Error(), "full_rows") || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("missing field error = %v", err)
	}
}

func TestUnknownGeneratorAndConstructiveUnavailable(t *testing.T) {
	if _, err := New(&searchtest.Toy{}, "annealing", Options{}); err == nil || !strings.Contains(err.Error(), "mapelites") {
		t.Errorf("unknown generator error = %v", err)
	}
	_, err := New(&searchtest.Toy{}, "constructive", Options{Problem: searchtest.ToyName})
	if err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("constructive on an unsupported problem: %v", err)
	}
}

func TestRegistryIsOpen(t *testing.T) {
	const name = "test-registered"
	built := 0
	RegisterWithRuntime(name, func(ctx context.Context, s Spec) (Generator, error) {
		if s.Runtime == nil {
			return nil, ErrNeedsRuntime
		}
		built++
		return newEngine(s.Problem, "random", s.Options.WithDefaults("random"))
	})
	if slices.Contains(Generators(), name) || !slices.Contains(All(), name) || !NeedsRuntime(name) || NeedsRuntime("ga") {
		t.Fatalf("listing: %v / %v", Generators(), All())
	}
	if _, err := New(&searchtest.Toy{}, name, Options{}); !errors.Is(err, ErrNeedsRuntime) {
		t.Fatalf("without runtime: %v", err)
	}
	if _, err := Build(context.Background(), name, Spec{Problem: &searchtest.Toy{}, Runtime: 1}); err != nil || built != 1 {
		t.Fatalf("with runtime: %v (built %d)", err, built)
	}
	if got := Generators()[:5]; !slices.Equal(got, []string{"random", "es", "ga", "mapelites", "constructive"}) {
		t.Fatalf("built-in order %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering a name twice did not panic")
		}
	}()
	Register("ga", func(context.Context, Spec) (Generator, error) { return nil, nil })
}
