package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

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

// Config is a run's complete recipe. The generator options are inlined (problem, fitness, seed,
// pop_size, ...), with the paper's defaults filled in.
type Config struct {
	Format      int    `json:"format"`
	Generator   string `json:"generator"`
	Generations int    `json:"generations"`
	search.Options
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
	name, _, err := search.ParseFitness(c.Fitness)
	if err != nil {
		return c, err
	}
	c.Fitness = name
	p, err := problems.Make(c.Problem)
	if err != nil {
		return c, err
	}
	if _, err := search.New(p, c.Generator, c.Options); err != nil {
		return c, err
	}
	return c, nil
}

func (c Config) same(o Config) bool {
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(o)
	return bytes.Equal(a, b)
}

// checkpoint is what checkpoint.json holds.
type checkpoint struct {
	Generation int `json:"generation"`
	// EventsSize is the length of events.jsonl when this checkpoint was taken.
	EventsSize int64 `json:"events_size"`
	// Elapsed is the run's wall time in seconds, summed over its sessions.
	Elapsed float64       `json:"elapsed_s"`
	State   *search.State `json:"state"`
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
	Population  []FinalIndividual   `json:"population"`
}

// FinalIndividual is one individual of final.json.
type FinalIndividual struct {
	Content         problems.Content `json:"content"`
	Control         problems.Control `json:"control"`
	Info            problems.Info    `json:"info"`
	Quality         float64          `json:"quality"`
	Diversity       float64          `json:"diversity"`
	Controllability float64          `json:"controlability"`
	Fitness         float64          `json:"fitness"`
	Cell            *int             `json:"cell,omitempty"`
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

func readConfig(dir string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", filepath.Join(dir, ConfigFile), err)
	}
	if cfg.Format != formatVersion {
		return cfg, fmt.Errorf("%s: format %d, this workbench reads format %d", dir, cfg.Format, formatVersion)
	}
	return cfg, nil
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

func (r *Run) readCheckpoint() (*checkpoint, error) {
	data, err := os.ReadFile(filepath.Join(r.Dir, CheckpointFile))
	if err != nil {
		return nil, err
	}
	var cp checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("%s: %w", CheckpointFile, err)
	}
	return &cp, nil
}

// ReadFinal reads a run's final.json.
func ReadFinal(dir string) (*Final, error) {
	data, err := os.ReadFile(filepath.Join(dir, FinalFile))
	if err != nil {
		return nil, err
	}
	var f Final
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, FinalFile), err)
	}
	return &f, nil
}

// Execute runs (or continues) the run to its last generation, calling onEvent after each
// generation is safely on disk. Cancelling ctx stops it within the generation in flight; the
// folder then resumes from the last completed generation. A finished run returns at once.
func (r *Run) Execute(ctx context.Context, onEvent func(search.Event)) (*Final, error) {
	st, err := r.Status()
	if err != nil {
		return nil, err
	}
	if st.Finished {
		return ReadFinal(r.Dir)
	}
	p, err := problems.Make(r.Config.Problem)
	if err != nil {
		return nil, err
	}
	g, err := search.New(p, r.Config.Generator, r.Config.Options)
	if err != nil {
		return nil, err
	}
	eventsPath := filepath.Join(r.Dir, EventsFile)
	var prior float64
	var keep int64
	if st.Generation >= 0 {
		cp, err := r.readCheckpoint()
		if err != nil {
			return nil, err
		}
		if err := g.Load(ctx, cp.State); err != nil {
			return nil, fmt.Errorf("resuming %s: %w", r.Dir, err)
		}
		prior, keep = cp.Elapsed, cp.EventsSize
	}
	events, err := openEvents(eventsPath, keep)
	if err != nil {
		return nil, err
	}
	defer events.Close()
	start := time.Now()
	rec := recorder{run: r, events: events, size: keep, prior: prior, start: start, onEvent: onEvent}
	if st.Generation < 0 {
		if err := g.Reset(ctx); err != nil {
			return nil, err
		}
		if err := rec.record(g); err != nil {
			return nil, err
		}
	}
	for g.Generation() < r.Config.Generations {
		if err := g.Step(ctx); err != nil {
			return nil, err
		}
		if err := rec.record(g); err != nil {
			return nil, err
		}
	}
	final := makeFinal(r.Config, g)
	data, err := encodeFinal(final)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(r.Dir, FinalFile), data, 0o644); err != nil {
		return nil, err
	}
	return final, nil
}

// encodeFinal writes the summary indented and each individual on one line, so the file reads
// well in an editor and diffs line by line.
func encodeFinal(f *Final) ([]byte, error) {
	head := *f
	head.Population = nil
	data, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return nil, err
	}
	// the head ends with `"population": null\n}`: reopen it as a list
	i := bytes.LastIndex(data, []byte("null"))
	if i < 0 {
		return nil, errors.New("final.json: unexpected encoding")
	}
	var buf bytes.Buffer
	buf.Write(data[:i])
	if len(f.Population) == 0 {
		buf.WriteString("[]\n}\n")
		return buf.Bytes(), nil
	}
	buf.WriteString("[\n")
	for k, ind := range f.Population {
		line, err := json.Marshal(ind)
		if err != nil {
			return nil, err
		}
		buf.WriteString("    ")
		buf.Write(line)
		if k < len(f.Population)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("  ]\n}\n")
	return buf.Bytes(), nil
}

// openEvents opens events.jsonl for appending after cutting it to size (the checkpoint's
// length; 0 for a fresh start), which drops anything written after the last checkpoint.
func openEvents(path string, size int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.Size() < size {
		f.Close()
		return nil, fmt.Errorf("%s is shorter (%d bytes) than its checkpoint says (%d)", path, fi.Size(), size)
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

type recorder struct {
	run     *Run
	events  *os.File
	size    int64
	prior   float64
	start   time.Time
	onEvent func(search.Event)
}

// record makes one generation durable: the event line first (synced), then the checkpoint that
// points past it. A crash between the two leaves a line the next resume cuts off.
func (rc *recorder) record(g search.Generator) error {
	ev := g.Event()
	ev.Elapsed = rc.prior + time.Since(rc.start).Seconds()
	line, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := rc.events.Write(line); err != nil {
		return err
	}
	if err := rc.events.Sync(); err != nil {
		return err
	}
	rc.size += int64(len(line))
	st, err := g.Save()
	if err != nil {
		return err
	}
	data, err := json.Marshal(checkpoint{Generation: g.Generation(), EventsSize: rc.size, Elapsed: ev.Elapsed, State: st})
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(rc.run.Dir, CheckpointFile), data, 0o644); err != nil {
		return err
	}
	if rc.onEvent != nil {
		rc.onEvent(ev)
	}
	return nil
}

func makeFinal(cfg Config, g search.Generator) *Final {
	ev := g.Event()
	f := &Final{Config: cfg, Generation: g.Generation(), Evaluations: g.Evaluations(), BestFitness: g.Best(),
		Size: ev.Size, Feasible: ev.Feasible, Unique: ev.Unique, Controlled: ev.Controlled, Archive: ev.Archive}
	for _, ind := range g.Population() {
		fi := FinalIndividual{Content: ind.Content, Control: ind.Control, Info: ind.Info, Quality: ind.Quality,
			Diversity: ind.Diversity, Controllability: ind.Controllability, Fitness: g.Fitness(ind)}
		if ind.Cell >= 0 {
			cell := ind.Cell
			fi.Cell = &cell
		}
		f.Population = append(f.Population, fi)
	}
	return f
}

// ReadEvents reads a run's events.jsonl; a torn last line (a run killed while writing it) is
// ignored.
func ReadEvents(dir string) ([]search.Event, error) {
	data, err := os.ReadFile(filepath.Join(dir, EventsFile))
	if err != nil {
		return nil, err
	}
	var out []search.Event
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		var ev search.Event
		if err := json.Unmarshal(data[:i], &ev); err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", EventsFile, len(out)+1, err)
		}
		out = append(out, ev)
		data = data[i+1:]
	}
	return out, nil
}
