package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"

	"golang.org/x/sync/errgroup"

	"pcgwb/internal/safeio"
	"pcgwb/problems/search"
)

// Size limits of the files a run folder holds, checked before they are read whole. A
// population of 100 large levels stays far below them.
const (
	configLimit     = 1 << 20
	checkpointLimit = 512 << 20
	finalLimit      = 512 << 20
	eventsLimit     = 1 << 30
)

// readFile reads a run folder's config, final and events files: safeio.ReadFile, a variable
// so a test can count the reads (a report reads each run file once).
var readFile = safeio.ReadFile

// FileError is damage found in a file the workbench wrote: the file, the field (a JSON path
// such as "state.population", or "line 3") and what is wrong.
type FileError struct {
	Path  string
	Field string
	Err   error
}

func (e *FileError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.Path, e.Field, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

func damaged(path, field, format string, args ...any) error {
	return &FileError{Path: path, Field: field, Err: fmt.Errorf(format, args...)}
}

// decodeJSON unmarshals data and turns a syntax or type error into one naming the place.
func decodeJSON(path string, data []byte, v any) error {
	data = safeio.StripBOM(data)
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return damaged(path, "", "not valid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		return damaged(path, te.Field, "holds %s, want %s", te.Value, te.Type)
	}
	return &FileError{Path: path, Err: err}
}

func readConfig(dir string) (Config, error) {
	path := filepath.Join(dir, ConfigFile)
	data, err := readFile(path, configLimit)
	if err != nil {
		return Config{}, err
	}
	return decodeConfig(path, data)
}

// decodeConfig checks what a run needs of its config.json: the format, a problem, a
// generator and sane counts. Whether the problem and generator exist is checked when the run
// is made (Normalize), which names them.
func decodeConfig(path string, data []byte) (Config, error) {
	var cfg Config
	if err := decodeJSON(path, data, &cfg); err != nil {
		return cfg, err
	}
	switch {
	case cfg.Format != formatVersion:
		return cfg, damaged(path, "format", "format %d, this workbench reads format %d", cfg.Format, formatVersion)
	case cfg.Generator == "":
		return cfg, damaged(path, "generator", "missing")
	case cfg.Problem == "":
		return cfg, damaged(path, "problem", "missing")
	case cfg.Generations < 0:
		return cfg, damaged(path, "generations", "%d is negative", cfg.Generations)
	case cfg.PopSize < 0:
		return cfg, damaged(path, "pop_size", "%d is negative", cfg.PopSize)
	}
	return cfg, nil
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

func (r *Run) readCheckpoint() (*checkpoint, error) {
	path := filepath.Join(r.Dir, CheckpointFile)
	data, err := safeio.ReadFile(path, checkpointLimit)
	if err != nil {
		return nil, err
	}
	return decodeCheckpoint(path, data, r.Config)
}

// decodeCheckpoint reads a checkpoint and checks it against the run's configuration. What
// only the generator can judge (contents, random state) is checked by its Load.
func decodeCheckpoint(path string, data []byte, cfg Config) (*checkpoint, error) {
	var cp checkpoint
	if err := decodeJSON(path, data, &cp); err != nil {
		return nil, err
	}
	st := cp.State
	switch {
	case cp.Generation < 0:
		return nil, damaged(path, "generation", "%d is negative", cp.Generation)
	case cp.Generation > cfg.Generations:
		return nil, damaged(path, "generation", "%d is beyond the run's %d generations (%s)", cp.Generation, cfg.Generations, ConfigFile)
	case cp.EventsSize < 0:
		return nil, damaged(path, "events_size", "%d is negative", cp.EventsSize)
	case cp.Elapsed < 0 || math.IsInf(cp.Elapsed, 0):
		return nil, damaged(path, "elapsed_s", "%v is not a duration", cp.Elapsed)
	case st == nil:
		return nil, damaged(path, "state", "missing")
	case st.Generator != cfg.Generator:
		return nil, damaged(path, "state.generator", "%q, but the run's generator is %q", st.Generator, cfg.Generator)
	case st.Generation != cp.Generation:
		return nil, damaged(path, "state.generation", "%d, but the checkpoint is of generation %d", st.Generation, cp.Generation)
	case st.Evaluations < 0:
		return nil, damaged(path, "state.evaluations", "%d is negative", st.Evaluations)
	case len(st.RNG) == 0:
		return nil, damaged(path, "state.rng", "missing")
	}
	for i, ind := range st.Population {
		if ind.Content == nil {
			return nil, damaged(path, fmt.Sprintf("state.population[%d].content", i), "missing")
		}
		if ind.Cell != nil && *ind.Cell < 0 {
			return nil, damaged(path, fmt.Sprintf("state.population[%d].cell", i), "%d is negative", *ind.Cell)
		}
	}
	return &cp, nil
}

// ReadFinal reads a run's final.json.
func ReadFinal(dir string) (*Final, error) {
	path := filepath.Join(dir, FinalFile)
	data, err := readFile(path, finalLimit)
	if err != nil {
		return nil, err
	}
	return decodeFinal(path, data)
}

func decodeFinal(path string, data []byte) (*Final, error) {
	var f Final
	if err := decodeJSON(path, data, &f); err != nil {
		return nil, err
	}
	switch {
	case f.Generation < 0:
		return nil, damaged(path, "generation", "%d is negative", f.Generation)
	case f.Evaluations < 0:
		return nil, damaged(path, "evaluations", "%d is negative", f.Evaluations)
	case f.Size < 0 || f.Size != len(f.Population):
		return nil, damaged(path, "size", "%d, but the population holds %d", f.Size, len(f.Population))
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"feasible", f.Feasible}, {"unique", f.Unique}, {"controlled", f.Controlled}} {
		if c.n < 0 || c.n > f.Size {
			return nil, damaged(path, c.name, "%d is outside 0..%d (size)", c.n, f.Size)
		}
	}
	return &f, nil
}

// ReadEvents reads a run's events.jsonl; a torn last line (a run killed while writing it) is
// ignored. Every other line must be an event of consecutive generations.
func ReadEvents(dir string) ([]search.Event, error) {
	path := filepath.Join(dir, EventsFile)
	data, err := readFile(path, eventsLimit)
	if err != nil {
		return nil, err
	}
	return decodeEvents(path, data)
}

func decodeEvents(path string, data []byte) ([]search.Event, error) {
	var out []search.Event
	for line := 1; len(data) > 0; line++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		var ev search.Event
		field := fmt.Sprintf("line %d", line)
		if err := json.Unmarshal(data[:i], &ev); err != nil {
			return nil, damaged(path, field, "not an event (%v): %s", err, safeio.Excerpt(data[:i]))
		}
		if len(out) > 0 && ev.Generation != out[len(out)-1].Generation+1 {
			return nil, damaged(path, field, "generation %d follows generation %d", ev.Generation, out[len(out)-1].Generation)
		}
		if ev.Generation < 0 || ev.Size < 0 || ev.Evaluations < 0 {
			return nil, damaged(path, field, "negative generation, size or evaluations")
		}
		out = append(out, ev)
		data = data[i+1:]
	}
	return out, nil
}

// readSummaries reads every run folder under root (root itself may be one), in path order,
// as the reports need them: each run's config, events and final.json, checked as ReadRecord
// checks them, but with the final population dropped once read. A protocol sweep's final
// populations (Arcade's game traces, Talakat's bullet patterns) take gigabytes decoded, and the
// reports need only final.json's counts; so memory stays at the few runs being read plus the
// summaries and curves. A few folders are read at once (JSON decoding is most of a report's
// time); the records, and the error when folders are broken (that of the first one in path
// order), are the same as reading them one by one. Reading stops once ctx is cancelled.
func readSummaries(ctx context.Context, root string) ([]*Record, error) {
	dirs, err := runDirs(root)
	if err != nil {
		return nil, err
	}
	out := make([]*Record, len(dirs))
	// A folder's error goes to errs[i], so that the first in path order is returned; the group
	// carries only ctx's error, for a folder left unread.
	errs := make([]error, len(dirs))
	var g errgroup.Group
	g.SetLimit(min(runtime.GOMAXPROCS(0), 4))
	var stopped error
	for i, dir := range dirs {
		if stopped = ctx.Err(); stopped != nil {
			break
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err // cancelled while Go waited for a free reader
			}
			r, err := ReadRecord(dir)
			if err != nil {
				errs[i] = fmt.Errorf("run %s: %w", dir, err)
				return nil
			}
			if r.Final != nil {
				r.Final.Population = nil
			}
			out[i] = r
			return nil
		})
	}
	if err := g.Wait(); stopped == nil {
		stopped = err
	}
	if stopped != nil {
		return nil, stopped
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
