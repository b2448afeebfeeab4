package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/safeio"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// EvolveSummaryFile sums an evolution run's model work (EvolveSummary).
const EvolveSummaryFile = SummaryFile

var (
	_ experiment.FolderUser    = (*Evolver)(nil)
	_ experiment.EventRecorder = (*Evolver)(nil)
)

// failedDir, inside a response cache, remembers the requests that failed after every retry, so
// an offline replay makes the same children fall back (online, a failed request is always
// asked again).
const failedDir = "failed"

func init() {
	// Colours: the report's palette after the built-in five, as they always were drawn.
	search.RegisterGenerator(search.Descriptor{Name: GAName, NeedsRuntime: true, AsksModel: true,
		Color: search.Palette[5]}, evolveFactory(evolveBases[GAName], GAName))
	search.RegisterGenerator(search.Descriptor{Name: MapElitesName, NeedsRuntime: true, AsksModel: true, UsesAxes: true,
		Color: search.Palette[6]}, evolveFactory(evolveBases[MapElitesName], MapElitesName))
}

// evolveFactory is the registry's factory of an evolution generator: the run's llm section
// gives the operator's settings, the runtime the client.
func evolveFactory(base, name string) search.Factory {
	return func(ctx context.Context, s search.Spec) (search.Generator, error) {
		if len(s.Settings) == 0 {
			return nil, fmt.Errorf("%s: the configuration has no llm section", name)
		}
		var sec EvolveSettings
		if err := json.Unmarshal(s.Settings, &sec); err != nil {
			return nil, fmt.Errorf("llm section: %w", err)
		}
		if !(sec.Rate >= 0 && sec.Rate <= 1) || sec.MaxRepairs < 0 {
			return nil, fmt.Errorf("%s: llm_rate must be in [0, 1] and max_repairs >= 0", name)
		}
		if s.Options.Problem == "" {
			return nil, fmt.Errorf("%s: no problem name", name)
		}
		prompt, err := Templates{Dir: sec.PromptDir}.LoadEvolve(s.Options.Problem, sec.Template)
		if err != nil {
			return nil, err
		}
		if sec.TemplateHash != "" && prompt.Hash != sec.TemplateHash {
			return nil, &TemplateChangedError{Name: prompt.Name, Origin: prompt.Origin, Recorded: sec.TemplateHash, Current: prompt.Hash}
		}
		opts := s.Options.WithDefaults(base)
		fitName, fit, err := search.ParseFitness(opts.Fitness)
		if err != nil {
			return nil, err
		}
		opts.Fitness = fitName
		op := &evolveOp{p: s.Problem, prompt: prompt, base: NewPromptData(opts.Problem, s.Problem, prompt.Base.Legend),
			opts: opts, fit: fit, rate: sec.Rate, repairs: sec.MaxRepairs}
		eng, err := search.NewWithOperator(s.Problem, base, name, opts, op)
		if err != nil {
			return nil, err
		}
		if s.Runtime == nil {
			return nil, search.ErrNeedsRuntime
		}
		c, ok := s.Runtime.(*Client)
		if !ok || c == nil {
			return nil, fmt.Errorf("%s: the runtime is a %T, not an *llm.Client", name, s.Runtime)
		}
		if err := checkSettings(c, sec.Settings, name); err != nil {
			return nil, err
		}
		op.client = c
		return &Evolver{Generator: eng, op: op}, nil
	}
}

// EvolveConfig describes an evolution run (generator GAName or MapElitesName) of opts asked
// through c: the options with the search's defaults filled in, and the llm section with the
// client's recordable settings and the hash of the templates found now.
func EvolveConfig(c *Client, generator string, opts search.Options, es EvolveSettings, generations int) (experiment.Config, error) {
	base, ok := evolveBases[generator]
	if !ok {
		return experiment.Config{}, fmt.Errorf("%q is not an LLM evolution generator (%s, %s)", generator, GAName, MapElitesName)
	}
	if c == nil {
		return experiment.Config{}, errors.New("llm evolution: no client")
	}
	prompt, err := Templates{Dir: es.PromptDir}.LoadEvolve(opts.Problem, es.Template)
	if err != nil {
		return experiment.Config{}, err
	}
	es.Settings, es.TemplateHash = c.Settings(), prompt.Hash
	section, err := json.Marshal(es)
	if err != nil {
		return experiment.Config{}, err
	}
	return experiment.Config{Format: experiment.Format, Generator: generator, Generations: generations,
		Options: opts.WithDefaults(base), Settings: section}, nil
}

// StartEvolve makes (or reopens, when it holds the same run) the run folder dir for cfg
// (EvolveConfig) and runs it to its end with the one run loop; an unfinished run continues
// from its checkpoint and the cache replays what was received since. prepare, when set, sees
// the generator first.
func StartEvolve(ctx context.Context, dir string, c *Client, cfg experiment.Config, prepare func(*Evolver), onEvent func(search.Event)) (*experiment.Final, error) {
	return startFolder(dir, cfg, func(run *experiment.Run) (*experiment.Final, error) {
		return ContinueEvolve(ctx, run, c, prepare, onEvent)
	})
}

// ContinueEvolve runs the evolution run folder run to its end with client c.
func ContinueEvolve(ctx context.Context, run *experiment.Run, c *Client, prepare func(*Evolver), onEvent func(search.Event)) (*experiment.Final, error) {
	return continueFolder(ctx, run, c, "an LLM evolution run", prepare, onEvent)
}

// ReadEvolveSettings reads the llm section of an evolution run folder's config.json.
func ReadEvolveSettings(cfg experiment.Config) (EvolveSettings, error) {
	var es EvolveSettings
	if !IsEvolve(cfg.Generator) {
		return es, fmt.Errorf("a %q run, not an LLM evolution run", cfg.Generator)
	}
	if err := json.Unmarshal(cfg.Settings, &es); err != nil {
		return es, fmt.Errorf("llm section: %w", err)
	}
	return es, nil
}

// UseFolder opens the run's exchange and usage logs (append-only across sessions) and records
// the session's response cache (CacheFile).
func (g *Evolver) UseFolder(f *experiment.Folder) error {
	if err := recordCache(f, g.op.client); err != nil {
		return err
	}
	// Replies an earlier session could not cache (a full disk) are written again from
	// replies.jsonl, so an --offline replay finds them.
	_, _ = refillCache(f.Dir(), g.op.client)
	usage, err := openLogs(f, &g.op.log)
	if err != nil {
		return err
	}
	g.op.usage = usage
	return nil
}

// EvolveSummary is an evolution run's llm.json.
type EvolveSummary struct {
	Stats EvolveStats `json:"stats"`
	// Totals sum every session's usage log: what was asked and paid, cache hits included.
	Totals   Totals  `json:"requests"`
	Template string  `json:"template"`
	Origin   string  `json:"template_origin"`
	Elapsed  float64 `json:"elapsed_s"`
}

// FinishFolder writes llm.json.
func (g *Evolver) FinishFolder(f *experiment.Folder, last search.Event) error {
	totals, err := closeLogs(f, &g.op.log, g.op.usage)
	if err != nil {
		return err
	}
	_, _ = refillCache(f.Dir(), g.op.client) // this session's failed cache writes, best effort
	return writeSummary(f, EvolveSummary{Stats: g.op.stats, Totals: totals, Template: g.op.prompt.Name, Origin: g.op.prompt.Origin, Elapsed: last.Elapsed})
}

// failure decides what a failed request means for its child: a request error after the
// client's retries that a retry could have cured (a timeout, 429, a server error) falls back
// and is remembered in the cache (a refused request, such as a wrong key, stops the run); offline, a miss that was
// remembered as failed falls back the same way. Anything else (cancellation, an offline miss
// never asked) is an error of the generation. It returns the failure's message.
func (o *evolveOp) failure(req Request, err error) (string, bool) {
	dir := o.client.cfg.CacheDir
	key := o.client.canonical(req).key()
	path := filepath.Join(dir, failedDir, key[:2], key+".json")
	var re *RequestError
	switch {
	case errors.As(err, &re) && retryable(re.Err):
		if dir != "" {
			rec, _ := json.Marshal(map[string]string{"key": key, "error": re.Error()})
			// Losing the marker only costs an offline replay of this run.
			_ = os.MkdirAll(filepath.Dir(path), 0o755)
			_ = atomicfile.Write(path, append(rec, '\n'), 0o644)
		}
		return re.Error(), true
	case errors.Is(err, ErrOfflineMiss) && dir != "":
		data, rerr := safeio.ReadFile(path, 1<<16)
		if rerr != nil {
			return "", false
		}
		var rec struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(data, &rec) != nil {
			return "", false
		}
		return rec.Error, true
	}
	return "", false
}
