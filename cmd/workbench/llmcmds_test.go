package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

const llmTestKey = "sk-cli-test-KEY-987654321"

// binaryMaze is a valid 14×14 binary-v0 level in the prompt's characters.
var binaryMaze = strings.Join([]string{
	"..............",
	"#############.",
	"..............",
	".#############",
	"..............",
	"#############.",
	"..............",
	".#############",
	"..............",
	"#############.",
	"..............",
	".#############",
	"..............",
	"##############",
}, "\n")

func llmArgs(srv *llmtest.Server, dir string, extra ...string) []string {
	return append([]string{"llm", "generate", "--problem", "binary-v0", "--n", "3", "--base-url", srv.BaseURL(),
		"--model", "m", "--api-key-env", "PCGWB_LLM_TEST_KEY", "--cache", filepath.Join(dir, "cache"),
		"--temperature", "0.5", "--seed", "7", "--quiet"}, extra...)
}

func TestLLMGenerateWritesARunAndReplaysOffline(t *testing.T) {
	t.Setenv("PCGWB_LLM_TEST_KEY", llmTestKey)
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if seen == 0 && c.N%2 == 0 {
			return llmtest.Reply{Status: 503}
		}
		return llmtest.Reply{Content: "My maze:\n```\n" + binaryMaze + "\n```"}
	})
	defer srv.Close()
	dir := t.TempDir()
	run1 := filepath.Join(dir, "run1")
	code, out, errs := runCLI(t, llmArgs(srv, dir, "--out", run1)...)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if !strings.Contains(out, "3 asked, 3 valid") || !strings.Contains(out, "run folder: "+run1) {
		t.Fatalf("summary:\n%s", out)
	}
	f, err := experiment.ReadFinal(run1)
	if err != nil || len(f.Population) != 3 || f.Config.Generator != "llm" || f.BestFitness != 1 {
		t.Fatalf("final: %v %+v", err, f)
	}
	for _, c := range srv.Calls() {
		if c.Authorization != "Bearer "+llmTestKey {
			t.Fatalf("key not sent: %q", c.Authorization)
		}
		if c.Request.Seed == nil || *c.Request.Seed < 7 || *c.Request.Seed > 9 || c.Request.Model != "m" {
			t.Fatalf("request %+v", c.Request)
		}
	}
	calls := len(srv.Calls())

	run2 := filepath.Join(dir, "run2")
	code, out, errs = runCLI(t, llmArgs(srv, dir, "--out", run2, "--offline")...)
	if code != 0 || len(srv.Calls()) != calls {
		t.Fatalf("offline replay: exit %d, %d new calls: %s %s", code, len(srv.Calls())-calls, out, errs)
	}
	a, _ := os.ReadFile(filepath.Join(run1, experiment.FinalFile))
	b, _ := os.ReadFile(filepath.Join(run2, experiment.FinalFile))
	if !bytes.Equal(a, b) {
		t.Fatal("the offline replay differs")
	}
	code, _, errs = runCLI(t, llmArgs(srv, dir, "--out", filepath.Join(dir, "run3"), "--offline", "--n", "4")...)
	if code != 1 || !strings.Contains(errs, "offline") || !strings.Contains(errs, "not in the cache") {
		t.Fatalf("offline miss: exit %d: %s", code, errs)
	}

	// No file anywhere holds the key.
	assertNoKey(t, dir)
}

func TestLLMUsageErrors(t *testing.T) {
	t.Setenv("OPENAI_MODEL", "")
	srv := llmtest.New(llmtest.Text("OK"))
	defer srv.Close()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"llm"},
		{"llm", "nope"},
		{"llm", "generate", "--problem", "binary-v0", "--base-url", srv.BaseURL()},
		llmArgs(srv, dir, "--problem", "nosuch-v0"),
		llmArgs(srv, dir, "--n", "0"),
		llmArgs(srv, dir, "--temperature", "hot"),
		llmArgs(srv, dir, "--fitness", "speed"),
		llmArgs(srv, dir, "--offline", "--cache", ""),
		{"llm", "generate", "--problem", "binary-v0", "--model", "m", "--base-url", "ftp://x", "--quiet"},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s)", args, code, errs)
		}
	}
}

func TestLLMPromptAndTest(t *testing.T) {
	code, out, errs := runCLI(t, "llm", "prompt", "--problem", "zelda-v0", "--examples", "1", "--control")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"template zelda", "=== system", "=== user", "Example 1", "Target: the shortest walk"} {
		if !strings.Contains(out, want) {
			t.Fatalf("prompt lacks %q:\n%s", want, out)
		}
	}
	srv := llmtest.New(llmtest.Text("OK"))
	defer srv.Close()
	code, out, errs = runCLI(t, "llm", "test", "--base-url", srv.BaseURL(), "--model", "m")
	if code != 0 || !strings.Contains(out, `answered "OK"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}
