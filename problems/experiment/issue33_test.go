package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems/search"
)

// A checkpoint whose population is far beyond what its run can hold (2,000× here) is refused
// on resume; the same checkpoint as written resumes.
func TestResumeRefusesAnOversizedCheckpointPopulation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	r, err := Create(dir, Config{Generator: "ga", Generations: 3, Options: search.Options{Problem: "binary-v0", Fitness: "quality", Seed: 1, PopSize: 4}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := r.ExecuteWith(ctx, Exec{Checkpoint: EveryGeneration, OnEvent: func(ev search.Event) {
		if ev.Generation == 1 {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the run was not stopped")
	}
	cancel()
	path := filepath.Join(dir, CheckpointFile)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cp map[string]any
	if err := json.Unmarshal(orig, &cp); err != nil {
		t.Fatal(err)
	}
	state := cp["state"].(map[string]any)
	pop := state["population"].([]any)
	var big []any
	for range 2000 {
		big = append(big, pop...)
	}
	state["population"] = big
	data, _ := json.Marshal(cp)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "state.population") {
		t.Fatalf("resume of a 2,000× population: %v", err)
	}
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatalf("resume of the checkpoint as written: %v", err)
	}
}
