package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/llm"
	"pcgwb/problems"
	"pcgwb/problems/experiment"
)

// `run`'s LLM generators run under the command's context (main's is cancelled by Ctrl-C and
// SIGTERM), not a signal handler of their own: cancelled, they stop with exit 1, say how to
// continue and leave no final.json.
func TestRunLLMStopsWhenCancelled(t *testing.T) {
	t.Setenv(runLLMKeyEnv, llmTestKey)
	p, err := problems.Make("binary-v0")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	evolve := func(gen, out string) []string {
		srv := knownEditServer(t, "binary-v0", p)
		return []string{"run", "--generator", gen, "--problem", "binary-v0", "--pop", "4", "--generations", "2", "--seed", "3",
			"--llm-rate", "1", "--base-url", srv.BaseURL(), "--model", "m", "--api-key-env", runLLMKeyEnv,
			"--cache", filepath.Join(tmp, gen+"-cache"), "--retries", "0", "--quiet", "--out", out}
	}
	tests := []struct {
		name string
		out  string
		args func(out string) []string
		want string
	}{
		{"llm", filepath.Join(tmp, "llm"), func(out string) []string {
			return llmRunArgs(mazeServer(t, nil), filepath.Join(tmp, "llm-cache"), out)
		}, "interrupted; continue with: workbench run --resume"},
		{llm.GAName, filepath.Join(tmp, "ga"), func(out string) []string { return evolve(llm.GAName, out) },
			"interrupted; continue with: workbench run --resume"},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args(tt.out) // one test server for both commands: the run records its address
			code, out, errs := runCLIContext(ctx, args...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Fatalf("exit %d, stderr %q, stdout %q (want 1 and %q)", code, errs, out, tt.want)
			}
			if _, err := os.Stat(filepath.Join(tt.out, experiment.FinalFile)); err == nil {
				t.Error("a cancelled run wrote final.json")
			}
			// not cancelled, the same command finishes the run
			if code, out, errs := runCLIContext(context.Background(), args...); code != 0 {
				t.Fatalf("the same command, not cancelled: exit %d: %s %s", code, out, errs)
			}
			if _, err := os.Stat(filepath.Join(tt.out, experiment.FinalFile)); err != nil {
				t.Error(err)
			}
		})
	}
}
