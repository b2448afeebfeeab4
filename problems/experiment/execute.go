package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/internal/folderlock"
	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// Exec tunes a run's execution.
type Exec struct {
	// OnEvent is called after each generation is recorded in events.jsonl (synced at the next
	// checkpoint, see Checkpoint).
	OnEvent func(search.Event)
	// Runtime is handed to the generator's factory (search.Spec.Runtime): what the run needs
	// and does not record, such as an LLM client.
	Runtime any
	// Prepare, when set, sees the generator before its first generation of this session
	// (to attach progress callbacks); an error stops the run before anything is written.
	Prepare func(search.Generator) error
	// Checkpoint is how often the run is made durable; the zero value is DefaultCheckpoint.
	Checkpoint Cadence
	// Shared is handed to the generator's factory (search.Spec.Shared): a cache of infos and
	// diversities shared with the other runs of this process. The run's files are the same
	// with or without it.
	Shared *search.SharedCache
}

// Cadence says how often a run's checkpoint is written and synced. Every generation is
// recorded in events.jsonl as it ends, but a checkpoint costs a file write and three fsyncs
// (events, checkpoint, folder), which on a busy disk cost more wall-clock time than a cheap
// problem's generation. A checkpoint is written at generation 0, whenever Every generations
// have passed (Every > 0), whenever Interval has passed since the last one (Interval > 0), and
// when the run stops on a cancelled context (Ctrl-C), so only a hard kill (kill -9, power
// loss) loses work: at most Every generations or Interval of time, plus the generation in
// flight. Results do not depend on it: a resumed run ends with the same final.json.
type Cadence struct {
	Every    int
	Interval time.Duration
}

// DefaultCheckpoint is the cadence of runs that do not set one: a kill -9 loses at most about
// ten seconds of work, and a 200-generation run of a fast problem syncs a handful of times
// instead of 600. Generators that keep their own logs (FolderUser: the LLM generators, whose
// generations are slow and paid for) are checkpointed every generation whatever the cadence.
var DefaultCheckpoint = Cadence{Interval: 10 * time.Second}

// EveryGeneration checkpoints after each generation (the cadence before it was configurable).
var EveryGeneration = Cadence{Every: 1}

// due reports whether the record of generation gen, made since after the last checkpoint,
// must be a checkpoint.
func (c Cadence) due(gen int, since time.Duration) bool {
	if c.Every <= 0 && c.Interval <= 0 {
		c = DefaultCheckpoint
	}
	return gen == 0 || (c.Every > 0 && gen%c.Every == 0) || (c.Interval > 0 && since >= c.Interval)
}

// FolderUser is implemented by generators that keep files of their own in the run folder (the
// LLM generator's replies, usage log and summary). The runner is still the only writer: it
// opens the files (append-only logs are never truncated, so costs recorded by an interrupted
// session stay), syncs them before every checkpoint and writes whole files atomically.
type FolderUser interface {
	// UseFolder is called once the folder is locked, before the generator's first generation
	// of this session (Reset, or Load when the run continues).
	UseFolder(f *Folder) error
	// FinishFolder is called after the last generation, before final.json is written; last is
	// the last event recorded.
	FinishFolder(f *Folder, last search.Event) error
}

// EventRecorder is implemented by generators whose events.jsonl lines carry more than the
// common search.Event (readers of search.Event ignore the extra keys).
type EventRecorder interface {
	EventRecord(ev search.Event) any
}

// Folder is a locked run folder as a generator sees it.
type Folder struct {
	dir  string
	logs map[string]*os.File
}

// Dir is the folder's path.
func (f *Folder) Dir() string { return f.dir }

// Log opens (once) the append-only log name; it is synced before every checkpoint and closed
// when the run ends.
func (f *Folder) Log(name string) (io.Writer, error) {
	if w, ok := f.logs[name]; ok {
		return w, nil
	}
	if filepath.Base(name) != name || name == FinalFile || name == CheckpointFile || name == ConfigFile || name == EventsFile {
		return nil, fmt.Errorf("%s: not a log a generator may write", name)
	}
	path := filepath.Join(f.dir, name)
	w, err := safeio.OpenLog(path, 0o644)
	if err != nil {
		return nil, err
	}
	if err := cutTornLine(w, path); err != nil {
		w.Close()
		return nil, err
	}
	f.logs[name] = w
	return w, nil
}

// cutTornLine drops a last line without its newline (a writer killed in the middle of it) so
// the next record starts on a line of its own, and leaves the file positioned at its end.
// Complete lines are never removed.
func cutTornLine(w *os.File, path string) error {
	fi, err := w.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	end := fi.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if end < n {
			n = end
		}
		if _, err := w.ReadAt(buf[:n], end-n); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	if end < fi.Size() {
		if err := w.Truncate(end); err != nil {
			return err
		}
	}
	_, err = w.Seek(end, io.SeekStart)
	return err
}

// WriteFile replaces the file name atomically.
func (f *Folder) WriteFile(name string, data []byte) error {
	if filepath.Base(name) != name || name == FinalFile || name == CheckpointFile || name == ConfigFile || name == EventsFile {
		return fmt.Errorf("%s: not a file a generator may write", name)
	}
	return atomicfile.Write(filepath.Join(f.dir, name), data, 0o644)
}

func (f *Folder) sync() error {
	for name, w := range f.logs {
		if err := w.Sync(); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(f.dir, name), err)
		}
	}
	return nil
}

func (f *Folder) close() {
	for _, w := range f.logs {
		w.Close()
	}
}

// Execute runs (or continues) the run to its last generation, calling onEvent after each
// generation is recorded (durable at the next checkpoint, see Cadence). See ExecuteWith.
func (r *Run) Execute(ctx context.Context, onEvent func(search.Event)) (*Final, error) {
	return r.ExecuteWith(ctx, Exec{OnEvent: onEvent})
}

// ExecuteWith runs (or continues) the run to its last generation: the one run loop of the
// workbench, for every registered generator. It takes the folder's lock first (a second
// writer gets a *folderlock.HeldError naming the holder's pid) and removes temporary files
// that crashed writers left. Cancelling ctx stops it within the generation in flight; the
// folder then resumes from the last completed generation. A finished run returns at once.
func (r *Run) ExecuteWith(ctx context.Context, x Exec) (*Final, error) {
	lock, err := folderlock.Acquire(r.Dir)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if _, err := atomicfile.CleanStale(r.Dir, 0); err != nil {
		return nil, err
	}
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
	g, err := search.Build(ctx, r.Config.Generator, search.Spec{Problem: p, Options: r.Config.Options, Settings: r.Config.Settings, Runtime: x.Runtime, Shared: x.Shared})
	if err != nil {
		return nil, err
	}
	if x.Prepare != nil {
		if err := x.Prepare(g); err != nil {
			return nil, err
		}
	}
	var prior float64
	var keep int64
	var cp *checkpoint
	if st.Generation >= 0 {
		if cp, err = r.readCheckpoint(); err != nil {
			return nil, err
		}
		if n, most := len(cp.State.Population), maxPopulation(r.Config); n > most {
			return nil, damaged(filepath.Join(r.Dir, CheckpointFile), "state.population",
				"%d individuals, more than any %s run of population %d can hold (%d)", n, r.Config.Generator, r.Config.PopSize, most)
		}
		prior, keep = cp.Elapsed, cp.EventsSize
	}
	folder := &Folder{dir: r.Dir, logs: map[string]*os.File{}}
	defer folder.close()
	fu, _ := g.(FolderUser)
	if fu != nil {
		if err := fu.UseFolder(folder); err != nil {
			return nil, err
		}
	}
	if cp != nil {
		if err := g.Load(ctx, cp.State); err != nil {
			return nil, fmt.Errorf("resuming %s: %s: %w", r.Dir, CheckpointFile, err)
		}
	}
	events, err := openEvents(filepath.Join(r.Dir, EventsFile), keep)
	if err != nil {
		return nil, err
	}
	defer events.Close()
	cadence := x.Checkpoint
	if fu != nil {
		cadence = EveryGeneration
	}
	rec := recorder{run: r, folder: folder, events: events, size: keep, prior: prior, start: time.Now(), onEvent: x.OnEvent,
		cadence: cadence, lastSync: time.Now()}
	if cp == nil {
		if err := g.Reset(ctx); err != nil {
			return nil, err
		}
		if err := rec.record(g); err != nil {
			return nil, err
		}
	}
	for g.Generation() < r.Config.Generations {
		if err := g.Step(ctx); err != nil {
			// A stop (Ctrl-C, a cancelled sweep) or a failed generation keeps every finished
			// one: the pending checkpoint is the state before this Step began.
			if ferr := rec.flush(); ferr != nil {
				return nil, errors.Join(err, ferr)
			}
			return nil, err
		}
		if err := rec.record(g); err != nil {
			return nil, err
		}
	}
	// The events are on disk before final.json says the run is finished.
	if err := rec.flush(); err != nil {
		return nil, err
	}
	if fu != nil {
		last := g.Event()
		last.Elapsed = rec.prior + time.Since(rec.start).Seconds()
		if err := fu.FinishFolder(folder, last); err != nil {
			return nil, err
		}
		if err := folder.sync(); err != nil {
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
	f, err := safeio.OpenLog(path, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
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
	folder  *Folder
	events  *os.File
	size    int64
	prior   float64
	start   time.Time
	onEvent func(search.Event)
	cadence Cadence
	// lastSync is when the last checkpoint was written; pending is the encoded checkpoint of
	// the last recorded generation when it is not on disk yet (nil otherwise).
	lastSync time.Time
	pending  []byte
}

// record appends one generation's event line and encodes its checkpoint, which it writes when
// the cadence says so (see flush). The checkpoint is encoded every generation, while the
// generator's state is the one the event describes, so a later flush writes exactly it.
func (rc *recorder) record(g search.Generator) error {
	ev := g.Event()
	ev.Elapsed = rc.prior + time.Since(rc.start).Seconds()
	var rec any = ev
	if er, ok := g.(EventRecorder); ok {
		rec = er.EventRecord(ev)
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := rc.events.Write(line); err != nil {
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
	rc.pending = data
	if rc.cadence.due(g.Generation(), time.Since(rc.lastSync)) {
		if err := rc.flush(); err != nil {
			return err
		}
	}
	if rc.onEvent != nil {
		rc.onEvent(ev)
	}
	return nil
}

// flush makes the last recorded generation durable: the generator's logs and the event lines
// first (synced), then the checkpoint that points past them. A crash between the two leaves
// lines the next resume cuts off.
func (rc *recorder) flush() error {
	if rc.pending == nil {
		return nil
	}
	if err := rc.folder.sync(); err != nil {
		return err
	}
	if err := rc.events.Sync(); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(rc.run.Dir, CheckpointFile), rc.pending, 0o644); err != nil {
		return err
	}
	rc.pending, rc.lastSync = nil, time.Now()
	return nil
}

func makeFinal(cfg Config, g search.Generator) *Final {
	// The generator's own settings (an LLM endpoint) stay in config.json: the final population
	// of the same run asked through another endpoint is the same file.
	cfg.Settings = nil
	ev := g.Event()
	f := &Final{Config: cfg, Generation: g.Generation(), Evaluations: g.Evaluations(), BestFitness: g.Best(),
		Size: ev.Size, Feasible: ev.Feasible, Unique: ev.Unique, Controlled: ev.Controlled, Archive: ev.Archive,
		Population: []problems.Scored{}}
	if len(g.Population()) == 0 {
		// No level at all (every LLM reply invalid): JSON has no -Inf, and 0 is what an
		// empty population scores.
		f.BestFitness = 0
	}
	for _, ind := range g.Population() {
		s := ind.Scored
		s.Fitness = g.Fitness(ind)
		f.Population = append(f.Population, s)
	}
	return f
}

// maxPopulation bounds the population a checkpoint of cfg's run may hold, whatever its
// generator: parents and children of one generation (2 × the population), every level an
// LLM run asked for (one population per generation), or a full MAP-Elites archive. A larger
// one (a damaged or planted file) is refused before the generator allocates for it.
func maxPopulation(cfg Config) int {
	most := max(2*cfg.PopSize, cfg.PopSize*(cfg.Generations+1))
	if len(cfg.Axes) > 0 {
		cells := 1
		for _, a := range cfg.Axes {
			cells *= max(a.Bins, 1)
			if cells > 1<<24 {
				break
			}
		}
		most = max(most, cells)
	}
	return most
}
