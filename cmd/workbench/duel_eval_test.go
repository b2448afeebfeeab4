package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/script"
	"pcgwb/llm/llmtest"
)

// duelMover plays the first legal move of each turn, after a malformed reply on the first
// attempt of every conversation (the player must ask again and the cache must not repeat it).
func duelMover(c llmtest.Call, seen int) llmtest.Reply {
	if seen == 0 {
		return llmtest.Reply{Content: "Move: 4"}
	}
	_, after, _ := strings.Cut(c.LastUser(), "Your legal moves: ")
	after = strings.TrimLeft(after, "[")
	end := strings.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
	return llmtest.Reply{Content: after[:max(end, 0)]}
}

func duelEndpoint(srv *llmtest.Server, cache string) []string {
	return []string{"--base-url", srv.BaseURL(), "--model", "fake", "--api-key-env", "PCGWB_TEST_NO_KEY", "--cache", cache,
		"--retries", "0", "--quiet"}
}

func TestDuelEvalPlaysTheModelAndScoresIt(t *testing.T) {
	srv := llmtest.New(duelMover)
	defer srv.Close()
	cache := t.TempDir()
	args := append([]string{"duel", "eval", "tic-tac-toe", "--opponent", "random", "--games", "4", "--strength-games", "0"}, duelEndpoint(srv, cache)...)
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"tic-tac-toe: fake vs random, 4 games (model first in 2)", "model faults 0",
		"gg-bench score (faults left out): ", "strict score (model faults count as losses): "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	calls := srv.Calls()
	// the first turn's bad reply is asked again with the identical prompt
	if len(calls) < 2 || calls[0].Prompt() != calls[1].Prompt() {
		t.Fatalf("%d calls: the first move should take a bad reply and an identical retry", len(calls))
	}
	for _, c := range calls {
		if !strings.Contains(c.Prompt(), "Reply with the number of your move") {
			t.Fatalf("not a turn prompt: %q", c.Prompt())
		}
	}

	// Replayed offline: the same games, every reply from the cache.
	srv.Close()
	code, out2, errs := runCLI(t, append(args, "--offline")...)
	if code != 0 {
		t.Fatalf("offline: exit %d\n%s\n%s", code, out2, errs)
	}
	result := func(s string) string { return s[:strings.Index(s, "requests:")] }
	if result(out2) != result(out) || !strings.Contains(out2, "0 retries") || strings.Contains(out2, " 0 from the cache") {
		t.Errorf("offline replay differs:\n%s\nvs\n%s", out2, out)
	}
	// A request the cache lacks stops the run instead of faulting the model.
	code, _, errs = runCLI(t, append(args, "--offline", "--games", "6")...)
	if code == 0 || !strings.Contains(errs, "offline") {
		t.Errorf("offline miss: exit %d: %s", code, errs)
	}
}

func TestDuelEvalCountsModelFaults(t *testing.T) {
	srv := llmtest.New(llmtest.Text("I resign."))
	defer srv.Close()
	code, out, errs := runCLI(t, append([]string{"duel", "eval", "tic-tac-toe", "--opponent", "random", "--games", "2", "--strength-games", "0"},
		duelEndpoint(srv, "")...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"model faults 2", "gg-bench score: none", "strict score (model faults count as losses): 0.00%"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if n := len(srv.Calls()); n != 2*llmplay.DefaultRetries {
		t.Errorf("%d calls, want %d (5 attempts, one move in each game)", n, 2*llmplay.DefaultRetries)
	}
}

func TestDuelGenerateRepairsAndDeduplicates(t *testing.T) {
	prog, err := script.BuiltinProgram("tic-tac-toe", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	src := string(prog.Source())
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		u := c.LastUser()
		switch {
		case strings.Contains(u, "Invent a new"):
			return llmtest.Reply{Content: "# Three in a Row\nObjective: three marks in a line."}
		case strings.Contains(u, "Write the complete implementation"):
			return llmtest.Reply{Content: "I will write it later."}
		case strings.Contains(u, "This implementation was rejected"):
			return llmtest.Reply{Content: "Here it is:\n```python\n" + src + "```\n"}
		case strings.Contains(u, "action indices"):
			return llmtest.Reply{Content: "Action i marks cell i, row by row."}
		}
		return llmtest.Reply{Content: "?"}
	})
	defer srv.Close()
	out := t.TempDir()
	code, stdout, errs := runCLI(t, append([]string{"duel", "generate", "--n", "2", "--skip-skill", "--out", out},
		duelEndpoint(srv, t.TempDir())...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	if !strings.Contains(stdout, "2 generated, 2 accepted, 1 kept after de-duplication") {
		t.Errorf("unexpected summary:\n%s", stdout)
	}
	// per game: rulebook, a reply without code, the repaired code, the action text
	if n := len(srv.Calls()); n != 8 {
		t.Errorf("%d calls, want 8", n)
	}
	b, err := os.ReadFile(filepath.Join(out, "gen-001.star"))
	if err != nil || string(b) != strings.TrimRight(src, " \t\r\n")+"\n" {
		t.Errorf("gen-001.star: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "gen-002.star")); err == nil {
		t.Error("the duplicate game was written")
	}
	if b, err := os.ReadFile(filepath.Join(out, "gen-001.actions.txt")); err != nil || !strings.Contains(string(b), "marks cell") {
		t.Errorf("action text: %q %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "generated.json")); err != nil || strings.Count(string(b), `"accepted": true`) != 2 {
		t.Errorf("generated.json: %v\n%s", err, b)
	}
	// The generated game plays under eval with its own rulebook and action text.
	srv2 := llmtest.New(duelMover)
	defer srv2.Close()
	code, stdout, errs = runCLI(t, append([]string{"duel", "eval", filepath.Join(out, "gen-001.star"), "--games", "2", "--opponent", "random", "--strength-games", "0",
		"--rules", filepath.Join(out, "gen-001.rules.md"), "--actions", filepath.Join(out, "gen-001.actions.txt")}, duelEndpoint(srv2, "")...)...)
	if code != 0 || !strings.Contains(stdout, "model faults 0") {
		t.Fatalf("eval of the generated game: exit %d\n%s\n%s", code, stdout, errs)
	}
	if c := srv2.Calls(); len(c) == 0 || !strings.Contains(c[0].Prompt(), "Three in a Row") || !strings.Contains(c[0].Prompt(), "marks cell") {
		t.Error("the rulebook or action text was not shown to the model")
	}
}
