package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// File names inside a run folder.
const (
	ConfigFile     = "config.json"
	EventsFile     = "events.jsonl"
	CheckpointFile = "checkpoint.json"
	FinalFile      = "final.json"
)

// formatVersion is bumped when the folder layout changes incompatibly.
const formatVersion = 1

// Format is the run-folder format this workbench writes and reads (config.json's "format").
const Format = formatVersion

// Config is a run's complete recipe. The generator options are inlined (problem, fitness, seed,
// pop_size, ...), with the paper's defaults filled in.
type Config struct {
	Format      int    `json:"format"`
	Generator   string `json:"generator"`
	Generations int    `json:"generations"`
	search.Options
	// Settings is the generator's own section (the LLM generator's endpoint and prompt
	// settings, never its key), recorded as given; absent for the built-in generators.
	Settings json.RawMessage `json:"llm,omitempty"`
}

// Normalize fills the defaults and checks that the run can be made (the problem exists, the
// generator accepts the options).
func (c Config) Normalize() (Config, error) {
	c.Format = formatVersion
	if c.Problem == "" {
		return c, errors.New("no problem given")
	}
	if c.Generations < 0 {
		return c, fmt.Errorf("generations must be >= 0, got %d", c.Generations)
	}
	c.Options = c.Options.WithDefaults(c.Generator)
	if _, err := problems.ParseDiversityAlgorithm(c.Diversity); err != nil {
		return c, err
	}
	name, _, err := search.ParseFitness(c.Fitness)
	if err != nil {
		return c, err
	}
	c.Fitness = name
	p, err := problems.Make(c.Problem)
	if err != nil {
		return c, err
	}
	if _, err := search.Build(context.Background(), c.Generator, search.Spec{Problem: p, Options: c.Options, Settings: c.Settings}); err != nil && !errors.Is(err, search.ErrNeedsRuntime) {
		return c, err
	}
	return c, nil
}

func (c Config) same(o Config) bool {
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(o)
	return bytes.Equal(a, b)
}

// Final is final.json: the summary first, then the population best first. Individuals use the
// reference's chromosome keys (content, control, info, quality, diversity, controlability), so
// the reference's analysis scripts read them too.
type Final struct {
	Config      Config              `json:"config"`
	Generation  int                 `json:"generation"`
	Evaluations int                 `json:"evaluations"`
	BestFitness float64             `json:"best_fitness"`
	Size        int                 `json:"size"`
	Feasible    int                 `json:"feasible"`
	Unique      int                 `json:"unique"`
	Controlled  int                 `json:"controlled"`
	Archive     *search.ArchiveView `json:"archive,omitempty"`
	Population  []problems.Scored   `json:"population"`
}

// Run is one run folder.
type Run struct {
	Dir    string
	Config Config
}

// Create makes (or reopens) the run folder dir for cfg. An existing folder holding the same
// configuration is reopened, so creating a run twice continues it; a folder holding another
// run is an error.
func Create(dir string, cfg Config) (*Run, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	old, err := readConfig(dir)
	switch {
	case err == nil:
		if !old.same(cfg) {
			return nil, fmt.Errorf("%s holds another run (%s %s %s seed %d); choose another folder", dir, old.Problem, old.Generator, old.Fitness, old.Seed)
		}
		return &Run{Dir: dir, Config: old}, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, ConfigFile), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	return &Run{Dir: dir, Config: cfg}, nil
}

// Open reopens an existing run folder (for --resume).
func Open(dir string) (*Run, error) {
	cfg, err := readConfig(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a run folder (no %s)", dir, ConfigFile)
		}
		return nil, err
	}
	return &Run{Dir: dir, Config: cfg}, nil
}

// Status tells how far a run folder got.
type Status struct {
	Finished bool
	// Generation is the last checkpointed generation, -1 before the first.
	Generation int
}

// Status reads the folder without changing it.
func (r *Run) Status() (Status, error) {
	if _, err := os.Stat(filepath.Join(r.Dir, FinalFile)); err == nil {
		f, err := ReadFinal(r.Dir)
		if err != nil {
			return Status{}, err
		}
		if f.Generation >= r.Config.Generations {
			return Status{Finished: true, Generation: f.Generation}, nil
		}
	}
	cp, err := r.readCheckpoint()
	if errors.Is(err, fs.ErrNotExist) {
		return Status{Generation: -1}, nil
	}
	if err != nil {
		return Status{}, err
	}
	return Status{Generation: cp.Generation}, nil
}
