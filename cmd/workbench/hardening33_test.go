//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

// killedRun is a binary-v0 GA run of 3 generations stopped after generation 1.
func killedRun(t *testing.T, dir string) {
	t.Helper()
	r, err := experiment.Create(dir, experiment.Config{Generator: "ga", Generations: 3, Options: search.Options{
		Problem: "binary-v0", Fitness: "quality_control", Seed: 2, PopSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := r.ExecuteWith(ctx, experiment.Exec{Checkpoint: experiment.EveryGeneration, OnEvent: func(ev search.Event) {
		if ev.Generation == 1 {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the killed run finished")
	}
}

// `run --resume` never follows a symbolic link planted as events.jsonl: the outside file is
// neither truncated nor appended to, and nothing of it is quoted.
func TestResumeRefusesASymlinkedEventsLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	killedRun(t, dir)
	outside := filepath.Join(t.TempDir(), "private.txt")
	const private = "PRIVATE first line\nsecond line\n"
	os.WriteFile(outside, []byte(private), 0o644)
	events := filepath.Join(dir, experiment.EventsFile)
	os.Remove(events)
	if err := os.Symlink(outside, events); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "run", "--resume", dir, "--quiet")
	if code == 0 {
		t.Fatalf("resumed through the link: %s", out)
	}
	if data, _ := os.ReadFile(outside); string(data) != private {
		t.Errorf("the outside file changed: %q", data)
	}
	if strings.Contains(errs+out, "PRIVATE") {
		t.Errorf("the outside file was quoted: %s", errs)
	}
}

// `run --resume` reads config.json with a limit: a FIFO, a link to /dev/zero and a sparse
// 2 GB file are refused before reading (the FIFO hung forever, /dev/zero grew to 2.5 GB).
func TestResumeReadsConfigWithALimit(t *testing.T) {
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "fifo")
	if err := os.MkdirAll(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fifo, experiment.ConfigFile), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(tmp, "zero")
	os.MkdirAll(zero, 0o755)
	if err := os.Symlink("/dev/zero", filepath.Join(zero, experiment.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(tmp, "sparse")
	os.MkdirAll(sparse, 0o755)
	f, err := os.Create(filepath.Join(sparse, experiment.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, dir := range []string{fifo, zero, sparse} {
		code, _, errs := runCLI(t, "run", "--resume", dir, "--quiet")
		if code == 0 || !strings.Contains(errs, experiment.ConfigFile) {
			t.Errorf("%s: exit %d, %q", filepath.Base(dir), code, errs)
		}
	}
}

// `llm generate` and `run --generator llm` exit 1 when no level came back valid (the run folder
// still records what was asked and answered).
func TestLLMRunWithNoValidLevelFails(t *testing.T) {
	t.Setenv("PCGWB_LLM_TEST_KEY", llmTestKey)
	t.Setenv(runLLMKeyEnv, llmTestKey)
	srv := llmtest.New(llmtest.Text("I cannot draw levels."))
	t.Cleanup(srv.Close)
	tmp := t.TempDir()
	for name, args := range map[string][]string{
		"llm generate": llmArgs(srv, tmp, "--out", filepath.Join(tmp, "gen"), "--repairs", "0"),
		"run llm":      llmRunArgs(srv, filepath.Join(tmp, "cache2"), filepath.Join(tmp, "run"), "--repairs", "0"),
	} {
		code, out, errs := runCLI(t, args...)
		if code != 1 || !strings.Contains(errs, "no valid level") {
			t.Errorf("%s: exit %d (want 1), stdout %q, stderr %q", name, code, out, errs)
		}
	}
}

// eval and render accept a run's own final.json (its final population); a run of another
// problem is bad input.
func TestEvalAndRenderReadARunsFinal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCLI(t, "run", "--problem", "binary-v0", "--generator", "ga", "--generations", "1", "--pop", "3", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	final := filepath.Join(dir, experiment.FinalFile)
	code, out, errs := runCLI(t, "eval", "binary-v0", final)
	if code != 0 || !strings.Contains(out, `"id": "2"`) || strings.Contains(out, `"id": "3"`) {
		t.Fatalf("eval: exit %d: %s %s", code, out, errs)
	}
	pngs := filepath.Join(t.TempDir(), "png")
	if code, out, errs := runCLI(t, "render", "binary-v0", final, "--out", pngs); code != 0 || strings.Count(out, ".png") != 3 {
		t.Fatalf("render: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "eval", "zelda-v0", final); code != 2 || !strings.Contains(errs, "a run of binary-v0") {
		t.Errorf("eval of another problem's run: exit %d %s", code, errs)
	}
}
