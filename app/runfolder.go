package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// RunRecord is what the workbench reads of one run folder: its recipe, its events and, once it
// is finished, its final population.
type RunRecord struct {
	Dir    string
	Config experiment.Config
	Events []search.Event
	// Final is nil while the run is unfinished.
	Final *experiment.Final
}

// Label names the run in tables and legends: "ga · quality · seed 3".
func (r *RunRecord) Label() string {
	return fmt.Sprintf("%s · %s · seed %d", r.Config.Generator, r.Config.Fitness, r.Config.Seed)
}

// Last is the last recorded event, nil before the first.
func (r *RunRecord) Last() *search.Event {
	if len(r.Events) == 0 {
		return nil
	}
	return &r.Events[len(r.Events)-1]
}

// Finished reports whether the run reached its last generation.
func (r *RunRecord) Finished() bool {
	return r.Final != nil && r.Final.Generation >= r.Config.Generations
}

// Generation is the last recorded generation (-1 before the first).
func (r *RunRecord) Generation() int {
	if l := r.Last(); l != nil {
		return l.Generation
	}
	return -1
}

// Archive is the run's MAP-Elites archive (final, else the last event's), nil for others.
func (r *RunRecord) Archive() *search.ArchiveView {
	if r.Final != nil && r.Final.Archive != nil {
		return r.Final.Archive
	}
	if l := r.Last(); l != nil {
		return l.Archive
	}
	return nil
}

// LoadRunRecord reads one run folder.
func LoadRunRecord(dir string) (*RunRecord, error) {
	run, err := experiment.Open(dir)
	if err != nil {
		return nil, err
	}
	rec := &RunRecord{Dir: dir, Config: run.Config}
	if rec.Events, err = experiment.ReadEvents(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if f, err := experiment.ReadFinal(dir); err == nil {
		rec.Final = f
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return rec, nil
}

// LoadRunRecords reads every run folder under root (root itself may be one), in path order.
func LoadRunRecords(root string) ([]*RunRecord, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == experiment.ConfigFile {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no run folder (no %s inside)", root, experiment.ConfigFile)
	}
	out := make([]*RunRecord, 0, len(dirs))
	for _, d := range dirs {
		r, err := LoadRunRecord(d)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// checkpointFile is the part of experiment's checkpoint.json the GUI reads: the population of
// the last completed generation of a run still in progress (or paused).
type checkpointFile struct {
	Generation int           `json:"generation"`
	State      *search.State `json:"state"`
}

// readCheckpoint reads a run folder's checkpoint. experiment keeps its reader unexported; this
// adapter depends only on the two documented fields.
func readCheckpoint(dir string) (*checkpointFile, error) {
	data, err := os.ReadFile(filepath.Join(dir, experiment.CheckpointFile))
	if err != nil {
		return nil, err
	}
	var cp checkpointFile
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("%s: %w", experiment.CheckpointFile, err)
	}
	if cp.State == nil {
		return nil, fmt.Errorf("%s: no state", experiment.CheckpointFile)
	}
	return &cp, nil
}

// Members returns the run's latest population as members of problem p, best first: the final
// population when the run is finished, otherwise the last checkpoint's (without infos). gen is
// the generation it belongs to; a run with neither gives no members and gen -1.
func (r *RunRecord) Members(p problems.Problem) (members []Member, gen int, err error) {
	_, fit, err := search.ParseFitness(r.Config.Fitness)
	if err != nil {
		return nil, -1, err
	}
	if r.Final != nil {
		out := make([]Member, 0, len(r.Final.Population))
		for i, fi := range r.Final.Population {
			m, err := normalizedMember(p, i, fi.Content, fi.Control)
			if err != nil {
				return nil, -1, err
			}
			m.Info, m.Quality, m.Diversity, m.Controllability, m.Fitness = fi.Info, fi.Quality, fi.Diversity, fi.Controllability, fi.Fitness
			if fi.Cell != nil {
				m.Cell = *fi.Cell
			}
			out = append(out, m)
		}
		return out, r.Final.Generation, nil
	}
	cp, err := readCheckpoint(r.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, -1, nil
	}
	if err != nil {
		return nil, -1, err
	}
	out := make([]Member, 0, len(cp.State.Population))
	for i, si := range cp.State.Population {
		m, err := normalizedMember(p, i, si.Content, si.Control)
		if err != nil {
			return nil, -1, err
		}
		m.Quality, m.Diversity, m.Controllability = si.Quality, si.Diversity, si.Controllability
		m.Fitness = fit(si.Quality, si.Controllability, si.Diversity)
		if si.Cell != nil {
			m.Cell = *si.Cell
		}
		out = append(out, m)
	}
	return out, cp.Generation, nil
}

// normalizedMember turns JSON-decoded content and control (float64 numbers) back into the
// problem's values (ints), which Render and Info expect.
func normalizedMember(p problems.Problem, i int, content, control any) (Member, error) {
	c, err := p.ContentSpace().Normalize(content, "content")
	if err != nil {
		return Member{}, fmt.Errorf("individual %d: %w", i, err)
	}
	var k problems.Control
	if control != nil {
		if k, err = p.ControlSpace().Normalize(control, "control"); err != nil {
			return Member{}, fmt.Errorf("individual %d: %w", i, err)
		}
	}
	return Member{Index: i, Content: c, Control: k, Cell: -1}, nil
}

// RunFolderName is the folder a new run gets inside the output folder: readable, sortable by
// start time, and unique among existing folders.
func RunFolderName(outDir string, cfg experiment.Config, stamp string) string {
	fit, _, err := search.ParseFitness(cfg.Fitness)
	if err != nil {
		fit = cfg.Fitness
	}
	base := fmt.Sprintf("%s-%s-%s-%s-s%d", stamp, cfg.Problem, cfg.Generator, shortFitness(fit), cfg.Seed)
	name := base
	for i := 2; ; i++ {
		if _, err := os.Stat(filepath.Join(outDir, name)); errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(outDir, name)
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}

// shortFitness abbreviates a fitness name for folder names: quality_control_diversity → qcd.
func shortFitness(f string) string {
	var b strings.Builder
	for _, w := range strings.Split(f, "_") {
		if w != "" {
			b.WriteByte(w[0])
		}
	}
	return b.String()
}

// CopyRunFolder copies the files of a run folder into dst (created; it must not hold a run
// already), for "Save run as".
func CopyRunFolder(src, dst string) error {
	if _, err := os.Stat(filepath.Join(dst, experiment.ConfigFile)); err == nil {
		return fmt.Errorf("%s already holds a run", dst)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
