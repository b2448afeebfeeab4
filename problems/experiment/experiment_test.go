package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pcgwb/problems"
	"pcgwb/problems/search"
	"pcgwb/problems/search/searchtest"
)

// hookedToy is a toy problem whose Info calls a hook, to kill a run in the middle of an
// evaluation.
const hookedToy = "searchtoy-hooked-v0"

var hook atomic.Pointer[func(int64)]

func init() {
	problems.MustRegister(hookedToy, nil, func(problems.Params) (problems.Problem, error) {
		return &searchtest.Toy{OnInfo: func(n int64) {
			if h := hook.Load(); h != nil {
				(*h)(n)
			}
		}}, nil
	})
}

func toyConfig(gen string, seed uint64) Config {
	return Config{Generator: gen, Generations: 6, Options: search.Options{Problem: searchtest.ToyName,
		Fitness: "quality_control_diversity", Seed: seed, PopSize: 10}}
}

func mustRun(t *testing.T, dir string, cfg Config) []byte {
	t.Helper()
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, FinalFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSameSeedSameFinal(t *testing.T) {
	tmp := t.TempDir()
	for _, gen := range []string{"random", "es", "ga"} {
		a := mustRun(t, filepath.Join(tmp, gen, "a"), toyConfig(gen, 7))
		b := mustRun(t, filepath.Join(tmp, gen, "b"), toyConfig(gen, 7))
		c := mustRun(t, filepath.Join(tmp, gen, "c"), toyConfig(gen, 8))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the same seed gave different final.json", gen)
		}
		if bytes.Equal(a, c) {
			t.Errorf("%s: different seeds gave the same final.json", gen)
		}
		var decoded Final
		if err := json.Unmarshal(a, &decoded); err != nil {
			t.Fatalf("%s: final.json is not JSON: %v", gen, err)
		}
		if len(decoded.Population) != 10 || decoded.Population[0].Info == nil || decoded.Size != 10 {
			t.Fatalf("%s: final.json population %d", gen, len(decoded.Population))
		}
		events, err := ReadEvents(filepath.Join(tmp, gen, "a"))
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 7 {
			t.Fatalf("%s: %d events, want 7 (generations 0..6)", gen, len(events))
		}
		for i, ev := range events {
			if ev.Generation != i {
				t.Fatalf("%s: event %d is generation %d", gen, i, ev.Generation)
			}
		}
	}
}

// A run killed between generations, or in the middle of an evaluation, and then resumed ends
// with the same final.json as one never interrupted, and its events.jsonl has each generation
// exactly once.
func TestResumedRunEqualsUninterrupted(t *testing.T) {
	for _, gen := range []string{"random", "es", "ga", "mapelites"} {
		for _, inside := range []bool{false, true} {
			name := gen + "/between"
			if inside {
				name = gen + "/inside-evaluation"
			}
			t.Run(name, func(t *testing.T) {
				tmp := t.TempDir()
				cfg := toyConfig(gen, 5)
				cfg.Problem = hookedToy
				if gen == "mapelites" {
					cfg.Axes = []search.Axis{{Field: "ones", Min: 0, Max: 17, Bins: 6}, {Field: "full_rows", Min: 0, Max: 5, Bins: 5}}
				}
				want := mustRun(t, filepath.Join(tmp, "whole"), cfg)

				dir := filepath.Join(tmp, "killed")
				r, err := Create(dir, cfg)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var onEvent func(search.Event)
				if inside {
					var armed atomic.Bool
					onEvent = func(ev search.Event) {
						if ev.Generation == 3 {
							armed.Store(true)
						}
					}
					h := func(int64) {
						if armed.Load() {
							cancel()
						}
					}
					hook.Store(&h)
					defer hook.Store(nil)
				} else {
					onEvent = func(ev search.Event) {
						if ev.Generation == 3 {
							cancel()
						}
					}
				}
				if _, err := r.Execute(ctx, onEvent); !errors.Is(err, context.Canceled) {
					t.Fatalf("the killed run returned %v", err)
				}
				hook.Store(nil)
				if _, err := os.Stat(filepath.Join(dir, FinalFile)); err == nil {
					t.Fatal("a killed run wrote final.json")
				}
				// A crash right after an event line was written and before the checkpoint, plus
				// a torn line: both must disappear on resume.
				f, err := os.OpenFile(filepath.Join(dir, EventsFile), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString(`{"generation":4,"best_fitness":0.5}` + "\n" + `{"generation":5,"be`)
				f.Close()

				again, err := Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				st, err := again.Status()
				if err != nil || st.Finished || st.Generation != 3 {
					t.Fatalf("status after the kill: %+v, %v", st, err)
				}
				var seen []int
				if _, err := again.Execute(context.Background(), func(ev search.Event) { seen = append(seen, ev.Generation) }); err != nil {
					t.Fatal(err)
				}
				if len(seen) != 3 || seen[0] != 4 {
					t.Fatalf("the resumed run emitted generations %v, want 4..6", seen)
				}
				got, _ := os.ReadFile(filepath.Join(dir, FinalFile))
				if !bytes.Equal(got, want) {
					t.Fatal("the resumed run's final.json differs from the uninterrupted run's")
				}
				events, err := ReadEvents(dir)
				if err != nil {
					t.Fatal(err)
				}
				if len(events) != 7 {
					t.Fatalf("%d events after resume, want 7", len(events))
				}
				for i, ev := range events {
					if ev.Generation != i {
						t.Fatalf("event %d is generation %d", i, ev.Generation)
					}
				}
			})
		}
	}
}

func TestKilledBeforeFirstCheckpointStartsOver(t *testing.T) {
	tmp := t.TempDir()
	cfg := toyConfig("ga", 3)
	want := mustRun(t, filepath.Join(tmp, "whole"), cfg)
	dir := filepath.Join(tmp, "early")
	r, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Execute(ctx, nil); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	os.WriteFile(filepath.Join(dir, EventsFile), []byte(`{"generation":0,"be`), 0o644)
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, FinalFile))
	if !bytes.Equal(got, want) {
		t.Fatal("restarted run differs")
	}
}

func TestCreateRefusesAnotherRunsFolder(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(dir, toyConfig("es", 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, toyConfig("es", 1)); err != nil {
		t.Fatalf("reopening the same run: %v", err)
	}
	if _, err := Create(dir, toyConfig("es", 2)); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("another seed in the same folder: %v", err)
	}
	if _, err := Open(t.TempDir()); err == nil {
		t.Fatal("opened an empty folder")
	}
	bad := toyConfig("es", 1)
	bad.Problem = "nosuch-v0"
	if _, err := Create(filepath.Join(dir, "x"), bad); err == nil {
		t.Fatal("created a run of an unknown problem")
	}
}

func toySweep(out string) Sweep {
	return Sweep{Problems: []string{searchtest.ToyName}, Generators: []string{"random", "ga"},
		Fitnesses: []string{"quality", "quality_control"}, Seeds: 2, Generations: 3,
		Options: search.Options{PopSize: 8}, Out: out, Workers: 2}
}

func TestSweepRunsSkipsAndEmitsJobs(t *testing.T) {
	out := t.TempDir()
	s := toySweep(out)
	cmds, err := s.EmitJobs("workbench")
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 8 {
		t.Fatalf("%d job lines, want 8", len(cmds))
	}
	if want := "workbench run --resume " + filepath.Join(out, searchtest.ToyName, "quality", "random", "1"); cmds[0] != want {
		t.Fatalf("job line %q, want %q", cmds[0], want)
	}
	var done, skipped atomic.Int32
	progress := func(p Progress) {
		if p.Done {
			done.Add(1)
			if p.Skipped {
				skipped.Add(1)
			}
			if p.Err != nil {
				t.Errorf("%s: %v", p.Job.Dir, p.Err)
			}
		}
	}
	if err := s.Run(context.Background(), progress); err != nil {
		t.Fatal(err)
	}
	if done.Load() != 8 || skipped.Load() != 0 {
		t.Fatalf("done %d skipped %d", done.Load(), skipped.Load())
	}
	if _, err := os.Stat(filepath.Join(out, searchtest.ToyName, "quality_control", "ga", "2", FinalFile)); err != nil {
		t.Fatal(err)
	}
	done.Store(0)
	if err := s.Run(context.Background(), progress); err != nil {
		t.Fatal(err)
	}
	if skipped.Load() != 8 {
		t.Fatalf("a second sweep skipped %d of 8 finished runs", skipped.Load())
	}
	if cmds, _ := s.EmitJobs("workbench"); len(cmds) != 0 {
		t.Fatalf("finished sweep still emits %d jobs", len(cmds))
	}
}

func TestSweepRejectsBadGridUpFront(t *testing.T) {
	s := toySweep(t.TempDir())
	s.Fitnesses = append(s.Fitnesses, "speed")
	if _, err := s.Jobs(); err == nil {
		t.Fatal("bad fitness accepted")
	}
	s = toySweep(t.TempDir())
	s.Generators = []string{"constructive"}
	if _, err := s.Jobs(); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Fatalf("constructive on the toy: %v", err)
	}
}

func TestReportWritesSummaryAndFigures(t *testing.T) {
	out := t.TempDir()
	s := toySweep(out)
	if err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	res, err := Report(out, "")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(res.Summary)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+4 {
		t.Fatalf("summary has %d rows, want header + 4", len(rows))
	}
	if rows[1][0] != searchtest.ToyName || rows[1][1] != "quality" || rows[1][2] != "random" || rows[1][4] != "2" {
		t.Fatalf("first summary row %v", rows[1])
	}
	if len(res.Figures) != 2+2+2 { // per problem and fitness, per fitness overview, per fitness counts
		t.Fatalf("figures %v", res.Figures)
	}
	for _, fig := range res.Figures {
		data, err := os.ReadFile(fig)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", fig, err)
		}
		if img.Bounds().Dx() < 300 {
			t.Fatalf("%s is %v", fig, img.Bounds())
		}
	}
}
