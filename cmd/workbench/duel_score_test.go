package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/duel/llmplay"
)

// evalResult makes an eval result with the given wins, losses and draws of the model.
func evalResult(game, model string, w, l, d int) *llmplay.EvalResult {
	r := &llmplay.EvalResult{Game: game, Model: model, Opponent: "random", LLMWins: w, AgentWins: l, Draws: d}
	for i := 0; i < w+l+d; i++ {
		r.Games = append(r.Games, llmplay.EvalGame{Index: i})
	}
	return r
}

func TestDuelScoreAggregatesAndCompares(t *testing.T) {
	dir := t.TempDir()
	for _, r := range []*llmplay.EvalResult{
		evalResult("nim", "strong", 9, 1, 0), evalResult("tic-tac-toe", "strong", 8, 1, 1), evalResult("take-away", "strong", 10, 0, 0),
		evalResult("nim", "weak", 2, 8, 0), evalResult("tic-tac-toe", "weak", 1, 8, 1), evalResult("take-away", "weak", 3, 7, 0),
	} {
		if err := os.MkdirAll(filepath.Join(dir, r.Model), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := (&evalOut{path: filepath.Join(dir, r.Model, evalFileName(r))}).save(r); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCLI(t, "duel", "score", filepath.Join(dir, "strong"), filepath.Join(dir, "weak"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"strong: score 90.00%", "weak: score 20.00%", "95% interval", "difference strong − weak: +70.00 points, 95% interval [", "significant at 95%"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "duel", "score", "--json", dir)
	var v struct {
		Models     []struct{ Model string }
		Comparison *llmplay.Comparison
	}
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || len(v.Models) != 2 || v.Comparison == nil || len(v.Comparison.Games) != 3 {
		t.Fatalf("json: exit %d %+v\n%s", code, v, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.eval.json")
	if err := os.WriteFile(bad, []byte(`{"game":"x","model":"m","llm_wins":5,"games":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "duel", "score", bad); code != 1 || !strings.Contains(errs, "add up") {
		t.Errorf("inconsistent result: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "duel", "score", "--compare", "a,b", dir); code != 2 {
		t.Errorf("unknown models to compare: exit %d, want 2", code)
	}
}

// FuzzParseEvalResult: whatever the file, an eval result or an error (seed corpus in
// testdata/fuzz/FuzzParseEvalResult).
func FuzzParseEvalResult(f *testing.F) {
	b, _ := json.Marshal(evalResult("nim", "m", 1, 1, 0))
	f.Add(b)
	f.Add([]byte(`{"game":"g","model":"m","llm_wins":-1,"agent_wins":1,"games":[{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseEvalResult(b)
		if err == nil && (r.Game == "" || len(r.Games) == 0) {
			t.Fatalf("accepted %+v", r)
		}
	})
}
