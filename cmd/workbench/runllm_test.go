package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

const runLLMKeyEnv = "PCGWB_RUN_LLM_TEST_KEY"

// mazeServer answers every call with binaryMaze; while fail is set it answers a 500 instead.
func mazeServer(t *testing.T, fail *atomic.Bool) *llmtest.Server {
	t.Helper()
	srv := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		if fail != nil && fail.Load() {
			return llmtest.Reply{Status: 500}
		}
		return llmtest.Reply{Content: "Here:\n```\n" + binaryMaze + "\n```"}
	})
	t.Cleanup(srv.Close)
	return srv
}

// llmRunArgs is `workbench run --generator llm` on binary-v0 against srv.
func llmRunArgs(srv *llmtest.Server, cache, out string, extra ...string) []string {
	return append([]string{"run", "--generator", "llm", "--problem", "binary-v0", "--pop", "3", "--seed", "7",
		"--base-url", srv.BaseURL(), "--model", "m", "--api-key-env", runLLMKeyEnv, "--temperature", "0.5",
		"--cache", cache, "--retries", "0", "--quiet", "--out", out}, extra...)
}

func resumeArgs(dir, cache string, extra ...string) []string {
	return append([]string{"run", "--resume", dir, "--api-key-env", runLLMKeyEnv, "--cache", cache, "--quiet"}, extra...)
}

// assertNoKey fails if any file under dir holds the API key.
func assertNoKey(t *testing.T, dir string) {
	t.Helper()
	llmtest.CheckNoSecret(t, dir, llmTestKey)
}

// `run --generator llm` writes the folder `llm generate` writes, and `report` reads it next to a
// GA run.
func TestRunLLMWritesTheLLMGenerateFolder(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	srv := mazeServer(t, nil)
	tmp := t.TempDir()
	cache := filepath.Join(tmp, "cache")
	runs := filepath.Join(tmp, "runs")

	viaRun := filepath.Join(runs, "binary-v0-llm")
	code, out, errs := runCLI(t, llmRunArgs(srv, cache, viaRun)...)
	if code != 0 || !strings.Contains(out, "3 asked, 3 valid") || !strings.Contains(out, "run folder: "+viaRun) {
		t.Fatalf("run --generator llm: exit %d: %s %s", code, out, errs)
	}
	calls := len(srv.Calls())
	if calls != 3 {
		t.Fatalf("%d calls, want 3", calls)
	}
	for _, c := range srv.Calls() {
		if c.Authorization != "Bearer "+llmTestKey || c.Request.Model != "m" {
			t.Fatalf("request %+v with %q", c.Request, c.Authorization)
		}
	}
	f, err := experiment.ReadFinal(viaRun)
	if err != nil || f.Config.Generator != llm.GeneratorName || f.Config.PopSize != 3 || f.Generation != 0 || len(f.Population) != 3 {
		t.Fatalf("final: %v %+v", err, f)
	}
	for _, name := range []string{experiment.ConfigFile, experiment.EventsFile, experiment.FinalFile, llm.RepliesFile, llm.UsageFile, llm.SummaryFile} {
		if _, err := os.Stat(filepath.Join(viaRun, name)); err != nil {
			t.Errorf("run folder lacks %s", name)
		}
	}
	if ev := strings.Count(string(readFile(t, filepath.Join(viaRun, experiment.EventsFile))), "\n"); ev != 1 {
		t.Errorf("%d event lines, want 1 (--generations defaults to 0 for llm)", ev)
	}

	// The same settings through `llm generate` give the same config.json and final.json (from
	// the cache).
	viaGenerate := filepath.Join(tmp, "generate")
	code, out, errs = runCLI(t, "llm", "generate", "--problem", "binary-v0", "--n", "3", "--seed", "7",
		"--base-url", srv.BaseURL(), "--model", "m", "--api-key-env", runLLMKeyEnv, "--temperature", "0.5",
		"--cache", cache, "--retries", "0", "--quiet", "--offline", "--out", viaGenerate)
	if code != 0 || len(srv.Calls()) != calls {
		t.Fatalf("llm generate: exit %d, %d new calls: %s %s", code, len(srv.Calls())-calls, out, errs)
	}
	for _, name := range []string{experiment.ConfigFile, experiment.FinalFile} {
		if !bytes.Equal(readFile(t, filepath.Join(viaRun, name)), readFile(t, filepath.Join(viaGenerate, name))) {
			t.Errorf("%s differs between run --generator llm and llm generate", name)
		}
	}

	// --generations given explicitly asks for more batches.
	twoGens := filepath.Join(tmp, "two")
	if code, out, errs := runCLI(t, llmRunArgs(srv, cache, twoGens, "--generations", "1", "--pop", "2")...); code != 0 || !strings.Contains(out, "4 asked") {
		t.Fatalf("--generations 1: exit %d: %s %s", code, out, errs)
	}
	if f, err := experiment.ReadFinal(twoGens); err != nil || f.Generation != 1 || len(f.Population) != 2 {
		t.Fatalf("--generations 1: %v %+v", err, f)
	}

	// Another setting into the same folder is refused and named.
	code, _, errs = runCLI(t, llmRunArgs(srv, cache, viaRun, "--temperature", "0.9")...)
	if code != 2 || !strings.Contains(errs, "another run") || !strings.Contains(errs, "llm.temperature: 0.5, now 0.9") {
		t.Fatalf("another run into the folder: exit %d: %s", code, errs)
	}

	// report reads the LLM run next to a GA run.
	ga := filepath.Join(runs, "binary-v0-ga")
	if code, _, errs := runCLI(t, "run", "--problem", "binary-v0", "--generator", "ga", "--generations", "1", "--pop", "4", "--quiet", "--out", ga); code != 0 {
		t.Fatalf("ga run: exit %d: %s", code, errs)
	}
	code, out, errs = runCLI(t, "report", runs)
	if code != 0 || !strings.Contains(out, "llm: feasible individuals in the final population in") || !strings.Contains(out, "ga: ") {
		t.Fatalf("report: exit %d: %s %s", code, out, errs)
	}
	summary := string(readFile(t, filepath.Join(runs, "summary.csv")))
	if !strings.Contains(summary, ",llm,") || !strings.Contains(summary, ",ga,") {
		t.Fatalf("summary.csv:\n%s", summary)
	}
	assertNoKey(t, tmp)
}

// Without --out the folder is runs/PROBLEM-llm-FITNESS-sSEED, as for llm generate.
func TestRunLLMDefaultFolder(t *testing.T) {
	srv := mazeServer(t, nil)
	tmp := t.TempDir()
	t.Setenv("HOME", tmp) // the default runs folder is ~/pcg-workbench/runs (appdirs.RunsDir)
	args := llmRunArgs(srv, filepath.Join(tmp, "cache"), "")
	args = append(args[:len(args)-2], "--fitness", "fitness_quality_control")
	if code, out, errs := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if _, err := experiment.ReadFinal(filepath.Join(tmp, "pcg-workbench", "runs", "binary-v0-llm-quality_control-s7")); err != nil {
		t.Fatal(err)
	}
}

// --resume of an LLM run continues it with the recorded settings: a finished run says so, an
// unfinished one is asked again and the cache replays what was received.
func TestRunResumeLLM(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	tmp := t.TempDir()
	var fail atomic.Bool
	srv := mazeServer(t, &fail)
	cache := filepath.Join(tmp, "cache")
	ref := filepath.Join(tmp, "ref")
	if code, out, errs := runCLI(t, llmRunArgs(srv, cache, ref)...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	want := readFile(t, filepath.Join(ref, experiment.FinalFile))

	// An interrupted run: the server fails after the second call, the first two replies are
	// in the (separate) cache.
	interrupted := filepath.Join(tmp, "interrupted")
	cache2 := filepath.Join(tmp, "cache2")
	var n atomic.Int32
	srv2 := llmtest.New(func(llmtest.Call, int) llmtest.Reply {
		if n.Add(1) > 2 && fail.Load() {
			return llmtest.Reply{Status: 500}
		}
		return llmtest.Reply{Content: "Here:\n```\n" + binaryMaze + "\n```"}
	})
	defer srv2.Close()
	fail.Store(true)
	code, _, errs := runCLI(t, llmRunArgs(srv2, cache2, interrupted, "--concurrency", "1")...)
	fail.Store(false)
	if code != 1 || !strings.Contains(errs, "workbench run --resume "+interrupted+" --cache "+cache2) {
		t.Fatalf("failing server: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(interrupted, experiment.FinalFile)); err == nil {
		t.Fatal("the failed run wrote final.json")
	}

	// A run whose final.json is gone (killed before the end), replayed offline.
	killed := filepath.Join(tmp, "killed")
	if code, _, errs := runCLI(t, llmRunArgs(srv, cache, killed)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	os.Remove(filepath.Join(killed, experiment.FinalFile))

	for _, tc := range []struct {
		name      string
		srv       *llmtest.Server
		args      []string
		wantOut   string
		wantCalls int
	}{
		{"finished", srv, resumeArgs(ref, cache), ref + " is already finished", 0},
		{"finished offline", srv, resumeArgs(ref, cache, "--offline"), "already finished", 0},
		{"killed, offline from the cache", srv, resumeArgs(killed, cache, "--offline"), "3 asked, 3 valid", 0},
		{"failed, online", srv2, resumeArgs(interrupted, cache2), "requests: 3 (2 from the cache", 1},
		{"resumed again", srv2, resumeArgs(interrupted, cache2), "already finished", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(tc.srv.Calls())
			code, out, errs := runCLI(t, tc.args...)
			if code != 0 || !strings.Contains(out, tc.wantOut) {
				t.Fatalf("exit %d: %s %s", code, out, errs)
			}
			if got := len(tc.srv.Calls()) - before; got != tc.wantCalls {
				t.Fatalf("%d new calls, want %d", got, tc.wantCalls)
			}
			dir := tc.args[2]
			if got := readFile(t, filepath.Join(dir, experiment.FinalFile)); !bytes.Equal(got, want) {
				t.Fatalf("%s/final.json differs from the uninterrupted run's", dir)
			}
		})
	}
	// The resumed requests carried the key from the environment.
	for _, c := range srv2.Calls() {
		if c.Authorization != "Bearer "+llmTestKey {
			t.Fatalf("key not sent on resume: %q", c.Authorization)
		}
	}
	// Offline with an empty cache: the run folder's own replies.jsonl refills it (a cache lost
	// or on another machine), so the replay asks nothing and ends as the uninterrupted run.
	os.Remove(filepath.Join(killed, experiment.FinalFile))
	os.Remove(filepath.Join(killed, experiment.CheckpointFile))
	code, out, errs := runCLI(t, resumeArgs(killed, filepath.Join(tmp, "empty-cache"), "--offline")...)
	if code != 0 || !strings.Contains(out, "3 asked, 3 valid") {
		t.Fatalf("offline replay refilled from the folder: exit %d: %s %s", code, out, errs)
	}
	if got := readFile(t, filepath.Join(killed, experiment.FinalFile)); !bytes.Equal(got, want) {
		t.Fatalf("%s/final.json differs from the uninterrupted run's", killed)
	}
	// Offline with a cache that lacks the replies and a folder that does not hold them either
	// fails clearly (a run killed before its first checkpoint starts over).
	os.Remove(filepath.Join(killed, experiment.FinalFile))
	os.Remove(filepath.Join(killed, experiment.CheckpointFile))
	os.Remove(filepath.Join(killed, llm.RepliesFile))
	code, _, errs = runCLI(t, resumeArgs(killed, filepath.Join(tmp, "another-empty-cache"), "--offline")...)
	if code != 1 || !strings.Contains(errs, "not in the cache") {
		t.Fatalf("offline miss: exit %d: %s", code, errs)
	}
	assertNoKey(t, tmp)
}

// A run whose prompt template was edited since is not resumed silently with the new text.
func TestRunResumeLLMRefusesAnEditedTemplate(t *testing.T) {
	srv := mazeServer(t, nil)
	tmp := t.TempDir()
	prompts := filepath.Join(tmp, "prompts")
	os.MkdirAll(prompts, 0o755)
	text, _, err := llm.Templates{}.Read("binary")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(prompts, "binary.tmpl")
	os.WriteFile(tmpl, []byte(text), 0o644)
	cache, dir := filepath.Join(tmp, "cache"), filepath.Join(tmp, "run")
	if code, out, errs := runCLI(t, llmRunArgs(srv, cache, dir, "--prompts", prompts)...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	os.Remove(filepath.Join(dir, experiment.FinalFile))
	os.WriteFile(tmpl, []byte(text+"\n"), 0o644)
	code, _, errs := runCLI(t, resumeArgs(dir, cache, "--offline")...)
	if code != 2 || !strings.Contains(errs, `another text of the prompt template "binary"`) || !strings.Contains(errs, tmpl) {
		t.Fatalf("edited template: exit %d: %s", code, errs)
	}
	os.WriteFile(tmpl, []byte(text), 0o644)
	if code, out, errs := runCLI(t, resumeArgs(dir, cache, "--offline")...); code != 0 {
		t.Fatalf("restored template: exit %d: %s %s", code, out, errs)
	}
}

func TestRunLLMUsageErrors(t *testing.T) {
	t.Setenv("OPENAI_MODEL", "")
	srv := mazeServer(t, nil)
	tmp := t.TempDir()
	cache, out := filepath.Join(tmp, "cache"), filepath.Join(tmp, "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown generator lists llm", []string{"run", "--problem", "binary-v0", "--generator", "nope"}, "random, es, ga, mapelites, constructive, llm"},
		{"llm flag without llm", []string{"run", "--problem", "binary-v0", "--generator", "ga", "--model", "m", "--offline"}, "--model, --offline only apply to --generator llm"},
		{"no model", []string{"run", "--problem", "binary-v0", "--generator", "llm", "--base-url", srv.BaseURL()}, "--model is required"},
		{"no problem", []string{"run", "--generator", "llm", "--model", "m"}, "--problem is required"},
		{"pop 0", llmRunArgs(srv, cache, out, "--pop", "0"), "--pop must be at least 1"},
		{"bad temperature", llmRunArgs(srv, cache, out, "--temperature", "hot"), "--temperature"},
		{"offline without cache", llmRunArgs(srv, cache, out, "--offline", "--cache", ""), "--offline needs a --cache"},
		{"resume nothing", []string{"run", "--resume", filepath.Join(tmp, "none")}, "not a run folder"},
		{"sweep with llm", []string{"sweep", "--problems", "binary-v0", "--generators", "ga,llm", "--out", out}, "workbench run --generator llm"},
		{"sweep emit-jobs with llm", []string{"sweep", "--problems", "binary-v0", "--generators", "llm", "--out", out, "--emit-jobs"}, "one at a time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, want 2 with %q: %s", code, tc.want, errs)
			}
		})
	}
	if len(srv.Calls()) != 0 {
		t.Fatalf("%d calls on usage errors", len(srv.Calls()))
	}
}
