package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/llm/llmtest"
)

// birdsReply answers like a chatty model: prose around a fenced drop_block program (a stable
// three-block tower).
func birdsReply(c llmtest.Call, _ int) llmtest.Reply {
	return llmtest.Reply{Content: "Sure! Here is a structure for the letter you asked for.\n```python\n" +
		"drop_block('b31', 10)\ndrop_block('b13', 10)\ndrop_block('b31', 10)\n```\nHope it stands."}
}

func TestBirdsPromptWritesCompetitionFolderAndEvaluatesIt(t *testing.T) {
	srv := llmtest.New(birdsReply)
	defer srv.Close()
	dir := t.TempDir()
	prompt := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(prompt, []byte("Build the letter <OBJECT> with drop_block calls."), 0o644); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(dir, "comp"), filepath.Join(dir, "cache")
	args := []string{"birds", "prompt", prompt, "--trials", "2", "--letters", "I,L", "--out", out,
		"--base-url", srv.BaseURL(), "--model", "fake", "--api-key-env", "PCGWB_TEST_BIRDS_KEY", "--cache", cache,
		"--classifier", "none", "--workers", "2"}
	t.Setenv("PCGWB_TEST_BIRDS_KEY", llmTestKey)
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	calls := srv.Calls()
	if len(calls) != 4 {
		t.Fatalf("%d calls, want 4 (2 letters × 2 trials)", len(calls))
	}
	for _, c := range calls {
		// Not told otherwise, the requests are the 2024 organisers': seed 42, temperature 1.
		if c.Request.Seed == nil || *c.Request.Seed != 42 || c.Request.Temperature != 1 {
			t.Fatalf("request seed %v, temperature %v; want 42 and 1", c.Request.Seed, c.Request.Temperature)
		}
		if c.Authorization != "Bearer "+llmTestKey {
			t.Fatalf("authorization %q", c.Authorization)
		}
	}
	assertNoKey(t, dir)
	if strings.Contains(stdout+stderr, llmTestKey) {
		t.Fatal("the key was printed")
	}
	asked := map[string]bool{}
	for _, c := range calls {
		asked[c.LastUser()] = true
	}
	for _, want := range []string{"Build the letter I with drop_block calls.", "Build the letter L with drop_block calls."} {
		if !asked[want] {
			t.Errorf("no call asked %q; asked %v", want, asked)
		}
	}
	for _, l := range []string{"I", "L"} {
		for _, n := range []string{"1", "2"} {
			p := filepath.Join(out, "mine", "raw", l, "mine_"+l+"_"+n+".txt")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("answer file: %v", err)
			}
			if !strings.Contains(string(b), "drop_block('b13', 10)") {
				t.Errorf("%s does not hold the reply as received: %q", p, b)
			}
		}
	}
	// one level per answer; one stability file per letter
	for stage, want := range map[string]int{"levels": 4, "stability": 2} {
		var files []string
		filepath.WalkDir(filepath.Join(out, "mine", stage), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if len(files) != want {
			t.Errorf("%s: %d files, want %d: %v", stage, len(files), want, files)
		}
	}
	for _, want := range []string{"team mine in " + out + ": 4 answers written", "4 of 4 written", "stability  mine: mean"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}

	// The same run replays from the cache without the server.
	srv.Close()
	out2 := filepath.Join(dir, "replay")
	args2 := append([]string{}, args...)
	for i := range args2 {
		if args2[i] == out {
			args2[i] = out2
		}
	}
	code, stdout, stderr = runCLI(t, append(args2, "--offline", "--no-evaluate")...)
	if code != 0 || !strings.Contains(stdout, "4 answers written") || !strings.Contains(stdout, "4 from the cache") {
		t.Fatalf("offline replay: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestBirdsPromptUsageErrors(t *testing.T) {
	dir := t.TempDir()
	noObject := filepath.Join(dir, "plain.txt")
	os.WriteFile(noObject, []byte("Build a letter."), 0o644)
	for _, args := range [][]string{
		{"birds", "prompt"},
		{"birds", "prompt", noObject, "--letters", "1-9", "--model", "m"},
		{"birds", "prompt", noObject, "--trials", "0", "--model", "m"},
		{"birds", "prompt", filepath.Join(dir, "missing.txt"), "--model", "m"},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
	// A prompt without <OBJECT> would ask the same thing for every letter.
	if code, _, errs := runCLI(t, "birds", "prompt", noObject, "--model", "m", "--out", filepath.Join(dir, "o"), "--cache", ""); code == 0 ||
		!strings.Contains(errs, "<OBJECT>") {
		t.Errorf("prompt without <OBJECT>: exit %d: %s", code, errs)
	}
}

func TestBirdsPromptMultiTurn(t *testing.T) {
	srv := llmtest.New(birdsReply)
	defer srv.Close()
	dir := t.TempDir()
	prompt, more := filepath.Join(dir, "two.txt"), filepath.Join(dir, "more")
	os.WriteFile(prompt, []byte("Letter <OBJECT>, please."), 0o644)
	os.MkdirAll(more, 0o755)
	os.WriteFile(filepath.Join(more, "1.txt"), []byte("Make it more stable."), 0o644)
	code, stdout, stderr := runCLI(t, "birds", "prompt", prompt, "--turns", more, "--trials", "1", "--letters", "T",
		"--out", filepath.Join(dir, "comp"), "--team", "multi", "--base-url", srv.BaseURL(), "--model", "fake",
		"--cache", "", "--no-evaluate", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	calls := srv.Calls()
	if len(calls) != 2 || len(calls[1].Request.Messages) != 3 || calls[1].LastUser() != "Make it more stable." {
		t.Fatalf("want a two-turn conversation, got %d calls: %+v", len(calls), calls)
	}
	if _, err := os.Stat(filepath.Join(dir, "comp", "multi", "raw", "T", "multi_T_1.txt")); err != nil {
		t.Fatal(err)
	}
}
