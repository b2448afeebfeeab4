package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pcgwb/internal/atomicfile"
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

// runFormat is experiment's run-folder format version (unexported there); a test checks that
// experiment still opens these folders.
const runFormat = 1

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

// NewRunConfig describes the run of g for generations generations.
func NewRunConfig(g *Generator, generations int) RunConfig {
	return RunConfig{
		Config: experiment.Config{Format: runFormat, Generator: GeneratorName, Generations: generations, Options: g.opts.Options},
		LLM:    RunLLM{Settings: g.client.Settings(), PromptSettings: g.opts.PromptSettings, TemplateHash: g.prompt.Hash},
	}
}

// ErrOtherRun is returned when a folder holds a different run.
var ErrOtherRun = errors.New("the folder holds another run")

// Execute runs g for generations generations (0: one batch) and writes the run folder dir.
// A folder holding the same finished run is returned as it is; a folder holding an unfinished
// run of the same config is started over (the cache makes the replay cheap); a folder holding
// another run is an error. onEvent is called after each generation is on disk.
func Execute(ctx context.Context, dir string, g *Generator, generations int, onEvent func(search.Event)) (*experiment.Final, error) {
	if generations < 0 {
		return nil, fmt.Errorf("generations must be >= 0, got %d", generations)
	}
	cfg := NewRunConfig(g, generations)
	cfgData, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	cfgData = append(cfgData, '\n')
	cfgPath := filepath.Join(dir, experiment.ConfigFile)
	old, err := os.ReadFile(cfgPath)
	switch {
	case err == nil:
		if !bytes.Equal(old, cfgData) {
			return nil, fmt.Errorf("%s: %w; choose another folder", dir, ErrOtherRun)
		}
		if f, err := experiment.ReadFinal(dir); err == nil && f.Generation >= generations {
			return f, nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// A stale final.json of an interrupted rerun must not outlive the new events.
	if err := os.Remove(filepath.Join(dir, experiment.FinalFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := atomicfile.Write(cfgPath, cfgData, 0o644); err != nil {
		return nil, err
	}
	files := map[string]*os.File{}
	for _, name := range []string{experiment.EventsFile, RepliesFile, UsageFile} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[name] = f
	}
	usage := NewUsageLog(files[UsageFile])
	ctx = WithUsageLog(ctx, usage)
	g.SetExchangeLog(files[RepliesFile])
	defer g.SetExchangeLog(nil)
	start := time.Now()

	var promptErr error
	g.planned = func(first []Message) { promptErr = writePromptFile(dir, first) }
	defer func() { g.planned = nil }()
	record := func() error {
		ev := g.Event()
		ev.Elapsed = time.Since(start).Seconds()
		line, err := json.Marshal(EventLine{Event: ev, LLM: g.Stats()})
		if err != nil {
			return err
		}
		ef := files[experiment.EventsFile]
		if _, err := ef.Write(append(line, '\n')); err != nil {
			return err
		}
		if err := ef.Sync(); err != nil {
			return err
		}
		if onEvent != nil {
			onEvent(ev)
		}
		return nil
	}
	if err := g.Reset(ctx); err != nil {
		return nil, err
	}
	if promptErr != nil {
		return nil, promptErr
	}
	if err := record(); err != nil {
		return nil, err
	}
	for g.Generation() < generations {
		if err := g.Step(ctx); err != nil {
			return nil, err
		}
		if err := record(); err != nil {
			return nil, err
		}
	}
	if err := usage.Err(); err != nil {
		return nil, fmt.Errorf("usage log: %w", err)
	}
	for _, f := range files {
		if err := f.Sync(); err != nil {
			return nil, err
		}
	}
	sum := RunSummary{Stats: g.Stats(), Totals: usage.Totals(), Template: g.prompt.Name, Origin: g.prompt.Origin,
		Legend: g.prompt.Legend, Elapsed: time.Since(start).Seconds()}
	if err := writeJSONFile(filepath.Join(dir, SummaryFile), sum); err != nil {
		return nil, err
	}
	final := makeFinal(cfg.Config, g)
	if err := writeJSONFile(filepath.Join(dir, experiment.FinalFile), final); err != nil {
		return nil, err
	}
	return final, nil
}

func makeFinal(cfg experiment.Config, g *Generator) *experiment.Final {
	ev := g.Event()
	f := &experiment.Final{Config: cfg, Generation: g.Generation(), Evaluations: g.Evaluations(), BestFitness: g.Best(),
		Size: ev.Size, Feasible: ev.Feasible, Unique: ev.Unique, Controlled: ev.Controlled,
		Population: []experiment.FinalIndividual{}}
	if len(g.pop) == 0 {
		// No valid level at all: JSON has no -Inf, and 0 is what an empty population scores.
		f.BestFitness = 0
	}
	for _, ind := range g.Population() {
		f.Population = append(f.Population, experiment.FinalIndividual{Content: ind.Content, Control: ind.Control,
			Info: ind.Info, Quality: ind.Quality, Diversity: ind.Diversity, Controllability: ind.Controllability,
			Fitness: g.Fitness(ind)})
	}
	return f
}

// writePromptFile shows the run's first prompt as the model reads it.
func writePromptFile(dir string, msgs []Message) error {
	var sb strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&sb, "=== %s\n%s\n\n", m.Role, m.Content)
	}
	return atomicfile.Write(filepath.Join(dir, PromptFile), []byte(sb.String()), 0o644)
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// ReadRunConfig reads the config.json of an LLM run folder (a folder of another generator's
// run is an error), so a run can be continued with the settings it was started with.
func ReadRunConfig(dir string) (*RunConfig, error) {
	path := filepath.Join(dir, experiment.ConfigFile)
	data, err := os.ReadFile(path)
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
	if c.Format != runFormat {
		return nil, fmt.Errorf("%s: format %d, this workbench reads format %d", path, c.Format, runFormat)
	}
	return &c, nil
}

// ConfigChanges lists the settings in which the run recorded in dir's config.json differs from
// cfg, one "key: recorded, now new" string per setting, keys dotted ("llm.model"). It returns
// none when the folder has no config.json or holds the same run; Execute refuses a folder for
// which it returns some.
func ConfigChanges(dir string, cfg RunConfig) ([]string, error) {
	old, err := os.ReadFile(filepath.Join(dir, experiment.ConfigFile))
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
