package search

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"pcgwb/problems"
)

// Generator is the contract every generator honours. Reset starts a run (generation 0: the
// first population, evaluated); Step runs one more generation. A Step that fails (for example
// because ctx was cancelled) leaves the generator as it was before the Step.
type Generator interface {
	Name() string
	Reset(ctx context.Context) error
	Step(ctx context.Context) error
	// Generation is 0 after Reset and counts the Steps since.
	Generation() int
	// Evaluations counts the info computations so far (cached contents are not counted again).
	Evaluations() int
	// Best is the fitness of the best individual, the reference's best().
	Best() float64
	// Population is the current population (the archive's elites for MAP-Elites), best first.
	// The slice and the individuals belong to the generator: read them, do not change them.
	Population() []*Individual
	// Fitness is the generator's fitness of an evaluated individual.
	Fitness(ind *Individual) float64
	// Event summarises the current population (Elapsed is left to the caller).
	Event() Event
	// Save captures the complete state, random source included.
	Save() (*State, error)
	// Load restores a saved state (infos are recomputed from the contents).
	Load(ctx context.Context, s *State) error
}

// Options are a generator's parameters; zero values take the paper's settings. The JSON keys
// are the reference's keyword arguments (its spelling included: "tournment_size",
// "elitism_perct"), so a recorded configuration maps onto the experiments repository's run.py.
type Options struct {
	// Problem is the registered problem name (the constructive generator needs it).
	Problem string `json:"problem,omitempty"`
	Fitness string `json:"fitness"`
	Seed    uint64 `json:"seed"`
	// PopSize is the population (μ for ES, the batch per generation for MAP-Elites); 100.
	PopSize int `json:"pop_size"`
	// Lambda is the ES offspring count; PopSize (the paper: μ = λ = 100).
	Lambda int `json:"lambda_size,omitempty"`
	// MutationRate is the probability that a leaf is replaced by a fresh sample's; 0.05.
	MutationRate float64 `json:"mut_rate"`
	// CrossoverRate is the GA's (and MAP-Elites') probability of a uniform crossover; 0.5.
	CrossoverRate float64 `json:"cross_rate,omitempty"`
	// Tournament is the GA's tournament size; 7.
	Tournament int `json:"tournment_size,omitempty"`
	// Elitism is the GA's fraction of elites kept (rounded up); 0.1.
	Elitism float64 `json:"elitism_perct,omitempty"`
	// Axes are MAP-Elites' two feature dimensions.
	Axes []Axis `json:"axes,omitempty"`
	// Diversity is the set-diversity algorithm behind the individuals' diversity (and QTD's
	// diversity term): "" is the reference's current one, "2025-01" the paper's
	// (problems.DiversityAlgorithm). "current" is stored as "", so configurations made before
	// the choice existed read as what they were.
	Diversity string `json:"diversity,omitempty"`
}

// WithDefaults fills the paper's settings into zero fields and the settings the generator
// ignores with zero, so that a recorded configuration says only what matters.
//
// Generators registered from elsewhere get the fitness and population defaults only and keep
// the other options as given.
func (o Options) WithDefaults(generator string) Options {
	if o.Fitness == "" {
		o.Fitness = FitnessQuality
	}
	if o.PopSize == 0 {
		o.PopSize = 100
	}
	if o.Diversity == string(problems.DiversityCurrent) {
		o.Diversity = ""
	}
	if !isBuiltin(generator) {
		return o
	}
	if o.MutationRate == 0 {
		o.MutationRate = 0.05
	}
	switch generator {
	case "es":
		if o.Lambda == 0 {
			o.Lambda = o.PopSize // μ = λ, as in the paper
		}
	case "ga":
		if o.CrossoverRate == 0 {
			o.CrossoverRate = 0.5
		}
		if o.Tournament == 0 {
			o.Tournament = 7
		}
		if o.Elitism == 0 {
			o.Elitism = 0.1
		}
	case "mapelites":
		if o.CrossoverRate == 0 {
			o.CrossoverRate = 0.5
		}
	}
	if generator != "es" {
		o.Lambda = 0
	}
	if generator != "ga" {
		o.Tournament, o.Elitism = 0, 0
	}
	if generator != "ga" && generator != "mapelites" {
		o.CrossoverRate = 0
	}
	if generator == "random" || generator == "constructive" {
		o.MutationRate = 0
	}
	if b, _ := builtinNamed(generator); !b.UsesAxes {
		o.Axes = nil
	}
	return o
}

// NewSource is the seeded source of a run: PCG, whose state MarshalBinary captures.
func NewSource(seed uint64) *rand.PCG { return problems.NewSource(seed) }

// newEngine makes a built-in generator by name for problem p (opts with defaults filled in).
func newEngine(p problems.Problem, generator string, opts Options) (Generator, error) {
	name, fit, err := ParseFitness(opts.Fitness)
	if err != nil {
		return nil, err
	}
	opts.Fitness = name
	if opts.PopSize < 1 {
		return nil, fmt.Errorf("population size must be at least 1, got %d", opts.PopSize)
	}
	if opts.MutationRate < 0 || opts.MutationRate > 1 || opts.CrossoverRate < 0 || opts.CrossoverRate > 1 {
		return nil, fmt.Errorf("mutation and crossover rates must be in [0, 1]")
	}
	alg, err := problems.ParseDiversityAlgorithm(opts.Diversity)
	if err != nil {
		return nil, err
	}
	e := &engine{name: generator, p: p, opts: opts, fit: fit, eval: newEvaluator(p, nil)}
	e.eval.diversity = alg
	e.reseed()
	b, ok := builtinNamed(generator)
	if !ok {
		return nil, fmt.Errorf("unknown generator %q", generator)
	}
	if e.alg, err = b.algorithm(e); err != nil {
		return nil, err
	}
	return e, nil
}

// algorithm is what differs between generators; engine does the rest.
type algorithm interface {
	init(ctx context.Context) error
	step(ctx context.Context) error
}

// archived is implemented by algorithms with an archive to rebuild after Load and to report.
type archived interface {
	restore(pop []*Individual) error
	view() *ArchiveView
}

type engine struct {
	name       string
	p          problems.Problem
	opts       Options
	fit        FitnessFunc
	src        *rand.PCG
	rng        *rand.Rand
	eval       *evaluator
	alg        algorithm
	op         Operator // nil for the built-in generators (operators.go)
	pop        []*Individual
	generation int
	started    bool
	shared     *sharedView // nil: the run computes alone
}

// share makes the run use c (nil: compute alone), keyed by the problem's registered name
// (Options.Problem; a run without one computes alone).
func (e *engine) share(c *SharedCache) {
	e.shared = newSharedView(c, e.opts.Problem, e.p)
	e.eval = newEvaluator(e.p, e.shared)
	e.eval.diversity = e.diversityAlgorithm()
}

// diversityAlgorithm is the run's set-diversity algorithm (checked by newEngine).
func (e *engine) diversityAlgorithm() problems.DiversityAlgorithm {
	alg, _ := problems.ParseDiversityAlgorithm(e.opts.Diversity)
	return alg
}

func (e *engine) reseed() {
	e.src = NewSource(e.opts.Seed)
	e.rng = rand.New(e.src)
}

func (e *engine) Name() string     { return e.name }
func (e *engine) Options() Options { return e.opts }
func (e *engine) Generation() int  { return e.generation }
func (e *engine) Evaluations() int { return e.eval.computed }

func (e *engine) Population() []*Individual { return e.pop }

func (e *engine) Fitness(ind *Individual) float64 {
	return e.fit(ind.Quality, ind.Controllability, ind.Diversity)
}

func (e *engine) Best() float64 {
	if len(e.pop) == 0 {
		return math.Inf(-1)
	}
	return e.Fitness(e.pop[0])
}

func (e *engine) Reset(ctx context.Context) error {
	e.reseed()
	e.eval = newEvaluator(e.p, e.shared)
	e.eval.diversity = e.diversityAlgorithm()
	e.pop, e.generation, e.started = nil, 0, false
	if err := e.alg.init(ctx); err != nil {
		return err
	}
	if e.op != nil {
		for _, ind := range e.pop {
			ind.Origin = OriginInitial
		}
	}
	e.started = true
	e.eval.keep(e.pop)
	return nil
}

func (e *engine) Step(ctx context.Context) error {
	if !e.started {
		return fmt.Errorf("%s: Step before Reset", e.name)
	}
	saved, err := e.src.MarshalBinary()
	if err != nil {
		return err
	}
	before := snapshot(e.pop)
	computed := e.eval.computed
	if err := e.alg.step(ctx); err != nil {
		// Put back what the failed step consumed or changed, so the generator can carry on.
		_ = e.src.UnmarshalBinary(saved)
		before.restore()
		e.eval.computed = computed
		e.eval.keep(e.pop) // forget infos of the abandoned batch, or a retry would count fewer
		if a, ok := e.alg.(archived); ok {
			_ = a.restore(e.pop)
		}
		return err
	}
	e.generation++
	e.eval.keep(e.pop)
	return nil
}

// popSnapshot remembers a population and the batch-dependent values a failed evaluation might
// have overwritten.
type popSnapshot struct {
	pop  []*Individual
	vals [][3]float64
}

func snapshot(pop []*Individual) popSnapshot {
	s := popSnapshot{pop: append([]*Individual(nil), pop...), vals: make([][3]float64, len(pop))}
	for i, ind := range pop {
		s.vals[i] = [3]float64{ind.Quality, ind.Controllability, ind.Diversity}
	}
	return s
}

func (s popSnapshot) restore() {
	for i, ind := range s.pop {
		ind.Quality, ind.Controllability, ind.Diversity = s.vals[i][0], s.vals[i][1], s.vals[i][2]
	}
}

// randomIndividual is the reference's Chromosome.random: a content sample, then a control.
func (e *engine) randomIndividual() *Individual {
	c := e.p.ContentSpace().Sample(e.rng)
	k := problems.SampleControl(e.p, e.rng)
	return NewIndividual(c, k)
}

// mutate is the reference's mutation: each leaf replaced by a fresh sample's with probability
// MutationRate; the control is kept.
func (e *engine) mutate(parent *Individual) *Individual {
	fresh := e.p.ContentSpace().Sample(e.rng)
	c := swapContent(e.p, parent.Content, fresh, e.opts.MutationRate, e.rng)
	return NewIndividual(c, parent.Control)
}

// crossover is the reference's uniform crossover; the child takes one parent's control.
func (e *engine) crossover(a, b *Individual) *Individual {
	c := swapContent(e.p, a.Content, b.Content, 0.5, e.rng)
	k := [2]problems.Control{a.Control, b.Control}[e.rng.IntN(2)]
	return NewIndividual(c, k)
}

// randomBatch draws n new individuals.
func (e *engine) randomBatch(n int) []*Individual {
	out := make([]*Individual, n)
	for i := range out {
		out[i] = e.randomIndividual()
	}
	return out
}

// State is everything needed to continue a run: the population with its batch-dependent
// values, the counters and the random source.
type State struct {
	Generator   string            `json:"generator"`
	Options     Options           `json:"options"`
	Generation  int               `json:"generation"`
	Evaluations int               `json:"evaluations"`
	RNG         []byte            `json:"rng"`
	Population  []SavedIndividual `json:"population"`
	// Extra is a generator's own state beyond these (the LLM generator's item counts).
	Extra json.RawMessage `json:"extra,omitempty"`
}

// SavedIndividual is an individual as saved: the info is left out (it is recomputed on Load,
// deterministically), the diversity is kept because it depends on the batch it came from.
type SavedIndividual struct {
	Content         problems.Content `json:"content"`
	Control         problems.Control `json:"control"`
	Quality         float64          `json:"quality"`
	Diversity       float64          `json:"diversity"`
	Controllability float64          `json:"controlability"`
	Cell            *int             `json:"cell,omitempty"`
	// Origin and Born are kept where the run records them (problems.Scored.Origin).
	Origin string `json:"origin,omitempty"`
	Born   int    `json:"born,omitempty"`
}

// Saved is the individual as a checkpoint keeps it.
func (ind *Individual) Saved() SavedIndividual {
	si := SavedIndividual{Content: ind.Content, Control: ind.Control, Quality: ind.Quality, Diversity: ind.Diversity, Controllability: ind.Controllability,
		Origin: ind.Origin, Born: ind.Born}
	if ind.Cell >= 0 {
		cell := ind.Cell
		si.Cell = &cell
	}
	return si
}

// Restore is the saved individual as one of problem p, its info not yet attached: content and
// control go back through p's spaces, since JSON gave their numbers back as float64.
func (si SavedIndividual) Restore(p problems.Problem) (*Individual, error) {
	c, err := p.ContentSpace().Normalize(si.Content, "content")
	if err != nil {
		return nil, err
	}
	k, err := p.ControlSpace().Normalize(si.Control, "control")
	if err != nil {
		return nil, err
	}
	ind := NewIndividual(c, k)
	ind.Quality, ind.Diversity, ind.Controllability = si.Quality, si.Diversity, si.Controllability
	ind.Origin, ind.Born = si.Origin, si.Born
	if si.Cell != nil {
		ind.Cell = *si.Cell
	}
	return ind, nil
}

func (e *engine) Save() (*State, error) {
	if !e.started {
		return nil, fmt.Errorf("%s: Save before Reset", e.name)
	}
	rng, err := e.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := &State{Generator: e.name, Options: e.opts, Generation: e.generation, Evaluations: e.eval.computed, RNG: rng}
	for _, ind := range e.pop {
		s.Population = append(s.Population, ind.Saved())
	}
	return s, nil
}

func (e *engine) Load(ctx context.Context, s *State) error {
	if s == nil {
		return fmt.Errorf("state: missing")
	}
	if len(s.Population) == 0 {
		return fmt.Errorf("state.population: empty, a %s run always has a population", e.name)
	}
	if s.Generator != e.name {
		return fmt.Errorf("the state is of generator %q, not %q", s.Generator, e.name)
	}
	opts := s.Options.WithDefaults(e.name)
	if !sameOptions(opts, e.opts) {
		return fmt.Errorf("the state was saved with other options")
	}
	pop := make([]*Individual, len(s.Population))
	for i, si := range s.Population {
		ind, err := si.Restore(e.p)
		if err != nil {
			return fmt.Errorf("state.population[%d]: %w", i, err)
		}
		pop[i] = ind
	}
	ev := newEvaluator(e.p, e.shared)
	ev.diversity = e.diversityAlgorithm()
	if err := ev.attachInfos(ctx, pop); err != nil {
		return err
	}
	src := NewSource(0)
	if err := src.UnmarshalBinary(s.RNG); err != nil {
		return fmt.Errorf("random state: %w", err)
	}
	ev.computed = s.Evaluations
	e.src, e.rng = src, rand.New(src)
	e.eval, e.pop, e.generation, e.started = ev, pop, s.Generation, true
	if a, ok := e.alg.(archived); ok {
		if err := a.restore(pop); err != nil {
			return err
		}
	}
	return nil
}

func sameOptions(a, b Options) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// sortPop orders the population best first (stable).
func (e *engine) sortPop(pop []*Individual) { SortByFitness(pop, e.fit) }
