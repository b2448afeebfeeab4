package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pcgwb/llm"
	"pcgwb/llm/llmtest"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
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
