package experiment

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// countReads replaces readFile for the test with one that counts the reads of each file (an
// unfinished run's absent final.json is looked for, not read).
func countReads(t *testing.T) func() map[string]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[string]int{}
	old := readFile
	readFile = func(path string, limit int64) ([]byte, error) {
		data, err := old(path, limit)
		if !errors.Is(err, fs.ErrNotExist) {
			mu.Lock()
			counts[path]++
			mu.Unlock()
		}
		return data, err
	}
	t.Cleanup(func() { readFile = old })
	return func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := make(map[string]int, len(counts))
		for k, v := range counts {
			out[k] = v
		}
		return out
	}
}

// runFiles lists the config, events and final files under root, and every file's size (to
// tell the folder was left as it was).
func runFiles(t *testing.T, root string) (run []string, all map[string]int64) {
	t.Helper()
	all = map[string]int64{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		all[path] = info.Size()
		switch d.Name() {
		case ConfigFile, EventsFile, FinalFile:
			run = append(run, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return run, all
}

// A report reads each run file once (the paper report used to read the sweep twice), and
// `report --paper` writes nothing into the sweep folders.
func TestReportReadsEachRunFileOnce(t *testing.T) {
	tests := []struct {
		name string
		run  func(root, fig4 string) error
		// roots says which of root and fig4 the report reads.
		fig4 bool
	}{
		{"paper with fig4", func(root, fig4 string) error {
			out := filepath.Join(t.TempDir(), "results.md")
			return PaperReport(context.Background(), PaperOptions{Dir: root, Out: out, FigDir: filepath.Join(filepath.Dir(out), "results"),
				Fig4Dir: fig4, Command: "workbench report --paper RUNS --out results.md"})
		}, true},
		{"report", func(root, _ string) error {
			_, err := ReportOver(context.Background(), root, t.TempDir(), XGeneration)
			return err
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, fig4 := goldenRuns(t, nil), goldenRuns(t, nil)
			want, before := runFiles(t, root)
			want4, before4 := runFiles(t, fig4)
			if tt.fig4 {
				want = append(want, want4...)
			}
			reads := countReads(t)
			if err := tt.run(root, fig4); err != nil {
				t.Fatal(err)
			}
			got := reads()
			for _, p := range want {
				if got[p] != 1 {
					t.Errorf("%s read %d times, want once", p, got[p])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d files read, want the %d run files", len(got), len(want))
			}
			if !tt.fig4 {
				return // plain report writes summary.csv into the folder, as documented
			}
			for dir, before := range map[string]map[string]int64{root: before, fig4: before4} {
				if _, after := runFiles(t, dir); !reflect.DeepEqual(after, before) {
					t.Errorf("report --paper changed the sweep folder %s: %v, was %v", dir, after, before)
				}
			}
		})
	}
}

// The records a report keeps hold no final population, and everything else equals what
// ReadRecords reads, so every table and figure is unchanged.
func TestReportKeepsNoPopulation(t *testing.T) {
	root := goldenRuns(t, nil)
	full, err := ReadRecords(root)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := readSummaries(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != len(full) {
		t.Fatalf("%d records, want %d", len(kept), len(full))
	}
	populations := 0
	for i, r := range kept {
		f := full[i]
		if f.Final != nil {
			populations += len(f.Final.Population)
			if r.Final == nil {
				t.Fatalf("%s: final.json dropped", r.Dir)
			}
			if r.Final.Population != nil {
				t.Errorf("%s: the report keeps the final population (%d individuals)", r.Dir, len(r.Final.Population))
			}
			light := *f.Final
			light.Population = nil
			f = &Record{Dir: f.Dir, Config: f.Config, Events: f.Events, Final: &light}
		}
		if !reflect.DeepEqual(r, f) {
			t.Errorf("record %d differs from ReadRecord's:\n%+v\n%+v", i, r, f)
		}
	}
	if populations == 0 {
		t.Fatal("the sweep holds no population: the test would prove nothing")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "full.csv"), filepath.Join(dir, "kept.csv")
	if err := writeSummaryCSV(a, Summarize(Groups(full))); err != nil {
		t.Fatal(err)
	}
	if err := writeSummaryCSV(b, Summarize(Groups(kept))); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if string(da) != string(db) {
		t.Errorf("summary.csv differs:\n%s\n%s", da, db)
	}
}

// Broken run folders are named, the first in path order however many are read at once, and a
// cancelled report stops.
func TestReadSummariesErrors(t *testing.T) {
	tests := []struct {
		name   string
		break_ []string // run folders (under root) whose final.json is replaced by junk
		cancel bool
		want   string // the broken run folder the error names; "" for none
		is     error
	}{
		{"intact", nil, false, "", nil},
		{"one broken", []string{"zelda-v0/quality/random/2"}, false, "zelda-v0/quality/random/2", nil},
		{"first of two named", []string{"zelda-v0/quality/random/2", "binary-v0/quality/ga/3"}, false,
			"binary-v0/quality/ga/3", nil},
		{"cancelled", nil, true, "", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := goldenRuns(t, nil)
			for _, d := range tt.break_ {
				if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(d), FinalFile), []byte(`{"size": [`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			runs, err := readSummaries(ctx, root)
			switch {
			case tt.is != nil:
				if !errors.Is(err, tt.is) {
					t.Fatalf("error %v, want %v", err, tt.is)
				}
			case tt.want == "":
				if err != nil || len(runs) != 12 {
					t.Fatalf("%d runs, error %v; want 12 runs", len(runs), err)
				}
			default:
				name := "run " + filepath.Join(root, filepath.FromSlash(tt.want)) + ": "
				if err == nil || !strings.HasPrefix(err.Error(), name) {
					t.Fatalf("error %v, want one starting %q", err, name)
				}
				var fe *FileError
				if !errors.As(err, &fe) {
					t.Fatalf("error %v is not a FileError", err)
				}
			}
		})
	}
}
