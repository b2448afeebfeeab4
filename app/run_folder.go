package app

import (
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

// RunRecord is one run folder as experiment reads it (experiment.Record: recipe, events,
// final population, and the one rule for unfinished runs), with what the GUI shows of it.
type RunRecord struct{ *experiment.Record }

// newRunRecord wraps a record of a run that has no folder content yet (a run being started).
func newRunRecord(dir string, cfg experiment.Config) *RunRecord {
	return &RunRecord{&experiment.Record{Dir: dir, Config: cfg}}
}

// loadRunRecord reads one run folder.
func loadRunRecord(dir string) (*RunRecord, error) {
	rec, err := experiment.ReadRecord(dir)
	if err != nil {
		return nil, err
	}
	return &RunRecord{rec}, nil
}

// LoadRunRecords reads every run folder under root (root itself may be one), in path order.
func LoadRunRecords(root string) ([]*RunRecord, error) {
	recs, err := experiment.ReadRecords(root)
	if err != nil {
		return nil, err
	}
	out := make([]*RunRecord, len(recs))
	for i, r := range recs {
		out[i] = &RunRecord{r}
	}
	return out, nil
}

// population returns the run's latest population as members of problem p, best first: the final
// population when the run is finished, otherwise the last checkpoint's (without infos). gen is
// the generation it belongs to; a run with neither gives no members and gen -1.
func (r *RunRecord) population(p problems.Problem) (members []member, gen int, err error) {
	_, fit, err := search.ParseFitness(r.Config.Fitness)
	if err != nil {
		return nil, -1, err
	}
	if r.Final != nil {
		out := make([]member, 0, len(r.Final.Population))
		for i, fi := range r.Final.Population {
			m, err := normalizedMember(p, i, fi.Content, fi.Control)
			if err != nil {
				return nil, -1, err
			}
			fi.Content, fi.Control = m.Content, m.Control // the problem's values, not JSON's
			out = append(out, newMember(i, fi))
		}
		return out, r.Final.Generation, nil
	}
	cp, err := r.ReadCheckpoint()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, -1, nil
	}
	if err != nil {
		return nil, -1, err
	}
	out := make([]member, 0, len(cp.State.Population))
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
func normalizedMember(p problems.Problem, i int, content, control any) (member, error) {
	c, err := p.ContentSpace().Normalize(content, "content")
	if err != nil {
		return member{}, fmt.Errorf("individual %d: %w", i, err)
	}
	var k problems.Control
	if control != nil {
		if k, err = p.ControlSpace().Normalize(control, "control"); err != nil {
			return member{}, fmt.Errorf("individual %d: %w", i, err)
		}
	}
	return newMember(i, problems.Scored{Content: c, Control: k, Cell: problems.NoCell}), nil
}

// runFolderName is the folder a new run gets inside the output folder: readable, sortable by
// start time, and unique among existing folders.
func runFolderName(outDir string, cfg experiment.Config, stamp string) string {
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

// copyRunFolder copies the files of a run folder into dst (created; it must not hold a run
// already), for "Save run as".
func copyRunFolder(src, dst string) error {
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
