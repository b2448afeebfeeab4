package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/folderlock"
	"pcgwb/problems"
	"pcgwb/problems/search"
)

// A second writer of a run folder or a sweep folder is refused with the holder's pid; once the
// holder is gone (its flock released, the lock file left behind as after a kill) the folder is
// taken over.
func TestSecondWriterIsRefusedAndStaleLockRecovered(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	cfg := toyConfig("ga", 1)
	cfg.Generations = 2
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sw := toySweep(filepath.Join(tmp, "sweep"))
	os.MkdirAll(sw.Out, 0o755)
	for _, tc := range []struct {
		name string
		dir  string
		run  func() error
	}{
		{"run", dir, func() error { _, err := r.Execute(context.Background(), nil); return err }},
		{"sweep", sw.Out, func() error { return sw.Run(context.Background(), nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			held, err := folderlock.Acquire(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.run()
			var he *folderlock.HeldError
			if !errors.As(err, &he) || he.PID != os.Getpid() || !strings.Contains(err.Error(), "pid") {
				t.Fatalf("second writer: %v", err)
			}
			held.Release() // the lock file stays, as a killed holder leaves it
			if _, err := os.Stat(filepath.Join(tc.dir, folderlock.FileName)); err != nil {
				t.Fatal(err)
			}
			if err := tc.run(); err != nil {
				t.Fatalf("after the holder went: %v", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, FinalFile)); err != nil {
		t.Fatal(err)
	}
}

// Temporary files of a writer killed during an atomic write are removed by the next run.
func TestNextRunRemovesStaleTempFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := toyConfig("es", 1)
	cfg.Generations = 1
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ".checkpoint.json.tmp-12345")
	if err := os.WriteFile(stale, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stale temp file still there: %v", err)
	}
}

// unfinished runs a toy run to the end and removes final.json, leaving a run whose checkpoint
// is of its last generation.
func unfinished(t *testing.T, gen string) (*Run, map[string]any) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := toyConfig(gen, 3)
	cfg.Generations = 2
	if gen == "mapelites" {
		cfg.Axes = []search.Axis{{Field: "ones", Min: 0, Max: 17, Bins: 4}, {Field: "full_rows", Min: 0, Max: 5, Bins: 5}}
	}
	mustRun(t, dir, cfg)
	os.Remove(filepath.Join(dir, FinalFile))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cp map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, CheckpointFile))
	if err := json.Unmarshal(data, &cp); err != nil {
		t.Fatal(err)
	}
	return r, cp
}

// A damaged checkpoint is an error naming the file and the field, never a crash, and a
// checkpoint generation beyond the configuration is refused.
func TestDamagedCheckpointNamesFileAndField(t *testing.T) {
	state := func(cp map[string]any) map[string]any { return cp["state"].(map[string]any) }
	for _, tc := range []struct {
		name, gen, want string
		damage          func(cp map[string]any) any
	}{
		{"empty population es", "es", "state.population", func(cp map[string]any) any { state(cp)["population"] = []any{}; return cp }},
		{"empty population ga", "ga", "state.population", func(cp map[string]any) any { state(cp)["population"] = []any{}; return cp }},
		{"null population random", "random", "state.population", func(cp map[string]any) any { state(cp)["population"] = nil; return cp }},
		{"null state", "ga", "state: missing", func(cp map[string]any) any { cp["state"] = nil; return cp }},
		{"generation beyond config", "ga", "generation: 5 is beyond", func(cp map[string]any) any {
			cp["generation"] = 5
			state(cp)["generation"] = 5
			return cp
		}},
		{"negative generation", "ga", "generation: -1", func(cp map[string]any) any { cp["generation"] = -1; return cp }},
		{"state of another generation", "ga", "state.generation", func(cp map[string]any) any { state(cp)["generation"] = 1; return cp }},
		{"state of another generator", "ga", "state.generator", func(cp map[string]any) any { state(cp)["generator"] = "es"; return cp }},
		{"no random state", "es", "state.rng", func(cp map[string]any) any { delete(state(cp), "rng"); return cp }},
		{"content missing", "ga", "state.population[0].content", func(cp map[string]any) any {
			delete(state(cp)["population"].([]any)[0].(map[string]any), "content")
			return cp
		}},
		{"content of the wrong shape", "ga", "state.population[1]", func(cp map[string]any) any {
			state(cp)["population"].([]any)[1].(map[string]any)["content"] = []any{"x"}
			return cp
		}},
		{"wrong type", "ga", "events_size", func(cp map[string]any) any { cp["events_size"] = "many"; return cp }},
		{"not JSON", "ga", "not valid JSON", func(map[string]any) any { return json.RawMessage(`{"generation": 2,`) }},
		{"events longer than file", "ga", "shorter", func(cp map[string]any) any { cp["events_size"] = 1 << 40; return cp }},
		{"archive cell out of place", "mapelites", "cell", func(cp map[string]any) any {
			for _, ind := range state(cp)["population"].([]any) {
				ind.(map[string]any)["cell"] = 19
			}
			return cp
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, cp := unfinished(t, tc.gen)
			var data []byte
			if raw, ok := tc.damage(cp).(json.RawMessage); ok {
				data = raw
			} else {
				data, _ = json.Marshal(cp)
			}
			path := filepath.Join(r.Dir, CheckpointFile)
			os.WriteFile(path, data, 0o644)
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("crashed: %v", p)
					}
				}()
				_, err = r.Execute(context.Background(), nil)
			}()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
			if tc.want != "shorter" && !strings.Contains(err.Error(), CheckpointFile) {
				t.Fatalf("error %v does not name %s", err, CheckpointFile)
			}
			if _, err := os.Stat(filepath.Join(r.Dir, FinalFile)); err == nil {
				t.Fatal("a damaged checkpoint gave a final.json")
			}
		})
	}
}

// The readers of config.json, events.jsonl and final.json name the file and the field.
func TestDamagedFilesNameFileAndField(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := toyConfig("ga", 1)
	cfg.Generations = 2
	mustRun(t, dir, cfg)
	read := map[string]func() error{
		ConfigFile: func() error { _, err := Open(dir); return err },
		EventsFile: func() error { _, err := ReadEvents(dir); return err },
		FinalFile:  func() error { _, err := ReadFinal(dir); return err },
	}
	orig := map[string][]byte{}
	for name := range read {
		orig[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	for _, tc := range []struct {
		file, want string
		damage     func([]byte) []byte
	}{
		{ConfigFile, "format", func(b []byte) []byte { return bytes.Replace(b, []byte(`"format": 1`), []byte(`"format": 7`), 1) }},
		{ConfigFile, "problem: missing", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"problem": "searchtoy-v0"`), []byte(`"problem": ""`), 1)
		}},
		{ConfigFile, "generations", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"generations": 2`), []byte(`"generations": -2`), 1)
		}},
		{ConfigFile, "pop_size", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"pop_size": 10`), []byte(`"pop_size": "ten"`), 1)
		}},
		{EventsFile, "line 2", func(b []byte) []byte {
			lines := bytes.SplitAfter(b, []byte("\n"))
			lines[1] = []byte("{oops\n")
			return bytes.Join(lines, nil)
		}},
		{EventsFile, "line 3: generation 0 follows generation 1", func(b []byte) []byte {
			lines := bytes.SplitAfter(b, []byte("\n"))
			return bytes.Join([][]byte{lines[0], lines[1], lines[0]}, nil)
		}},
		{FinalFile, "size", func(b []byte) []byte { return bytes.Replace(b, []byte(`"size": 10`), []byte(`"size": 11`), 1) }},
		{FinalFile, "feasible", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"feasible": `), []byte(`"feasible": 99`), 1)
		}},
		{FinalFile, "not valid JSON", func(b []byte) []byte { return b[:len(b)/2] }},
	} {
		t.Run(tc.file+" "+tc.want, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			bad := tc.damage(append([]byte(nil), orig[tc.file]...))
			if bytes.Equal(bad, orig[tc.file]) {
				t.Fatal("the damage changed nothing")
			}
			os.WriteFile(path, bad, 0o644)
			defer os.WriteFile(path, orig[tc.file], 0o644)
			err := read[tc.file]()
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want one naming %s and %q", err, path, tc.want)
			}
		})
	}
}

// A generator's log keeps every complete record across sessions and drops a torn last line.
func TestFolderLogAppendsAndCutsATornLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ before, want string }{
		{"", "new\n"},
		{"a\nb\n", "a\nb\nnew\n"},
		{"a\nb\npart", "a\nb\nnew\n"},
		{"part", "new\n"},
		{strings.Repeat("x", 5000) + "\n" + strings.Repeat("y", 9000), strings.Repeat("x", 5000) + "\nnew\n"},
	} {
		os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte(tc.before), 0o644)
		f := &Folder{dir: dir, logs: map[string]*os.File{}}
		w, err := f.Log("log.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("new\n"))
		f.close()
		if got, _ := os.ReadFile(filepath.Join(dir, "log.jsonl")); string(got) != tc.want {
			t.Errorf("%.20q: got %.40q", tc.before, got)
		}
	}
	f := &Folder{dir: dir, logs: map[string]*os.File{}}
	for _, name := range []string{FinalFile, CheckpointFile, "../x"} {
		if _, err := f.Log(name); err == nil {
			t.Errorf("a generator may write %s", name)
		}
	}
}

// checkpointSeeds are checkpoints of real toy runs, the fuzz targets' seed corpus.
func loadForFuzz(data []byte) error {
	cfg := toyConfig("es", 3)
	cfg.Generations = 2
	cfg, err := cfg.Normalize()
	if err != nil {
		return err
	}
	cp, err := decodeCheckpoint("checkpoint.json", data, cfg)
	if err != nil {
		return err
	}
	p, _ := problems.Make(cfg.Problem)
	g, err := search.New(p, cfg.Generator, cfg.Options)
	if err != nil {
		return err
	}
	if err := g.Load(context.Background(), cp.State); err != nil {
		return err
	}
	for g.Generation() < cfg.Generations {
		if err := g.Step(context.Background()); err != nil {
			return err
		}
	}
	return nil
}

func FuzzCheckpoint(f *testing.F) {
	f.Add([]byte(`{"generation":0,"state":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = loadForFuzz(data) // must not panic
	})
}

func FuzzConfig(f *testing.F) {
	f.Add([]byte(`{"format":1,"generator":"ga","generations":2,"problem":"binary-v0","fitness":"quality","seed":1,"pop_size":10}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := decodeConfig("config.json", data)
		if err == nil {
			_, _ = cfg.Normalize()
		}
	})
}

func FuzzEvents(f *testing.F) {
	f.Add([]byte("{\"generation\":0}\n{\"generation\":1}\n{\"gen"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := decodeEvents("events.jsonl", data)
		if err == nil {
			for i := 1; i < len(evs); i++ {
				if evs[i].Generation != evs[i-1].Generation+1 {
					t.Fatal("accepted events out of order")
				}
			}
		}
	})
}

func FuzzFinal(f *testing.F) {
	f.Add([]byte(`{"generation":1,"size":0,"population":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fin, err := decodeFinal("final.json", data)
		if err == nil && fin.Size != len(fin.Population) {
			t.Fatal("accepted a final whose size is not its population's")
		}
	})
}
