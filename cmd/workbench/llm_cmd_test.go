package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
	"pcgwb/problems/experiment"
)

// The llm group is a command tree: help, unknown and missing sub-commands and stray
// arguments get the exit statuses of the rest of the CLI.
func TestLLMCommandTree(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		stdout  string
		stderr  string
		without string
	}{
		{"no sub-command lists them", []string{"llm"}, 2, "", "generate", ""},
		{"help lists them", []string{"llm", "--help"}, 0, "prompt", "", ""},
		{"help word", []string{"llm", "help"}, 0, "test", "", ""},
		{"unknown", []string{"llm", "nope"}, 2, "", `unknown command "nope"`, ""},
		{"generate help", []string{"llm", "generate", "-h"}, 0, "-generations", "", ""},
		{"prompt help has no endpoint flags", []string{"llm", "prompt", "--help"}, 0, "-template", "", "-base-url"},
		{"test help has no prompt flags", []string{"llm", "test", "--help"}, 0, "-api-key-env", "", "-examples"},
		{"stray argument", []string{"llm", "prompt", "--problem", "zelda-v0", "extra"}, 2, "", "expected", ""},
		{"bad flag", []string{"llm", "test", "--no-such-flag"}, 2, "", "no-such-flag", ""},
		{"negative generations", []string{"llm", "generate", "--problem", "binary-v0", "--model", "m", "--generations", "-1"}, 2, "", "--generations must be >= 0", ""},
		{"negative seed", []string{"llm", "prompt", "--problem", "binary-v0", "--seed", "-1"}, 2, "", "--seed must be >= 0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errs)
			}
			if tc.without != "" && strings.Contains(out, tc.without) {
				t.Fatalf("help shows %s:\n%s", tc.without, out)
			}
		})
	}
}

// `workbench help` still lists the group with its summary.
func TestLLMListedInHelp(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	if code != 0 || !strings.Contains(out, "workbench llm       "+llmSummary) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// Cancelling the runner's context (Ctrl-C) stops `llm generate`: it exits 1 saying how to go
// on, writes no final.json, and the replies answered before are kept in the cache, so the same
// command asks only for the rest and ends as an uninterrupted run.
func TestLLMGenerateCancelKeepsAnswers(t *testing.T) {
	t.Setenv("PCGWB_LLM_TEST_KEY", llmTestKey)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	maze := llmtest.Reply{Content: "```\n" + binaryMaze + "\n```"}
	var cancelAt atomic.Int32 // the call that is cancelled; 0 never cancels
	cancelAt.Store(2)
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		if int32(c.N) == cancelAt.Load() {
			cancel()
			hold := maze
			hold.Delay = time.Hour // answered only if the client still waits: it does not
			return hold
		}
		return maze
	})
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	args := llmArgs(srv, dir, "--out", out, "--concurrency", "1", "--retries", "0")

	var stdout, stderr bytes.Buffer
	code := runContext(ctx, args, IO{Stdout: &stdout, Stderr: &stderr})
	if code != 1 || !strings.Contains(stderr.String(), "interrupted; "+llmGenerateAgain) {
		t.Fatalf("cancelled: exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, experiment.FinalFile)); err == nil {
		t.Fatal("a cancelled run wrote final.json")
	}
	if n := len(srv.Calls()); n != 2 {
		t.Fatalf("%d calls, want 2: none after the cancel", n)
	}

	cancelAt.Store(0)
	code, outText, errs := runCLI(t, args...)
	if code != 0 || !strings.Contains(outText, "requests: 3 (1 from the cache") {
		t.Fatalf("again: exit %d: %s %s", code, outText, errs)
	}
	if n := len(srv.Calls()); n != 4 {
		t.Fatalf("%d calls in all, want 4 (the answered reply is not asked again)", n)
	}

	ref := filepath.Join(dir, "ref")
	if code, outText, errs := runCLI(t, llmArgs(srv, dir, "--out", ref, "--offline")...); code != 0 {
		t.Fatalf("reference: exit %d: %s %s", code, outText, errs)
	}
	if !bytes.Equal(readFile(t, filepath.Join(out, experiment.FinalFile)), readFile(t, filepath.Join(ref, experiment.FinalFile))) {
		t.Fatal("the interrupted and continued run ends unlike an uninterrupted one")
	}
	assertNoKey(t, dir)
}
