package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"pcgwb/internal/safeio"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// Files an LLM run writes next to the evolutionary runs' config.json, events.jsonl and
// final.json.
const (
	// RepliesFile holds every exchange (Exchange), in the order replies arrived.
	RepliesFile = "replies.jsonl"
	// UsageFile is the token and cost log (UsageRecord per request).
	UsageFile = "usage.jsonl"
	// SummaryFile sums the run's items, requests, tokens and cost (RunSummary).
	SummaryFile = "llm.json"
	// PromptFile is the first item's opening prompt, for reading.
	PromptFile = "prompt.txt"
)

// RunConfig is an LLM run's config.json: the evolutionary runs' fields (format, generator,
// generations, problem, fitness, seed, pop_size), which the report and the GUI read, plus an
// "llm" section with the endpoint and prompt settings. It cannot hold the API key.
type RunConfig struct {
	experiment.Config
	LLM RunLLM `json:"llm"`
}

// RunLLM is the llm section of a run's config.
type RunLLM struct {
	Settings
	PromptSettings
	// TemplateHash identifies the template text used (Prompt.Hash): an edited template is
	// another run.
	TemplateHash string `json:"template_sha256"`
}

// RunSummary is llm.json.
type RunSummary struct {
	Stats  Stats  `json:"stats"`
	Totals Totals `json:"requests"`
	// Template is the prompt template used and where it came from.
	Template string `json:"template"`
	Origin   string `json:"template_origin"`
	Legend   Legend `json:"legend,omitempty"`
	// Elapsed is the wall time in seconds.
	Elapsed float64 `json:"elapsed_s"`
}

// EventLine is one line of an LLM run's events.jsonl: the common event plus the item counts
// so far (readers of search.Event ignore the extra key).
type EventLine struct {
	search.Event
	LLM Stats `json:"llm"`
}

// NewRunConfig describes a run of opts asked through c for generations generations: the
// common configuration and the llm section (the client's recordable settings, the prompt
// settings and the hash of the template text found now). It loads the template, not the
// examples.
func NewRunConfig(c *Client, opts GeneratorOptions, generations int) (experiment.Config, error) {
	if c == nil {
		return experiment.Config{}, errors.New("llm run: no client")
	}
	if opts.Fitness == "" {
		opts.Fitness = search.FitnessQuality
	}
	fit, _, err := search.ParseFitness(opts.Fitness)
	if err != nil {
		return experiment.Config{}, err
	}
	opts.Fitness = fit
	prompt, err := Templates{Dir: opts.PromptDir}.Load(opts.Problem, opts.Template)
	if err != nil {
		return experiment.Config{}, err
	}
	opts.Template = prompt.Name
	section, err := json.Marshal(RunLLM{Settings: c.Settings(), PromptSettings: opts.PromptSettings, TemplateHash: prompt.Hash})
	if err != nil {
		return experiment.Config{}, err
	}
	return experiment.Config{Format: experiment.Format, Generator: GeneratorName, Generations: generations,
		Options: opts.Options, Settings: section}, nil
}

// StartRun makes (or reopens, when it holds the same run) the run folder dir for opts asked
// through c, and runs it to the end with the workbench's one run loop (experiment): an
// unfinished run continues from its checkpoint, and the cache replays the replies received in
// the generation that was in flight. prepare, when set, sees the generator first (to attach
// OnReply and OnDelta). A folder holding another run is an error wrapping ErrOtherRun.
func StartRun(ctx context.Context, dir string, c *Client, opts GeneratorOptions, generations int,
	prepare func(*Generator), onEvent func(search.Event)) (*experiment.Final, error) {
	if generations < 0 {
		return nil, fmt.Errorf("generations must be >= 0, got %d", generations)
	}
	cfg, err := NewRunConfig(c, opts, generations)
	if err != nil {
		return nil, err
	}
	return startFolder(dir, cfg, func(run *experiment.Run) (*experiment.Final, error) {
		return ContinueRun(ctx, run, c, prepare, onEvent)
	})
}

// ContinueRun runs the LLM run folder run to its end with client c (built from the settings
// the run recorded; see ReadRunConfig).
func ContinueRun(ctx context.Context, run *experiment.Run, c *Client, prepare func(*Generator), onEvent func(search.Event)) (*experiment.Final, error) {
	return continueFolder(ctx, run, c, "an LLM run", prepare, onEvent)
}

// ErrOtherRun is returned when a folder holds a different run.
var ErrOtherRun = errors.New("the folder holds another run")

// TemplateChangedError refuses to continue a run whose prompt template text changed since.
type TemplateChangedError struct {
	Name, Origin      string
	Recorded, Current string
}

func (e *TemplateChangedError) Error() string {
	return fmt.Sprintf("the run was made with another text of the prompt template %q than the one now found (%s): sha256 %.12s…, now %.12s…; restore the template the run used, or start a new run",
		e.Name, e.Origin, e.Recorded, e.Current)
}

// generatorColor is the llm generator's colour in figures: the project palette's teal, as
// the report's seven colours are taken (it used to wrap round to random's red).
var generatorColor = color.RGBA{0x25, 0x71, 0x79, 0xff}

func init() {
	search.RegisterGenerator(search.Descriptor{Name: GeneratorName, NeedsRuntime: true, AsksModel: true,
		Color: generatorColor}, fromSpec)
}

// fromSpec is the registry's factory: the run's llm section gives the prompt settings, the
// runtime the client (whose settings must be the recorded ones).
func fromSpec(ctx context.Context, s search.Spec) (search.Generator, error) {
	if len(s.Settings) == 0 {
		return nil, errors.New("llm generator: the configuration has no llm section")
	}
	var sec RunLLM
	if err := json.Unmarshal(s.Settings, &sec); err != nil {
		return nil, fmt.Errorf("llm section: %w", err)
	}
	opts := GeneratorOptions{Options: s.Options, PromptSettings: sec.PromptSettings}
	if opts.PopSize < 1 {
		return nil, fmt.Errorf("llm generator: the number of levels must be at least 1, got %d", opts.PopSize)
	}
	if opts.Examples < 0 || opts.MaxRepairs < 0 {
		return nil, errors.New("llm generator: examples and repairs must be >= 0")
	}
	if s.Runtime == nil {
		return nil, search.ErrNeedsRuntime
	}
	c, ok := s.Runtime.(*Client)
	if !ok || c == nil {
		return nil, fmt.Errorf("llm generator: the runtime is a %T, not an *llm.Client", s.Runtime)
	}
	if err := checkSettings(c, sec.Settings, "llm generator"); err != nil {
		return nil, err
	}
	g, err := NewGenerator(ctx, s.Problem, c, opts)
	if err != nil {
		return nil, err
	}
	if sec.TemplateHash != "" && g.prompt.Hash != sec.TemplateHash {
		return nil, &TemplateChangedError{Name: g.prompt.Name, Origin: g.prompt.Origin, Recorded: sec.TemplateHash, Current: g.prompt.Hash}
	}
	return g, nil
}

// UseFolder opens the run's exchange and usage logs (append-only: a session continuing an
// interrupted run adds to what that one recorded), records the session's response cache
// (CacheFile) and makes the first prompt go to prompt.txt.
func (g *Generator) UseFolder(f *experiment.Folder) error {
	if err := recordCache(f, g.client); err != nil {
		return err
	}
	// Replies an earlier session could not cache are written first, so that this session
	// (an --offline resume included) finds them; what still fails is reported at the end.
	_, _ = refillCache(f.Dir(), g.client)
	usage, err := openLogs(f, &g.log)
	if err != nil {
		return err
	}
	g.usage = usage
	g.planned = func(first []Message) error { return writePromptFile(f, first) }
	return nil
}

// FinishFolder writes llm.json: the item counts, and the requests, tokens and cost summed
// over every session's usage log.
func (g *Generator) FinishFolder(f *experiment.Folder, last search.Event) error {
	totals, err := closeLogs(f, &g.log, g.usage)
	if err != nil {
		return err
	}
	// A reply the cache failed to keep (in this session or an earlier one: a full disk) is
	// written again from replies.jsonl; one still missing fails the run, since an --offline
	// replay would miss it. Every answer is in the run (checkpoint, replies.jsonl): running the
	// command again, once the cache can be written, refills it without asking anything.
	if missing, err := refillCache(f.Dir(), g.client); missing > 0 {
		return fmt.Errorf("%d replies received could not be written to the response cache (%v); an --offline replay would miss them: run the same command again once the cache can be written", missing, err)
	}
	return writeSummary(f, RunSummary{Stats: g.Stats(), Totals: totals, Template: g.prompt.Name, Origin: g.prompt.Origin,
		Legend: g.prompt.Legend, Elapsed: last.Elapsed})
}

// EventRecord is an events.jsonl line: the common event and the item counts so far.
func (g *Generator) EventRecord(ev search.Event) any { return EventLine{Event: ev, LLM: g.Stats()} }

// writePromptFile shows the run's first prompt as the model reads it.
func writePromptFile(f *experiment.Folder, msgs []Message) error {
	var sb strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&sb, "=== %s\n%s\n\n", m.Role, m.Content)
	}
	return f.WriteFile(PromptFile, []byte(sb.String()))
}

// ReadRunConfig reads the config.json of an LLM run folder (a folder of another generator's
// run is an error), so a run can be continued with the settings it was started with.
func ReadRunConfig(dir string) (*RunConfig, error) {
	path := filepath.Join(dir, experiment.ConfigFile)
	data, err := safeio.ReadFile(path, 1<<20)
	if err != nil {
		return nil, err
	}
	var c RunConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.Generator != GeneratorName {
		return nil, fmt.Errorf("%s: a %q run, not an LLM run", path, c.Generator)
	}
	if c.Format != experiment.Format {
		return nil, fmt.Errorf("%s: format %d, this workbench reads format %d", path, c.Format, experiment.Format)
	}
	return &c, nil
}

// ConfigChanges lists the settings in which the run recorded in dir's config.json differs from
// cfg, one "key: recorded, now new" string per setting, keys dotted ("llm.model"). It returns
// none when the folder has no config.json or holds the same run; StartRun refuses a folder for
// which it returns some.
func ConfigChanges(dir string, cfg experiment.Config) ([]string, error) {
	old, err := safeio.ReadFile(filepath.Join(dir, experiment.ConfigFile), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	a, b := map[string]string{}, map[string]string{}
	if err := flattenJSON(old, a); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, experiment.ConfigFile), err)
	}
	if err := flattenJSON(now, b); err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] == b[k] {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s, now %s", k, orNone(a[k]), orNone(b[k])))
	}
	sort.Strings(out)
	return out, nil
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// flattenJSON maps every leaf of a JSON document to its dotted key and compact JSON value.
func flattenJSON(data []byte, into map[string]string) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			for k, x := range m {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, x)
			}
			return
		}
		b, _ := json.Marshal(v)
		into[prefix] = string(b)
	}
	walk("", v)
	return nil
}
