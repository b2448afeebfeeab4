package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pcgwb/problems/search"
)

// snapshot copies the run folder's files as they are on disk now, which is what a kill -9 at
// this moment leaves behind (the lock goes with the process, so it is not copied).
func snapshot(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == ".lock" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A run checkpointed every k generations and killed hard (its folder frozen as it is on disk
// after generation `kill`) resumes from the last multiple of k, loses nothing else, and ends
// with the final.json of a run never interrupted. A stop on a cancelled context writes the
// pending checkpoint, so it resumes from the generation it stopped at whatever the cadence.
func TestCheckpointCadenceResumesByteEqual(t *testing.T) {
	tests := []struct {
		name      string
		cadence   Cadence
		kill      int  // the generation after which the folder is frozen or the run cancelled
		cancelled bool // a Ctrl-C rather than a kill -9
		resumeAt  int  // the generation the checkpoint holds
	}{
		{"every generation", EveryGeneration, 3, false, 3},
		{"every 2, killed after 5", Cadence{Every: 2}, 5, false, 4},
		{"every 3, killed after 5", Cadence{Every: 3}, 5, false, 3},
		{"every 4, killed after 2", Cadence{Every: 4}, 2, false, 0},
		{"every 4, killed after the last multiple", Cadence{Every: 4}, 4, false, 4},
		{"an hour, killed after 5", Cadence{Interval: time.Hour}, 5, false, 0},
		{"every 4, cancelled after 5", Cadence{Every: 4}, 5, true, 5},
		{"an hour, cancelled after 2", Cadence{Interval: time.Hour}, 2, true, 2},
	}
	for _, gen := range []string{"es", "ga"} {
		cfg := toyConfig(gen, 11)
		cfg.Generations = 8
		want := mustRun(t, filepath.Join(t.TempDir(), "whole"), cfg)
		for _, tc := range tests {
			t.Run(gen+"/"+tc.name, func(t *testing.T) {
				tmp := t.TempDir()
				live, dead := filepath.Join(tmp, "live"), filepath.Join(tmp, "dead")
				r, err := Create(live, cfg)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				onEvent := func(ev search.Event) {
					if ev.Generation != tc.kill {
						return
					}
					if tc.cancelled {
						cancel()
					} else {
						snapshot(t, live, dead)
					}
				}
				_, err = r.ExecuteWith(ctx, Exec{OnEvent: onEvent, Checkpoint: tc.cadence})
				if tc.cancelled {
					if err == nil {
						t.Fatal("the cancelled run finished")
					}
					dead = live
				} else if err != nil {
					t.Fatal(err)
				}
				again, err := Open(dead)
				if err != nil {
					t.Fatal(err)
				}
				st, err := again.Status()
				if err != nil || st.Finished || st.Generation != tc.resumeAt {
					t.Fatalf("status of the interrupted folder: %+v, %v; want generation %d", st, err, tc.resumeAt)
				}
				var seen []int
				record := func(ev search.Event) { seen = append(seen, ev.Generation) }
				if _, err := again.ExecuteWith(context.Background(), Exec{OnEvent: record, Checkpoint: tc.cadence}); err != nil {
					t.Fatal(err)
				}
				if len(seen) != cfg.Generations-tc.resumeAt || seen[0] != tc.resumeAt+1 {
					t.Fatalf("the resumed run emitted generations %v, want %d..%d", seen, tc.resumeAt+1, cfg.Generations)
				}
				got, err := os.ReadFile(filepath.Join(dead, FinalFile))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatal("the resumed run's final.json differs from the uninterrupted run's")
				}
				events, err := ReadEvents(dead)
				if err != nil {
					t.Fatal(err)
				}
				for i, ev := range events {
					if ev.Generation != i {
						t.Fatalf("event %d is generation %d", i, ev.Generation)
					}
				}
				if len(events) != cfg.Generations+1 {
					t.Fatalf("%d events after resume, want %d", len(events), cfg.Generations+1)
				}
			})
		}
	}
}

// The cadence's rule: generation 0 always, then every k generations or after the interval;
// the zero cadence is DefaultCheckpoint.
func TestCadenceDue(t *testing.T) {
	tests := []struct {
		c     Cadence
		gen   int
		since time.Duration
		want  bool
	}{
		{Cadence{}, 0, 0, true},
		{Cadence{}, 7, time.Second, false},
		{Cadence{}, 7, DefaultCheckpoint.Interval, true},
		{EveryGeneration, 5, 0, true},
		{Cadence{Every: 3}, 5, time.Hour, false},
		{Cadence{Every: 3}, 6, 0, true},
		{Cadence{Every: 3, Interval: time.Minute}, 5, time.Hour, true},
		{Cadence{Interval: time.Minute}, 5, time.Second, false},
	}
	for _, tc := range tests {
		if got := tc.c.due(tc.gen, tc.since); got != tc.want {
			t.Errorf("%+v.due(%d, %v) = %v, want %v", tc.c, tc.gen, tc.since, got, tc.want)
		}
	}
}
