package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"sync/atomic"

	"pcgwb/problems"
	"pcgwb/problems/search"
)

// GeneratorName is the generator's name in run folders and reports.
const GeneratorName = "llm"

// Defaults the CLI and the GUI start from (the struct fields are taken literally: 0 examples
// means none, 0 repairs means no re-ask).
const (
	DefaultExamples   = 3
	DefaultMaxRepairs = 2
)

// PromptSettings are the LLM generator's settings beyond search.Options.
type PromptSettings struct {
	// Examples is k, the number of example levels in each prompt.
	Examples int `json:"examples"`
	// ExamplesFrom is a run folder or file to take the examples from (ExamplePool); empty for
	// the built-in set.
	ExamplesFrom string `json:"examples_from,omitempty"`
	// Control puts each item's control target into its prompt.
	Control bool `json:"control"`
	// MaxRepairs bounds the re-asks after an invalid reply, per item.
	MaxRepairs int `json:"max_repairs"`
	// Template names the prompt template; empty picks the problem's (see Candidates).
	Template string `json:"template,omitempty"`
	// PromptDir is a folder of templates searched before the embedded ones.
	PromptDir string `json:"prompt_dir,omitempty"`
}

// GeneratorOptions configure an LLM generator: the common generator options (problem, fitness,
// seed, population size = levels asked per generation) and the prompt settings.
type GeneratorOptions struct {
	search.Options
	PromptSettings
}

// Stats count what happened to the levels asked for.
type Stats struct {
	// Items is the number of levels asked for.
	Items int `json:"items"`
	// Valid items ended with a usable level; Invalid ones did not within the re-asks.
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
	// Replies counts every reply received (cached ones included), Cached those from the cache.
	Replies int `json:"replies"`
	Cached  int `json:"cached"`
	// Repairs counts the re-asks sent; Repaired the items that became valid after one.
	Repairs  int `json:"repairs"`
	Repaired int `json:"repaired"`
	// Tokens as the server reported them for every reply (cached replies count what they
	// cost when received, so a replay has the same budget); what was paid is in usage.jsonl.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

func (s *Stats) add(o Stats) {
	s.Items += o.Items
	s.Valid += o.Valid
	s.Invalid += o.Invalid
	s.Replies += o.Replies
	s.Cached += o.Cached
	s.Repairs += o.Repairs
	s.Repaired += o.Repaired
	s.PromptTokens += o.PromptTokens
	s.CompletionTokens += o.CompletionTokens
}

// ReplyEvent reports one parsed reply, as soon as it is in: the GUI shows the level and its
// metrics while the batch goes on. Diversity is not known yet (it is a property of the batch).
type ReplyEvent struct {
	Generation, Item int
	// Turn is 0 for the first reply, n after n re-asks.
	Turn    int
	Content problems.Content
	Control problems.Control
	Info    problems.Info
	Quality float64
	// Controllability is against the item's control target.
	Controllability float64
	// Error says why the reply was rejected ("" when valid).
	Error  string
	Cached bool
	// Key is the reply's cache key (Config.RefreshKeys asks it again).
	Key string
	// Final is set on the item's last reply (valid, or out of re-asks).
	Final bool
}

// DeltaEvent is a piece of a streamed reply.
type DeltaEvent struct {
	Item, Turn int
	// Attempt is the HTTP attempt (0 for a cached reply); when it changes, the text received
	// for this turn so far is void.
	Attempt int
	Text    string
}

// Generator asks a model for levels of a problem. It implements search.Generator: Reset asks
// for PopSize levels (generation 0); each Step asks for PopSize more, and the best PopSize of
// old and new survive, as in the paper's random search. Diversity is measured within each batch
// as for the evolutionary generators. Items whose replies stay invalid after the re-asks are
// counted (Stats) and left out, so a population can be smaller than PopSize.
type Generator struct {
	p      problems.Problem
	client *Client
	opts   GeneratorOptions
	prompt *Prompt
	base   *PromptData
	pool   []Candidate
	fit    search.FitnessFunc

	src         *rand.PCG
	rng         *rand.Rand
	pop         []*search.Individual
	generation  int
	evaluations int
	started     bool
	stats       Stats

	// OnReply, when set, is called for every reply (from several goroutines at once).
	OnReply func(ReplyEvent)
	// OnDelta, when set, streams the replies (from several goroutines at once).
	OnDelta func(DeltaEvent)

	// planned, when set, sees the first item's opening messages of generation 0 before any
	// request is sent (a run writes them to prompt.txt).
	planned func(first []Message) error
	// usage, when set, logs every request of this generator (a run's usage.jsonl).
	usage *UsageLog

	// log writes every exchange (a run's replies.jsonl).
	log jsonLines
}

var _ search.Generator = (*Generator)(nil)

// NewGenerator prepares a generator: it loads the prompt template and the example pool.
func NewGenerator(ctx context.Context, p problems.Problem, c *Client, opts GeneratorOptions) (*Generator, error) {
	if opts.Problem == "" {
		return nil, errors.New("llm generator: no problem name")
	}
	if opts.PopSize < 1 {
		return nil, fmt.Errorf("llm generator: the number of levels must be at least 1, got %d", opts.PopSize)
	}
	if opts.Examples < 0 || opts.MaxRepairs < 0 {
		return nil, errors.New("llm generator: examples and repairs must be >= 0")
	}
	if opts.Fitness == "" {
		opts.Fitness = search.FitnessQuality
	}
	name, fit, err := search.ParseFitness(opts.Fitness)
	if err != nil {
		return nil, err
	}
	opts.Fitness = name
	prompt, err := Templates{Dir: opts.PromptDir}.Load(opts.Problem, opts.Template)
	if err != nil {
		return nil, err
	}
	opts.Template = prompt.Name
	pool, err := ExamplePool(ctx, p, opts.Problem, opts.ExamplesFrom, 2*opts.Examples, opts.Seed)
	if err != nil {
		return nil, err
	}
	g := &Generator{p: p, client: c, opts: opts, prompt: prompt, base: NewPromptData(opts.Problem, p, prompt.Legend),
		pool: pool, fit: fit}
	g.reseed()
	return g, nil
}

func newRand(seed uint64) *rand.Rand { return rand.New(search.NewSource(seed)) }

func (g *Generator) reseed() {
	g.src = search.NewSource(g.opts.Seed)
	g.rng = rand.New(g.src)
}

// Options are the generator's settings, defaults resolved (Template names the one used).
func (g *Generator) Options() GeneratorOptions { return g.opts }

// Prompt is the template in use.
func (g *Generator) Prompt() *Prompt { return g.prompt }

// Stats sums the items so far.
func (g *Generator) Stats() Stats { return g.stats }

// SetExchangeLog makes the generator write every exchange (prompt, reply, verdict) to w as a
// JSON line (see Exchange).
func (g *Generator) SetExchangeLog(w io.Writer) { g.log.w = w }

func (g *Generator) Name() string     { return GeneratorName }
func (g *Generator) Generation() int  { return g.generation }
func (g *Generator) Evaluations() int { return g.evaluations }

func (g *Generator) Population() []*search.Individual { return g.pop }

func (g *Generator) Fitness(ind *search.Individual) float64 {
	return g.fit(ind.Quality, ind.Controllability, ind.Diversity)
}

func (g *Generator) Best() float64 {
	if len(g.pop) == 0 {
		return math.Inf(-1)
	}
	return g.Fitness(g.pop[0])
}

func (g *Generator) Reset(ctx context.Context) error {
	g.reseed()
	g.pop, g.generation, g.evaluations, g.stats, g.started = nil, 0, 0, Stats{}, false
	batch, err := g.batch(ctx, 0)
	if err != nil {
		return err
	}
	search.SortByFitness(batch, g.fit)
	g.pop, g.started = batch, true
	return nil
}

func (g *Generator) Step(ctx context.Context) error {
	if !g.started {
		return errors.New("llm: Step before Reset")
	}
	saved, err := g.src.MarshalBinary()
	if err != nil {
		return err
	}
	stats, evals := g.stats, g.evaluations
	batch, err := g.batch(ctx, g.generation+1)
	if err != nil {
		_ = g.src.UnmarshalBinary(saved)
		g.stats, g.evaluations = stats, evals
		return err
	}
	all := append(append([]*search.Individual(nil), g.pop...), batch...)
	search.SortByFitness(all, g.fit)
	g.pop = all[:min(g.opts.PopSize, len(all))]
	g.generation++
	return nil
}

// itemPlan is one level to ask for, fixed before any request so that the random draws (and
// so the prompts and cache keys) do not depend on the order replies arrive in.
type itemPlan struct {
	generation, index, sample int
	control                   problems.Control
	data                      *PromptData
	messages                  []Message
}

// plan draws item i's control and examples and renders its prompt.
func (g *Generator) plan(gen, i int) (*itemPlan, error) {
	control := problems.SampleControl(g.p, g.rng)
	data := g.base.WithExamples(g.pickExamples())
	if g.opts.Control {
		data = data.WithControl(control)
	}
	msgs, err := g.prompt.Messages(data)
	if err != nil {
		return nil, err
	}
	return &itemPlan{generation: gen, index: i, sample: gen*g.opts.PopSize + i, control: control, data: data, messages: msgs}, nil
}

// FirstPrompt renders the opening messages of the first level a generator with opts would
// ask for, without asking (the CLI's `llm prompt`, the GUI's preview).
func FirstPrompt(ctx context.Context, p problems.Problem, opts GeneratorOptions) ([]Message, *Prompt, error) {
	g, err := NewGenerator(ctx, p, nil, opts)
	if err != nil {
		return nil, nil, err
	}
	pl, err := g.plan(0, 0)
	if err != nil {
		return nil, nil, err
	}
	return pl.messages, g.prompt, nil
}

// batch asks for PopSize levels concurrently and evaluates the valid ones together.
func (g *Generator) batch(ctx context.Context, gen int) ([]*search.Individual, error) {
	n := g.opts.PopSize
	plans := make([]*itemPlan, n)
	for i := range plans {
		var err error
		if plans[i], err = g.plan(gen, i); err != nil {
			return nil, err
		}
	}
	if gen == 0 && g.planned != nil {
		if err := g.planned(plans[0].messages); err != nil {
			return nil, err
		}
	}
	results, err := askAll(ctx, n, func(i int, stop *atomic.Bool) outcome { return g.runItem(ctx, plans[i], stop) })
	if err != nil {
		return nil, err
	}
	if err := g.log.Err(); err != nil {
		return nil, err
	}
	var batch []*search.Individual
	var infos []problems.Info
	for i, r := range results {
		g.stats.add(Stats{Items: 1, Valid: b2i(r.valid), Invalid: b2i(!r.valid), Replies: r.replies, Cached: r.cached,
			Repairs: r.repairs, Repaired: b2i(r.repaired), PromptTokens: r.promptTokens, CompletionTokens: r.completionTokens})
		g.evaluations += r.infos
		if !r.valid {
			continue
		}
		ind := search.NewIndividual(r.content, plans[i].control)
		ind.Info = r.info
		ind.Quality = g.p.Quality(r.info)
		ind.Controllability = g.p.Controllability(r.info, ind.Control)
		batch = append(batch, ind)
		infos = append(infos, r.info)
	}
	div, err := diversities(g.p, infos, problems.DiversityAlgorithm(g.opts.Diversity))
	if err != nil {
		return nil, err
	}
	for i, d := range div {
		batch[i].Diversity = d
	}
	return batch, nil
}

func diversities(p problems.Problem, infos []problems.Info, alg problems.DiversityAlgorithm) (out []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("diversity failed: %v", r)
		}
	}()
	return problems.GreedyDiversityWith(alg, problems.DiversityMatrix(p, infos)), nil
}

// pickExamples draws k examples from the pool (twice k of the best) and shows them best first,
// so prompts vary between items without showing the worst candidates.
func (g *Generator) pickExamples() []Example {
	k := min(g.opts.Examples, len(g.pool))
	if k == 0 {
		return nil
	}
	idx := g.rng.Perm(len(g.pool))[:k]
	sort.Ints(idx)
	out := make([]Example, k)
	for i, j := range idx {
		c := g.pool[j]
		out[i] = Example{Text: g.base.FormatContent(c.Content), Quality: c.Quality, Content: c.Content}
	}
	return out
}

// runItem holds item pl's conversation: ask, check, re-ask with the error, up to MaxRepairs.
// A request error (the client's retries exhausted, offline miss, cancellation) is returned as
// err and stops the batch; an invalid reply is not an error.
func (g *Generator) runItem(ctx context.Context, pl *itemPlan, stop *atomic.Bool) outcome {
	cv := &conversation{p: g.p, client: g.client, usage: g.usage, legend: g.prompt.Legend,
		generation: pl.generation, item: pl.index, sample: pl.sample, noun: "item", errPrefix: fmt.Sprintf("item %d", pl.index),
		control: pl.control, opening: pl.messages, repairs: g.opts.MaxRepairs,
		repair:       func(reply string, err error) (string, error) { return g.prompt.Repair(pl.data, reply, err) },
		stop:         stop,
		reaskInvalid: g.client.cfg.ReaskInvalid,
		record:       func(ex Exchange, _ bool) { g.log.write(ex) },
		onReply:      g.OnReply,
	}
	if g.OnDelta != nil {
		cv.onDelta = func(turn, attempt int, text string) {
			g.OnDelta(DeltaEvent{Item: pl.index, Turn: turn, Attempt: attempt, Text: text})
		}
	}
	return cv.run(ctx)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Exchange is one line of a run's replies.jsonl: what was sent since the previous reply of the
// item (the whole opening prompt, or the re-ask), the reply and the verdict.
type Exchange struct {
	Generation int              `json:"generation"`
	Item       int              `json:"item"`
	Turn       int              `json:"turn"`
	Sample     int              `json:"sample"`
	Key        string           `json:"key"`
	Cached     bool             `json:"cached"`
	Control    problems.Control `json:"control"`
	Sent       []Message        `json:"sent"`
	Reply      string           `json:"reply"`
	Valid      bool             `json:"valid"`
	Error      string           `json:"error,omitempty"`
	Content    problems.Content `json:"content,omitempty"`
	Usage      Usage            `json:"usage"`
	// Seal is Response.Seal: the cache's HMAC of the reply, so a refill can trust it.
	Seal string `json:"seal,omitempty"`
}

// Event summarises the population like the evolutionary generators' events.
func (g *Generator) Event() search.Event {
	ev := search.Summarize(g)
	ev.ModelCalls = g.stats.Replies
	ev.Tokens = g.stats.PromptTokens + g.stats.CompletionTokens
	return ev
}

// Save captures the population, counters and random state.
func (g *Generator) Save() (*search.State, error) {
	if !g.started {
		return nil, errors.New("llm: Save before Reset")
	}
	rng, err := g.src.MarshalBinary()
	if err != nil {
		return nil, err
	}
	stats, err := json.Marshal(g.stats)
	if err != nil {
		return nil, err
	}
	s := &search.State{Generator: GeneratorName, Options: g.opts.Options, Generation: g.generation, Evaluations: g.evaluations, RNG: rng, Extra: stats}
	for _, ind := range g.pop {
		s.Population = append(s.Population, ind.Saved())
	}
	return s, nil
}

// Load restores a saved state; infos are recomputed.
func (g *Generator) Load(ctx context.Context, s *search.State) error {
	if s == nil {
		return errors.New("state: missing")
	}
	if s.Generator != GeneratorName {
		return fmt.Errorf("the state is of generator %q, not %q", s.Generator, GeneratorName)
	}
	if len(s.Population) > g.opts.PopSize {
		return fmt.Errorf("state.population: %d levels, more than the run's %d", len(s.Population), g.opts.PopSize)
	}
	var stats Stats
	if len(s.Extra) > 0 {
		if err := json.Unmarshal(s.Extra, &stats); err != nil {
			return fmt.Errorf("state.extra: %w", err)
		}
	}
	pop := make([]*search.Individual, len(s.Population))
	contents := make([]problems.Content, len(s.Population))
	for i, si := range s.Population {
		ind, err := si.Restore(g.p)
		if err != nil {
			return fmt.Errorf("state.population[%d]: %w", i, err)
		}
		contents[i], pop[i] = ind.Content, ind
	}
	infos, err := problems.Infos(ctx, g.p, contents)
	if err != nil {
		return err
	}
	for i := range pop {
		pop[i].Info = infos[i]
	}
	src := search.NewSource(0)
	if err := src.UnmarshalBinary(s.RNG); err != nil {
		return fmt.Errorf("random state: %w", err)
	}
	g.src, g.rng = src, rand.New(src)
	g.pop, g.generation, g.evaluations, g.stats, g.started = pop, s.Generation, s.Evaluations, stats, true
	return nil
}
