package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotutil"

	"pcgwb/problems/search"
)

// Record is what the workbench knows of one run folder, finished or not: its recipe, the
// events it recorded and, once written, its final population. The report, the Compare tab and
// the Run tab all read run folders through it.
//
// The one rule for unfinished runs: a run counts in a group's summary (final values, counts,
// intervals) only once it is finished, that is when final.json holds its last configured
// generation; until then it adds the generations it recorded to the group's curves and is
// counted as a run not finished.
type Record struct {
	Dir    string
	Config Config
	Events []search.Event
	// Final is final.json, nil when there is none.
	Final *Final
}

// Label names the run in tables and legends: "ga · quality · seed 3".
func (r *Record) Label() string {
	return fmt.Sprintf("%s · %s · seed %d", r.Config.Generator, r.Config.Fitness, r.Config.Seed)
}

// Last is the last recorded event, nil before the first.
func (r *Record) Last() *search.Event {
	if len(r.Events) == 0 {
		return nil
	}
	return &r.Events[len(r.Events)-1]
}

// Best is the best fitness per recorded generation (index = generation).
func (r *Record) Best() []float64 {
	out := make([]float64, len(r.Events))
	for i := range r.Events {
		out[i] = r.Events[i].BestFitness
	}
	return out
}

// Finished reports whether the run reached its last generation.
func (r *Record) Finished() bool {
	return r.Final != nil && r.Final.Generation >= r.Config.Generations
}

// Generation is the last recorded generation (-1 before the first).
func (r *Record) Generation() int {
	if l := r.Last(); l != nil {
		return l.Generation
	}
	return -1
}

// Archive is the run's MAP-Elites archive (final, else the last event's), nil for others.
func (r *Record) Archive() *search.ArchiveView {
	if r.Final != nil && r.Final.Archive != nil {
		return r.Final.Archive
	}
	if l := r.Last(); l != nil {
		return l.Archive
	}
	return nil
}

// ReadRecord reads one run folder; an error names the file (and so the run) it comes from.
func ReadRecord(dir string) (*Record, error) {
	run, err := Open(dir)
	if err != nil {
		return nil, err
	}
	rec := &Record{Dir: dir, Config: run.Config}
	if rec.Events, err = ReadEvents(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f, err := ReadFinal(dir); err == nil {
		rec.Final = f
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return rec, nil
}

// ReadRecords reads every run folder under root (root itself may be one), in path order. An
// error names the run it failed on.
func ReadRecords(root string) ([]*Record, error) { return readRecords(context.Background(), root) }

// readRecords is ReadRecords that stops between runs once ctx is cancelled: a protocol sweep
// holds a thousand run folders, and Ctrl-C on a report must not wait for all of them.
func readRecords(ctx context.Context, root string) ([]*Record, error) {
	dirs, err := runDirs(root)
	if err != nil {
		return nil, err
	}
	out := make([]*Record, 0, len(dirs))
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := ReadRecord(d)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", d, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// runDirs lists the run folders under root (those holding a config.json), in path order.
func runDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == ConfigFile {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no run folder (no %s inside)", root, ConfigFile)
	}
	sort.Strings(dirs)
	return dirs, nil
}

// Checkpoint is the population of the last completed generation of a run in progress (or
// paused), as checkpoint.json holds it.
type Checkpoint struct {
	Generation int
	State      *search.State
}

// ReadCheckpoint reads and checks a run's checkpoint.json (the same checks as a resume).
func (r *Record) ReadCheckpoint() (*Checkpoint, error) {
	cp, err := (&Run{Dir: r.Dir, Config: r.Config}).readCheckpoint()
	if err != nil {
		return nil, err
	}
	return &Checkpoint{Generation: cp.Generation, State: cp.State}, nil
}

// configKey is the whole configuration but its seeds (splitSeeds): runs that differ in
// nothing else are seeds of one experiment.
func configKey(c Config) string {
	k, _ := splitSeeds(c)
	return k
}

// seedKey is what tells two seeds of one configuration apart: every seed it records.
func seedKey(c Config) string {
	_, s := splitSeeds(c)
	return s
}

// splitSeeds splits a configuration into everything but its seeds and its seeds, each as
// canonical JSON. A seed is every field named "seed" or ending in "_seed", at any depth: the
// search's seed and the seeds of a generator's own section (the LLM's "llm.seed", which an
// llm, llm-ga or llm-mapelites run derives from its seed), so that three seeds of any
// generator are one group of three runs.
func splitSeeds(c Config) (rest, seeds string) {
	raw, err := json.Marshal(c)
	if err != nil {
		return "", ""
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return string(raw), ""
	}
	found := map[string]any{}
	var strip func(path string, v any)
	strip = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "seed" || strings.HasSuffix(k, "_seed") {
					found[path+k] = e
					delete(x, k)
					continue
				}
				strip(path+k+".", e)
			}
		case []any:
			for i, e := range x {
				strip(fmt.Sprintf("%s%d.", path, i), e)
			}
		}
	}
	strip("", v)
	r, _ := json.Marshal(v)
	s, _ := json.Marshal(found)
	return string(r), string(s)
}

// GeneratorRank orders generators as the registry lists them (random, es, ga, mapelites,
// constructive, then the others as registered); unknown names go last.
func GeneratorRank(g string) int {
	all := search.All()
	if i := slices.Index(all, g); i >= 0 {
		return i
	}
	return len(all)
}

// FitnessRank orders fitness names as search.Fitnesses lists them.
func FitnessRank(f string) int {
	if i := slices.Index(search.Fitnesses(), f); i >= 0 {
		return i
	}
	return len(search.Fitnesses())
}

// GeneratorColor is a generator's colour in the report's figures and the GUI's Compare tab:
// its descriptor's (search.Descriptor.Color); a generator not registered in this binary (a run
// folder from elsewhere) takes the palette colour after the registered ones.
func GeneratorColor(gen string) color.Color {
	if d, ok := search.Describe(gen); ok {
		return d.Color
	}
	return plotutil.Color(GeneratorRank(gen))
}

// Curve is a per-generation mean over a group's runs with its 95% band (BootstrapMean:
// inside the values' range; NaN where fewer than two runs recorded the generation). N counts
// the runs at each point.
type Curve struct {
	X, Mean, Lo, Hi []float64
	N               []int
}

// Curve averages value over the group's runs at each generation they recorded (events are
// indexed by generation from 0), finished or not.
func (g *Group) Curve(value func(*search.Event) float64) Curve {
	return g.CurveOver(func(ev *search.Event) float64 { return float64(ev.Generation) }, value)
}

// CurveOver is Curve with another x: at each generation, the mean over the runs of x (the
// evaluations used, the model calls), so runs can be compared by budget.
func (g *Group) CurveOver(x, value func(*search.Event) float64) Curve {
	gens := 0
	for _, r := range g.Runs {
		gens = max(gens, len(r.Events))
	}
	var c Curve
	for gi := 0; gi < gens; gi++ {
		var xs, vals []float64
		for _, r := range g.Runs {
			if gi < len(r.Events) {
				xs = append(xs, x(&r.Events[gi]))
				vals = append(vals, value(&r.Events[gi]))
			}
		}
		iv := BootstrapMean(vals)
		sx := 0.0
		for _, v := range xs {
			sx += v
		}
		c.X = append(c.X, sx/float64(len(xs)))
		c.Mean, c.Lo, c.Hi, c.N = append(c.Mean, iv.Mean), append(c.Lo, iv.Lo), append(c.Hi, iv.Hi), append(c.N, iv.N)
	}
	return c
}

// MaxSize is the largest population the group's runs recorded.
func (g *Group) MaxSize() int {
	n := 0
	for _, r := range g.Runs {
		for _, ev := range r.Events {
			n = max(n, ev.Size)
		}
		if r.Final != nil {
			n = max(n, r.Final.Size)
		}
	}
	return n
}
