package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
	"pcgwb/problems/problemtest"
	"pcgwb/problems/search"
)

// defaultProblems are the registered default variants ("family-v0") this machine can make.
func defaultProblems(t *testing.T) []string {
	t.Helper()
	var out []string
	re := regexp.MustCompile(`^[a-z]+-v0$`)
	for _, name := range problems.List() {
		if re.MatchString(name) {
			out = append(out, name)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d default problems registered: %v", len(out), out)
	}
	return out
}

// knownEditServer plays the test model that answers the known edit of the parents it gets.
func knownEditServer(t *testing.T, problem string, p problems.Problem) *llmtest.Server {
	t.Helper()
	bp, err := llm.Templates{}.Load(problem, "")
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(llmtest.Evolver(func(parents []string, seed int) string {
		return llm.KnownEdit(p, bp.Legend, parents, seed)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// `workbench run --generator llm-ga|llm-mapelites` works on every default problem against the
// test endpoint; the model makes children, the events count the calls, and an offline replay
// in another folder writes the same final.json byte for byte.
func TestRunEvolveOnEveryProblem(t *testing.T) {
	if testing.Short() {
		t.Skip("two LLM-guided runs and a replay on every problem (-short)")
	}
	problemtest.RefData(t) // the problems that need the reference data run too (../shared)
	t.Setenv(runLLMKeyEnv, llmTestKey)
	for _, name := range defaultProblems(t) {
		for _, gen := range []string{llm.GAName, llm.MapElitesName} {
			t.Run(name+"/"+gen, func(t *testing.T) {
				if err := problems.Unavailable(name); err != nil {
					t.Skip(err)
				}
				p, err := problems.Make(name)
				if err != nil {
					t.Skip(err)
				}
				srv := knownEditServer(t, name, p)
				tmp := t.TempDir()
				cache := filepath.Join(tmp, "cache")
				args := []string{"run", "--generator", gen, "--problem", name, "--pop", "4", "--generations", "2", "--seed", "3",
					"--llm-rate", "1", "--base-url", srv.BaseURL(), "--model", "m", "--api-key-env", runLLMKeyEnv, "--cache", cache, "--retries", "0"}
				if gen == llm.MapElitesName {
					info, err := p.Info(p.ContentSpace().Sample(newRand(0)))
					if err != nil {
						t.Fatal(err)
					}
					field := "controllability"
					if f := search.NumericFields(info); len(f) > 0 {
						field = f[0]
					}
					args = append(args, "--axes", field+":0:50:5,quality:0:1:4")
				}
				online := filepath.Join(tmp, "online")
				code, out, errs := runCLI(t, append(args, "--out", online)...)
				if code != 0 {
					t.Fatalf("exit %d: %s %s", code, out, errs)
				}
				if !strings.Contains(out, "done: best fitness") || !regexp.MustCompile(`model: [1-9]\d* children asked`).MatchString(out) {
					t.Errorf("output lacks the summary or the model's children:\n%s", out)
				}
				if len(srv.Calls()) == 0 {
					t.Error("the model was never asked")
				}
				events, err := os.ReadFile(filepath.Join(online, experiment.EventsFile))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(events, []byte(`"calls":`)) || bytes.Count(events, []byte("\n")) != 3 {
					t.Errorf("events.jsonl should have 3 lines with the model's calls:\n%s", events)
				}
				offline := filepath.Join(tmp, "offline")
				code, out, errs = runCLI(t, append(args, "--offline", "--out", offline)...)
				if code != 0 {
					t.Fatalf("offline replay: exit %d: %s %s", code, out, errs)
				}
				a, _ := os.ReadFile(filepath.Join(online, experiment.FinalFile))
				b, _ := os.ReadFile(filepath.Join(offline, experiment.FinalFile))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("the offline replay's final.json differs")
				}
				code, out, errs = runCLI(t, resumeArgs(online, cache)...)
				if code != 0 {
					t.Fatalf("resume of a finished run: exit %d: %s %s", code, out, errs)
				}
			})
		}
	}
}

// Bad operator flags are usage errors (exit 2).
func TestRunEvolveRejectsBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"rate", "--llm-rate", []string{"--generator", "llm-ga", "--llm-rate", "1.5"}},
		{"axes", "--axes", []string{"--generator", "llm-mapelites"}},
		{"examples", "--examples", []string{"--generator", "llm-ga", "--examples", "5"}},
		{"control", "--control", []string{"--generator", "llm-mapelites", "--control", "--axes", "path:0:10,regions:0:5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "--problem", "binary-v0", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--cache", ""}, tc.args...)
			code, _, errs := runCLI(t, args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q: want 2 mentioning %s", code, errs, tc.want)
			}
		})
	}
}

// A run stopped by a refused request (401: not a fault a fallback should hide) resumes with
// `run --resume` (through the cache the run recorded, without being told it again) and ends
// with the final.json of an uninterrupted run, without asking again what it had received.
func TestRunEvolveResumesAfterARefusal(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	const name = "binary-v0"
	p, err := problems.Make(name)
	if err != nil {
		t.Skip(err)
	}
	bp, err := llm.Templates{}.Load(name, "")
	if err != nil {
		t.Fatal(err)
	}
	var calls, refuseAfter atomic.Int64
	var bodies sync.Map
	edit := llmtest.Evolver(func(parents []string, seed int) string { return llm.KnownEdit(p, bp.Legend, parents, seed) })
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		n := calls.Add(1)
		if lim := refuseAfter.Load(); lim > 0 && n > lim {
			return llmtest.Reply{Status: 401}
		}
		if _, dup := bodies.LoadOrStore(c.Prompt()+fmt.Sprint(*c.Request.Seed), true); dup {
			t.Errorf("request asked twice: %.80q", c.Prompt())
		}
		return edit(c, seen)
	})
	t.Cleanup(srv.Close)
	tmp := t.TempDir()
	args := func(cache, out string) []string {
		return []string{"run", "--generator", llm.GAName, "--problem", name, "--pop", "6", "--generations", "3", "--seed", "2",
			"--llm-rate", "0.8", "--base-url", srv.BaseURL(), "--model", "m", "--api-key-env", runLLMKeyEnv,
			"--cache", cache, "--retries", "0", "--quiet", "--out", out}
	}
	whole := filepath.Join(tmp, "whole")
	if code, out, errs := runCLI(t, args(filepath.Join(tmp, "cacheA"), whole)...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	total := calls.Load()
	bodies = sync.Map{}
	calls.Store(0)
	refuseAfter.Store(total / 2)
	cacheB, part := filepath.Join(tmp, "cacheB"), filepath.Join(tmp, "part")
	code, _, errs := runCLI(t, args(cacheB, part)...)
	if code != 1 || !strings.Contains(errs, "run --resume "+part) {
		t.Fatalf("refused run: exit %d, stderr %q: want 1 and how to continue", code, errs)
	}
	if _, err := os.Stat(filepath.Join(part, experiment.FinalFile)); err == nil {
		t.Fatal("the refused run wrote final.json")
	}
	refuseAfter.Store(0)
	// no --cache: the run's own (cacheB, recorded in the folder) replays what it received
	if code, out, errs := runCLI(t, "run", "--resume", part, "--api-key-env", runLLMKeyEnv); code != 0 || !strings.Contains(out+errs, "come from the cache "+cacheB) {
		t.Fatalf("resume: exit %d: %s %s", code, out, errs)
	}
	a, _ := os.ReadFile(filepath.Join(whole, experiment.FinalFile))
	b, _ := os.ReadFile(filepath.Join(part, experiment.FinalFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the resumed run's final.json differs from the uninterrupted run's")
	}
}

// `report --x model-calls|evaluations|tokens|seconds` draws the fitness curves of GA and llm-ga
// runs against a budget (the runs record every one of them); an unknown axis is a usage error.
func TestReportOnABudgetAxis(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Skip(err)
	}
	srv := knownEditServer(t, "binary-v0", p)
	root := filepath.Join(t.TempDir(), "runs")
	common := []string{"run", "--problem", "binary-v0", "--pop", "4", "--generations", "2", "--seed", "1", "--quiet"}
	if code, out, errs := runCLI(t, append(common, "--generator", "ga", "--out", filepath.Join(root, "ga"))...); code != 0 {
		t.Fatalf("ga: exit %d: %s %s", code, out, errs)
	}
	if code, out, errs := runCLI(t, append(common, "--generator", llm.GAName, "--base-url", srv.BaseURL(), "--model", "m",
		"--api-key-env", runLLMKeyEnv, "--cache", filepath.Join(t.TempDir(), "cache"), "--out", filepath.Join(root, "llm-ga"))...); code != 0 {
		t.Fatalf("llm-ga: exit %d: %s %s", code, out, errs)
	}
	for _, x := range []string{"model-calls", "evaluations", "tokens", "seconds"} {
		figs := filepath.Join(t.TempDir(), x)
		code, out, errs := runCLI(t, "report", "--x", x, "--out", figs, root)
		if code != 0 || !strings.Contains(out, filepath.Join(figs, "fitness-binary-v0-quality.png")) {
			t.Fatalf("report --x %s: exit %d: %s %s", x, code, out, errs)
		}
	}
	if code, _, errs := runCLI(t, "report", "--x", "dollars", root); code != 2 || !strings.Contains(errs, "model-calls") {
		t.Errorf("report --x dollars: exit %d, %q: want 2 naming the axes", code, errs)
	}
}

// The ablation from the command line: `run --generator llm-ga --llm-rate 0` asks the model
// nothing and writes ga's final.json of the same seed, byte for byte once config.generator and
// the individuals' origin and born (which only llm-ga records) are taken out.
func TestRunEvolveRateZeroIsTheGA(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	p, err := problems.Make("zelda-v0")
	if err != nil {
		t.Skip(err)
	}
	srv := knownEditServer(t, "zelda-v0", p)
	root := t.TempDir()
	common := []string{"run", "--problem", "zelda-v0", "--pop", "6", "--generations", "2", "--seed", "3", "--quiet"}
	if code, out, errs := runCLI(t, append(common, "--generator", "ga", "--out", filepath.Join(root, "ga"))...); code != 0 {
		t.Fatalf("ga: exit %d: %s %s", code, out, errs)
	}
	if code, out, errs := runCLI(t, append(common, "--generator", llm.GAName, "--llm-rate", "0", "--base-url", srv.BaseURL(), "--model", "m",
		"--api-key-env", runLLMKeyEnv, "--cache", filepath.Join(root, "cache"), "--out", filepath.Join(root, "llm-ga"))...); code != 0 {
		t.Fatalf("llm-ga: exit %d: %s %s", code, out, errs)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("rate 0 asked the model %d times", n)
	}
	ga := readFile(t, filepath.Join(root, "ga", experiment.FinalFile))
	lg := readFile(t, filepath.Join(root, "llm-ga", experiment.FinalFile))
	origins := regexp.MustCompile(`,"origin":"(initial|operators)","born":[0-9]+}`)
	if n := len(origins.FindAll(lg, -1)); n != 6 {
		t.Errorf("%d individuals of llm-ga's final.json have an origin, want 6", n)
	}
	lg = bytes.Replace(origins.ReplaceAll(lg, []byte("}")), []byte(`"generator": "llm-ga"`), []byte(`"generator": "ga"`), 1)
	if !bytes.Equal(ga, lg) {
		t.Errorf("llm-ga --llm-rate 0 is not ga:\n%s\n%s", ga, lg)
	}
}
