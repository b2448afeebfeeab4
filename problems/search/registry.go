package search

import (
	"context"
	"encoding/json"
	"fmt"
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

type registration struct {
	name    string
	factory Factory
	runtime bool
}

var registry struct {
	sync.RWMutex
	list []registration
}

// Register makes a generator known by name, as problems register themselves: the built-in
// generators register in this package, others from theirs (the LLM generator from pcgwb/llm),
// so a runner can build any of them by name. Registering a name twice panics.
func Register(name string, f Factory) { register(name, f, false) }

// RegisterWithRuntime registers a generator that needs Spec.Runtime to run (an LLM client).
// It is listed by All, not by Generators.
func RegisterWithRuntime(name string, f Factory) { register(name, f, true) }

func register(name string, f Factory, runtime bool) {
	registry.Lock()
	defer registry.Unlock()
	if name == "" || f == nil {
		panic("search: Register with an empty name or nil factory")
	}
	for _, r := range registry.list {
		if r.name == name {
			panic("search: generator " + name + " registered twice")
		}
	}
	registry.list = append(registry.list, registration{name, f, runtime})
}

func lookup(name string) (registration, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, r := range registry.list {
		if r.name == name {
			return r, true
		}
	}
	return registration{}, false
}

// Generators lists the generators that run with nothing but their configuration, in
// registration order (the built-in ones first: random, es, ga, mapelites, constructive).
func Generators() []string { return names(false) }

// All lists every registered generator, those needing a runtime (llm) included.
func All() []string { return names(true) }

// NeedsRuntime tells whether the named generator needs Spec.Runtime.
func NeedsRuntime(name string) bool {
	r, ok := lookup(name)
	return ok && r.runtime
}

func names(all bool) []string {
	registry.RLock()
	defer registry.RUnlock()
	var out []string
	for _, r := range registry.list {
		if all || !r.runtime {
			out = append(out, r.name)
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

// builtins are the generators of this package.
var builtins = []string{"random", "es", "ga", "mapelites", "constructive"}

func init() {
	for _, name := range builtins {
		Register(name, func(_ context.Context, s Spec) (Generator, error) {
			g, err := newEngine(s.Problem, name, s.Options)
			if err != nil {
				return nil, err
			}
			g.(*engine).share(s.Shared)
			return g, nil
		})
	}
}
