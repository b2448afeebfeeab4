package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

// `run --resume` of an LLM run without --cache asks through the cache the run recorded: the
// replies received before the failure come from it, only the missing one is asked.
func TestRunResumeLLMUsesTheRunsCache(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	tmp := t.TempDir()
	var n atomic.Int32
	var fail atomic.Bool
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		if n.Add(1) > 2 && fail.Load() {
			return llmtest.Reply{Status: 500}
		}
		return llmtest.Reply{Content: "Here:\n```\n" + binaryMaze + "\n```"}
	})
	defer srv.Close()
	own, dir := filepath.Join(tmp, "own-cache"), filepath.Join(tmp, "run")
	fail.Store(true)
	if code, _, errs := runCLI(t, llmRunArgs(srv, own, dir, "--concurrency", "1")...); code != 1 {
		t.Fatalf("failing server: exit %d: %s", code, errs)
	}
	fail.Store(false)
	if got, ok, err := llm.RecordedCache(dir); err != nil || !ok || got != own {
		t.Fatalf("recorded cache %q, %v, %v: want %q", got, ok, err, own)
	}
	before := len(srv.Calls())
	code, out, errs := runCLI(t, "run", "--resume", dir, "--api-key-env", runLLMKeyEnv)
	if code != 0 || !strings.Contains(out+errs, "requests: 3 (2 from the cache") {
		t.Fatalf("resume: exit %d: %s %s", code, out, errs)
	}
	if got := len(srv.Calls()) - before; got != 1 {
		t.Errorf("the resume asked %d times, want 1 (the others are in the run's cache)", got)
	}
	if _, err := os.Stat(filepath.Join(dir, experiment.FinalFile)); err != nil {
		t.Fatal(err)
	}
}

// resumeCache: the recorded cache (relative to the run folder when inside it, "" for none);
// without a record, the run's or the GUI's .llm-cache, else the default.
func TestResumeCache(t *testing.T) {
	out := t.TempDir()
	run := filepath.Join(out, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(what, want string) {
		t.Helper()
		got, err := resumeCache(run, "DEFAULT")
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", what, got, err, want)
		}
	}
	check("nothing recorded, no .llm-cache", "DEFAULT")
	if err := os.Mkdir(filepath.Join(out, guiCacheDir), 0o755); err != nil {
		t.Fatal(err)
	}
	check("the GUI's output folder cache", filepath.Join(out, guiCacheDir))
	if err := os.Mkdir(filepath.Join(run, guiCacheDir), 0o755); err != nil {
		t.Fatal(err)
	}
	check("the run's own .llm-cache", filepath.Join(run, guiCacheDir))
	shared := filepath.Join(t.TempDir(), "shared-cache")
	if _, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", CacheDir: shared}); err != nil {
		t.Fatal(err) // a session's client makes the cache (and its secret)
	}
	for _, tc := range []struct{ record, want string }{
		{`{"cache": "` + shared + `"}`, shared},
		{`{"cache": ".llm-cache"}`, filepath.Join(run, ".llm-cache")},
		{`{"cache": ""}`, ""},
	} {
		if err := os.WriteFile(filepath.Join(run, llm.CacheFile), []byte(tc.record), 0o644); err != nil {
			t.Fatal(err)
		}
		check(tc.record, tc.want)
	}
	// A run folder from elsewhere cannot send the session's writes to a folder of its choice:
	// one that is not a response cache (or is a link to one) is refused, naming --cache.
	notACache := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(shared, link); err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(run, "sub")
	if err := os.Symlink(notACache, inside); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{notACache, filepath.Join(notACache, "new"), link, inside, filepath.Join(inside, "deeper")} {
		if err := os.WriteFile(filepath.Join(run, llm.CacheFile), []byte(`{"cache": "`+target+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := resumeCache(run, "DEFAULT"); err == nil || !strings.Contains(err.Error(), "--cache") {
			t.Errorf("recorded cache %s: %q, %v; want a refusal naming --cache", target, got, err)
		}
	}
	if err := os.WriteFile(filepath.Join(run, llm.CacheFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := resumeCache(run, "DEFAULT"); err == nil {
		t.Error("a damaged record is not reported")
	}
}
