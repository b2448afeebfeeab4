package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"pcgwb/problems"
	"pcgwb/problems/search"
)

// The LLM-guided evolution generators: the GA and MAP-Elites of pcgwb/problems/search, with a
// language model as the mutation and crossover operator for a share (EvolveSettings.Rate) of
// the children.
const (
	GAName        = "llm-ga"
	MapElitesName = "llm-mapelites"
	// DefaultEvolveRate is the share of children asked from the model unless told.
	DefaultEvolveRate = 0.5
)

// evolveBases maps each evolution generator to the search it drives.
var evolveBases = map[string]string{GAName: "ga", MapElitesName: "mapelites"}

// IsEvolve tells whether generator is one of the LLM-guided evolution generators.
func IsEvolve(generator string) bool { _, ok := evolveBases[generator]; return ok }

// EvolveSettings are the "llm" section of an llm-ga or llm-mapelites run's config.json: the
// endpoint's recordable settings and the operator's.
type EvolveSettings struct {
	Settings
	// Rate is the probability that a child is asked from the model (else random operators).
	Rate float64 `json:"llm_rate"`
	// MaxRepairs bounds the re-asks after an invalid answer, per child.
	MaxRepairs int `json:"max_repairs"`
	// Template names the problem template whose format and legend the prompts use ("" for
	// the problem's own); PromptDir is searched before the embedded templates.
	Template  string `json:"template,omitempty"`
	PromptDir string `json:"prompt_dir,omitempty"`
	// TemplateHash identifies the texts of every template used (EvolvePrompt.Hash).
	TemplateHash string `json:"template_sha256,omitempty"`
}

// EvolveStats count the model's work, cumulated over the run.
type EvolveStats struct {
	// Asked children were asked from the model; Valid ones got a usable level (Repaired of
	// them after a re-ask); Fallbacks were made by the random operators instead (an invalid
	// answer after the re-asks, or a failed request).
	Asked     int `json:"asked"`
	Valid     int `json:"valid"`
	Repaired  int `json:"repaired"`
	Fallbacks int `json:"fallbacks"`
	// Failed counts the requests that failed after the client's retries (a timeout, a server
	// error); their children fell back.
	Failed int `json:"failed"`
	// Calls counts the model calls (every reply, cached ones included, and every failed
	// request): the budget axis of a comparison. Cached is the part answered by the cache.
	Calls   int `json:"calls"`
	Cached  int `json:"cached"`
	Repairs int `json:"repairs"`
	// Tokens as the server reported them for every reply (cached replies count what they
	// cost when received, so a replay has the same budget); what was paid is in usage.jsonl.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

func (s *EvolveStats) add(o EvolveStats) {
	s.Asked += o.Asked
	s.Valid += o.Valid
	s.Repaired += o.Repaired
	s.Fallbacks += o.Fallbacks
	s.Failed += o.Failed
	s.Calls += o.Calls
	s.Cached += o.Cached
	s.Repairs += o.Repairs
	s.PromptTokens += o.PromptTokens
	s.CompletionTokens += o.CompletionTokens
}

// EvolveEventLine is one line of an evolution run's events.jsonl: the common event, and the
// model's counts so far under "llm" (readers of search.Event ignore the key).
type EvolveEventLine struct {
	search.Event
	LLM EvolveStats `json:"llm"`
}

// Evolver is an llm-ga or llm-mapelites generator: the search's engine with the model as
// operator. It adds the model's counts to the checkpoint, the events and the run folder.
type Evolver struct {
	search.Generator
	op *evolveOp
}

var _ search.Generator = (*Evolver)(nil)

// Stats are the model's counts so far.
func (g *Evolver) Stats() EvolveStats { return g.op.stats }

// Prompt is the prompt set in use.
func (g *Evolver) Prompt() *EvolvePrompt { return g.op.prompt }

// SetOnReply makes the generator report every reply (from several goroutines at once); Item
// is the child's index in its generation.
func (g *Evolver) SetOnReply(f func(ReplyEvent)) { g.op.onReply = f }

// SetExchangeLog makes the generator write every exchange to w as a JSON line (EvolveExchange).
func (g *Evolver) SetExchangeLog(w io.Writer) { g.op.log.w = w }

func (g *Evolver) Reset(ctx context.Context) error {
	g.op.stats = EvolveStats{}
	return g.Generator.Reset(ctx)
}

// Step runs one generation; a failed one leaves the counts as they were.
func (g *Evolver) Step(ctx context.Context) error {
	saved := g.op.stats
	if err := g.Generator.Step(ctx); err != nil {
		g.op.stats = saved
		return err
	}
	return g.op.log.Err()
}

// Save adds the model's counts to the engine's state.
func (g *Evolver) Save() (*search.State, error) {
	st, err := g.Generator.Save()
	if err != nil {
		return nil, err
	}
	if st.Extra, err = json.Marshal(g.op.stats); err != nil {
		return nil, err
	}
	return st, nil
}

// Load restores a saved state and the model's counts.
func (g *Evolver) Load(ctx context.Context, s *search.State) error {
	var stats EvolveStats
	if s != nil && len(s.Extra) > 0 {
		if err := json.Unmarshal(s.Extra, &stats); err != nil {
			return fmt.Errorf("state.extra: %w", err)
		}
	}
	if err := g.Generator.Load(ctx, s); err != nil {
		return err
	}
	g.op.stats = stats
	return nil
}

// EventRecord is an events.jsonl line: the common event and the model's counts.
func (g *Evolver) EventRecord(ev search.Event) any {
	return EvolveEventLine{Event: ev, LLM: g.op.stats}
}

// evolveOp is the model as a search.Operator.
type evolveOp struct {
	p       problems.Problem
	client  *Client
	prompt  *EvolvePrompt
	base    *PromptData
	opts    search.Options
	fit     search.FitnessFunc
	rate    float64
	repairs int
	stats   EvolveStats
	usage   *UsageLog
	onReply func(ReplyEvent)

	// log writes every exchange (a run's replies.jsonl).
	log jsonLines
}

func (o *evolveOp) Rate() float64 { return o.rate }

// Children asks the model for every variation at once (askAll). The prompts are rendered
// before any request, so the cache keys do not depend on the order replies arrive in.
func (o *evolveOp) Children(ctx context.Context, gen int, vs []search.Variation) ([]search.Answer, error) {
	if o.client == nil {
		return nil, errors.New("llm evolution: no client")
	}
	datas := make([]*EvolveData, len(vs))
	msgs := make([][]Message, len(vs))
	for i, v := range vs {
		datas[i] = o.data(v)
		var err error
		if msgs[i], err = o.prompt.Messages(datas[i]); err != nil {
			return nil, err
		}
	}
	results, err := askAll(ctx, len(vs), func(i int, stop *atomic.Bool) outcome {
		// A child's re-asks go on once started: only a child not yet started is stopped.
		if stop.Load() {
			return outcome{err: errBatchStopped}
		}
		return o.converse(ctx, gen, vs[i], datas[i], msgs[i])
	})
	if err != nil {
		return nil, err
	}
	out := make([]search.Answer, len(vs))
	for i, r := range results {
		o.stats.add(EvolveStats{Asked: 1, Valid: b2i(r.valid), Repaired: b2i(r.repaired), Fallbacks: b2i(!r.valid),
			Failed: b2i(r.failed), Calls: r.replies + b2i(r.failed), Cached: r.cached, Repairs: r.repairs,
			PromptTokens: r.promptTokens, CompletionTokens: r.completionTokens})
		out[i] = search.Answer{Content: r.content, Origin: search.OriginModel}
		if r.repaired {
			out[i].Origin = search.OriginRepair
		}
	}
	return out, nil
}

// data describes variation v to the templates.
func (o *evolveOp) data(v search.Variation) *EvolveData {
	pd := o.base
	if o.opts.Fitness != search.FitnessQuality {
		pd = pd.WithControl(v.Parents[0].Control)
	}
	d := &EvolveData{PromptData: pd, Operator: OpMutate, Fitness: o.opts.Fitness, Archive: len(o.opts.Axes) > 0}
	for _, a := range o.opts.Axes {
		d.Axes = append(d.Axes, a.Field)
	}
	parents := v.Parents
	if v.Crossover() {
		d.Operator = OpCrossover
		if o.base.FormatContent(parents[0].Content) == o.base.FormatContent(parents[1].Content) {
			// Two equal parents (a tournament or an archive draw picked the same level twice):
			// a crossover prompt would show one level twice, so the model is asked to mutate it.
			d.Operator, parents = OpMutate, parents[:1]
		}
	}
	for _, ind := range parents {
		pa := ParentData{Text: o.base.FormatContent(ind.Content), Quality: ind.Quality, Controllability: ind.Controllability,
			Diversity: ind.Diversity, Fitness: o.fit(ind.Quality, ind.Controllability, ind.Diversity)}
		for k, f := range ind.Features {
			if k < len(o.opts.Axes) {
				pa.Features = append(pa.Features, Feature{Field: o.opts.Axes[k].Field, Value: f})
			}
		}
		if ind.Cell >= 0 && len(o.opts.Axes) > 0 {
			bins := o.opts.Axes[0].Bins
			pa.Cell = fmt.Sprintf("%d,%d", ind.Cell%bins, ind.Cell/bins)
		}
		d.Parents = append(d.Parents, pa)
	}
	return d
}

// converse holds one child's conversation: ask, check, re-ask with the error up to the
// repairs. A failed request (after the client's retries) makes the child fall back; an
// offline miss, a cancellation or a template error is returned and stops the generation.
func (o *evolveOp) converse(ctx context.Context, gen int, v search.Variation, d *EvolveData, opening []Message) outcome {
	cv := &conversation{p: o.p, client: o.client, usage: o.usage, legend: o.prompt.Base.Legend,
		generation: gen, item: v.Index, sample: gen*o.opts.PopSize + v.Index, noun: "child",
		errPrefix: fmt.Sprintf("generation %d child %d", gen, v.Index),
		control:   v.Parents[0].Control, opening: opening, repairs: o.repairs,
		repair:    func(reply string, err error) (string, error) { return o.prompt.Repair(d, reply, err) },
		onFailure: o.failure,
		record: func(ex Exchange, fallback bool) {
			o.log.write(EvolveExchange{Exchange: ex, Operator: d.Operator, Fallback: fallback})
		},
		onReply: o.onReply,
	}
	return cv.run(ctx)
}

// EvolveExchange is one line of an evolution run's replies.jsonl.
type EvolveExchange struct {
	Exchange
	// Operator is "mutate" or "crossover"; Fallback is set on the last exchange of a child
	// the random operators made instead.
	Operator string `json:"operator"`
	Fallback bool   `json:"fallback,omitempty"`
}
