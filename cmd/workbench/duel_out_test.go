package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pcgwb/games/duel/learn"
	"pcgwb/games/duel/llmplay"
	"pcgwb/games/duel/script"
	"pcgwb/internal/folderlock"
	"pcgwb/llm/llmtest"
)

func readEvalFile(t *testing.T, path string) *llmplay.EvalResult {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r llmplay.EvalResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestDuelEvalOutSurvives: --out makes a missing folder before the first request; the result
// and its costs are on disk after every game; a run stopped by a dead endpoint keeps its games
// and a rerun continues from them; a second eval on a locked folder pays nothing.
func TestDuelEvalOutSurvives(t *testing.T) {
	var calls atomic.Int32
	var failAfter atomic.Int32
	failAfter.Store(1 << 30)
	srv := llmtest.New(func(c llmtest.Call, seen int) llmtest.Reply {
		if calls.Add(1) > failAfter.Load() {
			return llmtest.Reply{Status: 401} // a refused request stops the run
		}
		return duelMover(c, 1)
	})
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "results", "fake") // does not exist yet
	path := filepath.Join(out, "tic-tac-toe.fake.eval.json")
	args := func(games string) []string {
		return append([]string{"duel", "eval", "tic-tac-toe", "--opponent", "mcts-5", "--strength-games", "0", "--games", games,
			"--out", out, "--price-in", "1000000", "--price-out", "2000000"}, duelEndpoint(srv, "")...)
	}
	// the endpoint refuses from its 4th request: the run stops within the second game
	failAfter.Store(3)
	code, stdout, errs := runCLI(t, args("4")...)
	if code == 0 {
		t.Fatalf("a refusing endpoint did not stop the run:\n%s\n%s", stdout, errs)
	}
	r := readEvalFile(t, path)
	if len(r.Games) == 0 || len(r.Games) >= 4 || r.Complete() || r.Planned != 4 {
		t.Fatalf("after the stop the file holds %d of %d games", len(r.Games), r.Planned)
	}
	if r.Costs == nil || r.Costs.Requests == 0 || r.Costs.TokensIn == 0 || r.Costs.TokensOut == 0 || r.Costs.Price <= 0 {
		t.Fatalf("costs not saved with the games: %+v", r.Costs)
	}
	played, before := len(r.Games), *r.Costs

	// the rerun continues: the earlier games are not asked again, and the costs add up
	failAfter.Store(1 << 30)
	calls.Store(0)
	code, stdout, errs = runCLI(t, args("4")...)
	if code != 0 {
		t.Fatalf("rerun: exit %d\n%s\n%s", code, stdout, errs)
	}
	r = readEvalFile(t, path)
	if len(r.Games) != 4 || !r.Complete() {
		t.Fatalf("rerun left %d games", len(r.Games))
	}
	for k, eg := range r.Games {
		if eg.Index != k {
			t.Errorf("game %d has index %d", k, eg.Index)
		}
	}
	if r.Costs.Requests != before.Requests+int(calls.Load()) || r.Costs.Price <= before.Price {
		t.Errorf("costs %+v after %d more requests on top of %+v", r.Costs, calls.Load(), before)
	}
	if played+int(calls.Load()) < 4 {
		t.Errorf("the rerun made %d requests for %d games left", calls.Load(), 4-played)
	}

	// another opponent in the same folder is refused before any request
	calls.Store(0)
	code, _, errs = runCLI(t, append([]string{"duel", "eval", "tic-tac-toe", "--opponent", "random", "--strength-games", "0", "--games", "4", "--out", out}, duelEndpoint(srv, "")...)...)
	if code == 0 || calls.Load() != 0 || !strings.Contains(errs, "another --out folder") {
		t.Errorf("another opponent: exit %d, %d requests: %s", code, calls.Load(), errs)
	}

	// a folder another process holds: refused before any request
	lock, err := folderlock.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	calls.Store(0)
	code, _, errs = runCLI(t, args("6")...)
	if code == 0 || calls.Load() != 0 || !strings.Contains(errs, "another `duel eval`") {
		t.Errorf("locked folder: exit %d, %d requests: %s", code, calls.Load(), errs)
	}
}

// TestDuelEvalRecordsOpponentStrength: the result says what the opponent is worth.
func TestDuelEvalRecordsOpponentStrength(t *testing.T) {
	srv := llmtest.New(duelMover)
	defer srv.Close()
	out := t.TempDir()
	code, stdout, errs := runCLI(t, append([]string{"duel", "eval", "take-away", "--games", "2", "--strength-games", "2", "--out", out}, duelEndpoint(srv, "")...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	r := readEvalFile(t, filepath.Join(out, "take-away.fake.eval.json"))
	if r.Opponent == "random" {
		t.Error("the default opponent is plain random")
	}
	st := r.OpponentStrength
	if st == nil || st.Agent != r.Opponent || len(st.Against) != 3 {
		t.Fatalf("strength %+v", st)
	}
	for i, want := range learn.StrengthRefs {
		row := st.Against[i]
		if row.Opponent != want || row.WinRate.N != 2 || row.WinRate.Lo > row.WinRate.Rate || row.WinRate.Hi < row.WinRate.Rate {
			t.Errorf("row %d: %+v", i, row)
		}
	}
}

// TestDuelGenerateKeepsEarlierBatches: a second batch in the same folder numbers its games
// after the first's and keeps the first's records; an explicit --first that would overwrite
// is refused before any request.
func TestDuelGenerateKeepsEarlierBatches(t *testing.T) {
	prog, err := script.BuiltinProgram("take-away", script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		calls.Add(1)
		u := c.LastUser()
		switch {
		case strings.Contains(u, "Invent a new"):
			return llmtest.Reply{Content: "# Take Away\nRemove stones."}
		case strings.Contains(u, "action indices"):
			return llmtest.Reply{Content: "Action i removes i+1 stones."}
		}
		return llmtest.Reply{Content: "```python\n" + string(prog.Source()) + "```\n"}
	})
	defer srv.Close()
	out := t.TempDir()
	gen := func(extra ...string) (int, string, string) {
		return runCLI(t, append(append([]string{"duel", "generate", "--n", "1", "--skip-skill", "--out", out}, extra...), duelEndpoint(srv, t.TempDir())...)...)
	}
	if code, so, se := gen(); code != 0 {
		t.Fatalf("first batch: %d\n%s\n%s", code, so, se)
	}
	first, err := os.ReadFile(filepath.Join(out, "gen-001.star"))
	if err != nil {
		t.Fatal(err)
	}
	if code, so, se := gen("--dedup", "1.01"); code != 0 {
		t.Fatalf("second batch: %d\n%s\n%s", code, so, se)
	}
	if b, err := os.ReadFile(filepath.Join(out, "gen-001.star")); err != nil || string(b) != string(first) {
		t.Error("the second batch touched gen-001.star")
	}
	var recs []struct {
		Name string `json:"name"`
	}
	b, err := os.ReadFile(filepath.Join(out, "generated.json"))
	if err != nil || json.Unmarshal(b, &recs) != nil || len(recs) != 2 || recs[0].Name != "gen-001" || recs[1].Name != "gen-002" {
		t.Errorf("generated.json holds %+v (%v)", recs, err)
	}
	calls.Store(0)
	code, _, errs := gen("--first", "1")
	if code == 0 || calls.Load() != 0 || !strings.Contains(errs, "gen-001 from an earlier batch") {
		t.Errorf("--first 1 again: exit %d, %d requests: %s", code, calls.Load(), errs)
	}
}

// TestDuelTerminalTextIsEscaped: a script's title, rules, board and labels reach the terminal
// with their control characters escaped, and players are numbered 1 and 2.
func TestDuelTerminalTextIsEscaped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "evil.star")
	src := `TITLE = "Evil\x1b]0;pwned\x07"
RULES = "Take stones.\x1b[2J\nverdict: accepted\r"
NUM_ACTIONS = 2
def initial_state(seed):
    return {"n": 5, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [a for a in range(2) if a + 1 <= s["n"]]
def apply(s, a):
    return {"n": s["n"] - a - 1, "p": 1 - s["p"]}
def outcome(s):
    return (1 - s["p"]) if s["n"] == 0 else None
def render(s):
    return "\x1b[31m" + "o" * s["n"] + "\x1b[0m"
def action_label(s, a):
    return "take %d\x1b[1A" % (a + 1)
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "duel", "show", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("control characters reached the terminal: %q", out)
	}
	for _, want := range []string{`Evil\x1b]0;pwned\x07`, `\x1b[31mooooo\x1b[0m`, `take 1\x1b[1A`, "Player 1 to move"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in %q", want, out)
		}
	}
	code, out, _ = runCLI(t, "duel", "match", path, "--agents", "first,first", "--games", "1", "--moves")
	if code != 0 || strings.ContainsAny(out, "\x1b\x07\r") || !strings.Contains(out, "(Player 1) vs first (Player 2)") {
		t.Errorf("match: exit %d: %q", code, out)
	}
}

// TestDuelTrainThenEvalPlaysTheTrainedOpponent: `duel train` leaves checkpoints and a benchmark
// opponent chosen among them, a rerun continues the folder, and `duel eval` plays that
// opponent and records the strength training measured.
func TestDuelTrainThenEvalPlaysTheTrainedOpponent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "train")
	train := func(iters string) (int, string, string) {
		return runCLI(t, "duel", "train", "take-away", "--out", dir, "--iterations", iters, "--games", "4", "--simulations", "8",
			"--hidden", "8", "--play-iterations", "10", "--strength-games", "2", "--quiet")
	}
	code, out, errs := train("1")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = train("3")
	if code != 0 || !strings.Contains(out, "3 iterations") || !strings.Contains(out, "benchmark opponent: net-ckpt-") {
		t.Fatalf("continued train: exit %d\n%s\n%s", code, out, errs)
	}
	for _, f := range []string{"ckpt-001.json", "ckpt-002.json", "ckpt-003.json", learn.TrainFile, learn.BenchmarkFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	bench, _, err := learn.LoadBenchmark(dir)
	if err != nil || bench.Strength == nil || len(bench.Strength.Against) != 3 {
		t.Fatalf("benchmark %+v: %v", bench, err)
	}
	srv := llmtest.New(duelMover)
	defer srv.Close()
	res := t.TempDir()
	code, out, errs = runCLI(t, append([]string{"duel", "eval", "take-away", "--opponent", "trained:" + dir, "--games", "2", "--out", res}, duelEndpoint(srv, "")...)...)
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out, errs)
	}
	r := readEvalFile(t, filepath.Join(res, "take-away.fake.eval.json"))
	if r.Opponent != bench.Agent || r.OpponentStrength == nil || r.OpponentStrength.Agent != bench.Agent {
		t.Errorf("eval played %s (strength %+v), want %s", r.Opponent, r.OpponentStrength, bench.Agent)
	}
	if r.AgentFaults != 0 || r.EnvFaults != 0 {
		t.Errorf("faults in the games against the trained opponent: %+v", r)
	}
}

// TestDuelTargetsWritesTheTable: `duel targets` measures a training folder against the targets
// and writes one table row with intervals and verdicts, the perfect player's record and the
// best response's estimate (take-away: the first player wins by force, so 100 % as first).
func TestDuelTargetsWritesTheTable(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "take-away")
	code, out, errs := runCLI(t, "duel", "train", "take-away", "--out", dir, "--iterations", "1", "--games", "2", "--simulations", "4",
		"--hidden", "8", "--play-iterations", "4", "--strength-games", "0", "--quiet")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errs)
	}
	js := filepath.Join(root, "targets.json")
	code, out, errs = runCLI(t, "duel", "targets", "take-away", "--dir", root, "--random-games", "3", "--mcts-games", "2", "--ceiling-games", "2",
		"--best-response-samples", "3", "--json", js, "--quiet")
	if code != 0 {
		t.Fatalf("targets: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "| take-away | ") || !strings.Contains(out, "undecided") {
		t.Errorf("table:\n%s", out)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rows []learn.TargetRow
	if err := json.Unmarshal(b, &rows); err != nil || len(rows) != 1 || rows[0].VsRandom.WinRate.N != 3 || rows[0].VsMCTS.WinRate.N != 2 ||
		rows[0].Ceiling == nil || rows[0].Ceiling.WinRate.N != 2 {
		t.Fatalf("rows %s: %v", b, err)
	}
	if br := rows[0].BestResponse; br == nil || br.Samples != 3 || br.Seat[0] != 1 || br.Mean < 0.5 || br.Mean > 1 ||
		!strings.Contains(out, fmt.Sprintf("| %.1f %% (100.0, %.1f; 3 samples a position) |", 100*br.Mean, 100*br.Seat[1])) {
		t.Errorf("best response %+v; table:\n%s", br, out)
	}
	// --table writes the saved rows again, measuring nothing
	code, again, errs := runCLI(t, "duel", "targets", "--table", js)
	if code != 0 || !strings.HasPrefix(out, again) {
		t.Errorf("--table: exit %d\n%s\n%s\nwant the start of\n%s", code, again, errs, out)
	}
	// a folder trained on another game is refused
	if err := os.Rename(dir, filepath.Join(root, "nim")); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "duel", "targets", "nim", "--dir", root, "--quiet"); code == 0 || !strings.Contains(errs, "another script") {
		t.Errorf("targets measured take-away's training as nim's: exit %d, %s", code, errs)
	}
}
