package search

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"

	"pcgwb/problems"
)

// Spec is what a generator factory builds from.
type Spec struct {
	Problem problems.Problem
	// Options are the common generator options, defaults filled in.
	Options Options
	// Settings is the generator's own section of a run's configuration (raw JSON, the "llm"
	// object of an LLM run), nil for generators that have none.
	Settings json.RawMessage
	// Runtime is what a run needs and does not record, given by the caller (the LLM
	// generators' client, which holds the key). Nil for generators that need nothing.
	Runtime any
	// Shared, when set, is a cache shared with the other runs of this process (a sweep's):
	// infos and batch diversities one run computed are not computed again by another run of
	// the same problem. Results are the same with or without it. Generators other than the
	// built-in ones may ignore it.
	Shared *SharedCache
}

// Factory makes a generator. With a nil Runtime a factory of a generator that needs one
// should still check the options and settings (a configuration is validated before any run),
// returning ErrNeedsRuntime when it gets that far.
type Factory func(ctx context.Context, s Spec) (Generator, error)

// ErrNeedsRuntime is returned by a factory whose configuration is valid but which needs a
// Runtime to build the generator.
var ErrNeedsRuntime = fmt.Errorf("the generator needs runtime resources from its caller")

// Descriptor describes a registered generator: what it can do, so that a runner, the GUI and
// the report test capabilities, never names (a new generator that keeps a MAP-Elites archive
// sets UsesAxes and gets the axis fields, the axis sampling and the archive view with no other
// change).
type Descriptor struct {
	// Name is the generator's name in configurations, run folders and reports.
	Name string
	// NeedsRuntime: the factory needs Spec.Runtime (an LLM client) to build the generator.
	// Such a generator is listed by All, not by Generators, and is not run by a sweep.
	NeedsRuntime bool
	// AsksModel: the generator asks a language model for contents; its runs have an endpoint,
	// a reply cache and model counts, and a resumed run replays from the cache.
	AsksModel bool
	// UsesAxes: the generator keeps a MAP-Elites archive over two feature axes; a run needs
	// Options.Axes (sampled from the problem when not given).
	UsesAxes bool
	// Constructive: the generator builds contents with a family's builder (RegisterBuilder)
	// without evaluating them; it exists only for the families with one.
	Constructive bool
	// Color is the generator's colour in the report's figures and the GUI's Compare tab (one
	// table for both). Nil takes Palette[rank mod len(Palette)], rank being the registration
	// order.
	Color color.Color
}

// Palette is the generators' colours in registration order (gonum's plotutil.SoftColors, the
// colours the report has always drawn with), given to generators registered without one.
var Palette = []color.Color{
	color.RGBA{241, 90, 96, 255},   // random
	color.RGBA{122, 195, 106, 255}, // es
	color.RGBA{90, 155, 212, 255},  // ga
	color.RGBA{250, 167, 91, 255},  // mapelites
	color.RGBA{158, 103, 171, 255}, // constructive
	color.RGBA{206, 112, 88, 255},
	color.RGBA{215, 127, 180, 255},
}

type registration struct {
	Descriptor
	factory Factory
}

var registry struct {
	sync.RWMutex
	list []registration
}

// Register makes a generator known by name with no particular capability, as problems
// register themselves; RegisterGenerator gives it a descriptor.
func Register(name string, f Factory) { RegisterGenerator(Descriptor{Name: name}, f) }

// RegisterWithRuntime registers a generator that needs Spec.Runtime to run (an LLM client).
// It is listed by All, not by Generators.
func RegisterWithRuntime(name string, f Factory) {
	RegisterGenerator(Descriptor{Name: name, NeedsRuntime: true}, f)
}

// RegisterGenerator makes a generator known by its descriptor: the built-in generators
// register in this package, others from theirs (the LLM generators from pcgwb/llm), so a
// runner can build any of them by name and ask the descriptor what it can do. Registering a
// name twice panics.
func RegisterGenerator(d Descriptor, f Factory) {
	registry.Lock()
	defer registry.Unlock()
	if d.Name == "" || f == nil {
		panic("search: Register with an empty name or nil factory")
	}
	for _, r := range registry.list {
		if r.Name == d.Name {
			panic("search: generator " + d.Name + " registered twice")
		}
	}
	if d.Color == nil {
		d.Color = Palette[len(registry.list)%len(Palette)]
	}
	registry.list = append(registry.list, registration{d, f})
}

func lookup(name string) (registration, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, r := range registry.list {
		if r.Name == name {
			return r, true
		}
	}
	return registration{}, false
}

// Describe returns the descriptor of a registered generator; an unknown name gives the zero
// descriptor (no capability, no colour) and false.
func Describe(name string) (Descriptor, bool) {
	r, ok := lookup(name)
	return r.Descriptor, ok
}

// Descriptors lists every registered generator's descriptor in registration order.
func Descriptors() []Descriptor {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Descriptor, len(registry.list))
	for i, r := range registry.list {
		out[i] = r.Descriptor
	}
	return out
}

// Generators lists the generators that run with nothing but their configuration, in
// registration order (the built-in ones first: random, es, ga, mapelites, constructive).
func Generators() []string { return names(false) }

// All lists every registered generator, those needing a runtime (llm) included.
func All() []string { return names(true) }

// NeedsRuntime tells whether the named generator needs Spec.Runtime.
func NeedsRuntime(name string) bool {
	d, _ := Describe(name)
	return d.NeedsRuntime
}

func names(all bool) []string {
	registry.RLock()
	defer registry.RUnlock()
	var out []string
	for _, r := range registry.list {
		if all || !r.NeedsRuntime {
			out = append(out, r.Name)
		}
	}
	return out
}

// PaperGenerators are the three the paper compares.
func PaperGenerators() []string { return []string{"random", "es", "ga"} }

// New makes a registered generator that needs no runtime for problem p.
func New(p problems.Problem, generator string, opts Options) (Generator, error) {
	return Build(context.Background(), generator, Spec{Problem: p, Options: opts})
}

// Build makes the named generator from s; s.Options get the generator's defaults first.
func Build(ctx context.Context, generator string, s Spec) (Generator, error) {
	r, ok := lookup(generator)
	if !ok {
		known := All()
		slices.Sort(known)
		return nil, fmt.Errorf("unknown generator %q (choose one of %s)", generator, strings.Join(known, ", "))
	}
	s.Options = s.Options.WithDefaults(generator)
	return r.factory(ctx, s)
}

// builtin is a generator of this package: an algorithm of the engine, which does the rest
// (evaluation, caching, saving, events).
type builtin struct {
	Descriptor
	// algorithm makes the algorithm on an engine whose options have their defaults.
	algorithm func(e *engine) (algorithm, error)
	// operable: its children are made by the engine's brood, so an Operator can make some of
	// them (NewWithOperator).
	operable bool
}

// builtins are the generators of this package, in their registration order (which is their
// order in listings and their rank in the report's figures). A new algorithm of the engine is
// one entry here (and its defaults in Options.WithDefaults).
var builtins = []builtin{
	{Descriptor{Name: "random"}, func(e *engine) (algorithm, error) { return &randomSearch{e}, nil }, false},
	{Descriptor{Name: "es"}, func(e *engine) (algorithm, error) {
		if e.opts.Lambda < 1 {
			return nil, fmt.Errorf("lambda must be at least 1, got %d", e.opts.Lambda)
		}
		return &evolutionStrategy{e}, nil
	}, false},
	{Descriptor{Name: "ga"}, func(e *engine) (algorithm, error) {
		if e.opts.Tournament < 1 || e.opts.Elitism < 0 || e.opts.Elitism > 1 {
			return nil, fmt.Errorf("tournament must be >= 1 and elitism in [0, 1]")
		}
		return &geneticAlgorithm{e}, nil
	}, true},
	{Descriptor{Name: "mapelites", UsesAxes: true}, func(e *engine) (algorithm, error) { return newMapElites(e) }, true},
	{Descriptor{Name: "constructive", Constructive: true}, func(e *engine) (algorithm, error) {
		build, err := constructorFor(e.p, e.opts.Problem)
		if err != nil {
			return nil, err
		}
		return &constructive{engine: e, build: build}, nil
	}, false},
}

// builtinNamed returns the built-in generator of that name.
func builtinNamed(generator string) (builtin, bool) {
	for _, b := range builtins {
		if b.Name == generator {
			return b, true
		}
	}
	return builtin{}, false
}

// isBuiltin tells whether generator is one of this package's.
func isBuiltin(generator string) bool {
	_, ok := builtinNamed(generator)
	return ok
}

func init() {
	for i, b := range builtins {
		d := b.Descriptor
		if d.Color == nil {
			d.Color = Palette[i%len(Palette)]
		}
		name := d.Name
		RegisterGenerator(d, func(_ context.Context, s Spec) (Generator, error) {
			g, err := newEngine(s.Problem, name, s.Options)
			if err != nil {
				return nil, err
			}
			g.(*engine).share(s.Shared)
			return g, nil
		})
	}
}
