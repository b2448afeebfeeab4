package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/games/duel"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
)

// duelScript writes a small game, a race to 5 adding 1 or 2, with the given initial_state body.
func duelScript(t *testing.T, initialBody string) string {
	t.Helper()
	src := `NUM_ACTIONS = 2
OBS_SIZE = 1
def initial_state(seed):
` + initialBody + `
    return {"n": 0, "p": 0}
def to_move(s):
    return s["p"]
def legal_actions(s):
    return [0, 1]
def apply(s, a):
    return {"n": s["n"] + 1 + a, "p": 1 - s["p"]}
def outcome(s):
    return 1 - s["p"] if s["n"] >= 5 else None
def observe(s, player):
    return [s["n"]]
def render(s):
    return "n=%d" % s["n"]
def action_label(s, a):
    return "add %d" % (a + 1)
`
	path := filepath.Join(t.TempDir(), "race.star")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDuelListAndShow(t *testing.T) {
	code, out, errs := runCLI(t, "duel", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range script.Builtins() {
		if !strings.Contains(out, name) {
			t.Errorf("%s not listed", name)
		}
	}
	if n := len(script.Builtins()); n < 10 {
		t.Errorf("%d built-in games, want at least 10", n)
	}
	code, out, errs = runCLI(t, "duel", "show", "nim")
	if code != 0 || !strings.Contains(out, "take 1 stone from heap 0") || !strings.Contains(out, "normal play") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
}

func TestDuelUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"duel"}, {"duel", "nope"}, {"duel", "validate"}, {"duel", "play", "nim", "--as", "3"}, {"duel", "match", "nim", "--agents", "random"}} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runCLI(t, "duel", "show", "no-such-game"); code != 1 || !strings.Contains(errs, "no built-in game") {
		t.Errorf("unknown game: exit %d %s", code, errs)
	}
}

// TestDuelValidateInAChild runs the default path: the filters in a sandbox child process (this
// test binary, re-executed).
func TestDuelValidateInAChild(t *testing.T) {
	code, out, errs := runCLI(t, "duel", "validate", "nim", "--skip-skill", "--playouts", "30")
	if code != 0 || !strings.Contains(out, "verdict: accepted") || !strings.Contains(out, "playouts") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
	loop := duelScript(t, "    for i in range(1000000):\n        for j in range(1000000):\n            pass")
	code, out, errs = runCLI(t, "duel", "validate", loop)
	if code != 1 || !strings.Contains(out, "rejected by the execution filter") || !strings.Contains(out, "steps fault") {
		t.Fatalf("endless loop: exit %d:\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "rejected by the execution filter") {
		t.Errorf("stderr %q", errs)
	}
	missing := filepath.Join(t.TempDir(), "missing.star")
	if code, _, _ := runCLI(t, "duel", "validate", missing); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

// TestDuelValidateSurvivesAKilledChild switches the in-process watchdog off, so a script that
// keeps doubling a list is only stopped by the child's OS memory limit: the child dies and the
// workbench reports which filter was running.
func TestDuelValidateSurvivesAKilledChild(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceDetector {
		t.Skip("a -race child cannot start under a 64 MiB address-space limit; make test runs this")
	}
	bomb := duelScript(t, "    l = [0]\n    for i in range(64):\n        l = l + l")
	// The per-call CPU limit is raised out of the way: the doubling is stopped by memory, and on a
	// busy machine 2 s of CPU could end it first (a timeout, not what this test is about).
	code, out, errs := runCLI(t, "duel", "validate", bomb, "--memory", "64", "--script-memory", "1000000", "--call-cpu", "60s")
	if code != 1 || !strings.Contains(out, "rejected by the execution filter") || !strings.Contains(out, "memory fault") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
}

func TestDuelValidateJSONInProcess(t *testing.T) {
	code, out, errs := runCLI(t, "duel", "validate", "--in-process", "--json", "--playouts", "20", "--skill-agents", "random,mcts-30", "take-away")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep validate.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Passed || len(rep.Checks) != len(validate.Filters) || rep.Skill == nil || rep.BenchmarkOpponent != "random" {
		t.Fatalf("%+v", rep)
	}
}

func TestDuelPlayAgainstAnAgent(t *testing.T) {
	// the agent plays the lowest legal cell; the person undoes a move, types a bad one, asks for
	// the rules, and wins on the rising diagonal
	code, out, errs := runCLIInput(t, "4\nu\nzz\nr\nX at row 2, column 2\n2\n6\n", "duel", "play", "tic-tac-toe", "--agent", "first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"you are Player 1", "first plays 0: O at row 1, column 1", `"zz" is not a legal move`, "3x3 grid", "you win!", "moves: [4 0 2 1 6]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDuelPlayByCell: a move can be typed as a cell of a grid board ("@row,column"), as the
// Games tab clicks it; a cell without a legal move, or a board that is not a grid, says so.
func TestDuelPlayByCell(t *testing.T) {
	code, out, errs := runCLIInput(t, "@2,2\n@1,1\n@1,3\n@3,1\n", "duel", "play", "tic-tac-toe", "--agent", "first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"no legal move on row 1, column 1", "you win!", "moves: [4 0 2 1 6]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLIInput(t, "@1,1\nq\n", "duel", "play", "nim", "--agent", "first")
	if code != 0 || !strings.Contains(out, "not a grid") {
		t.Errorf("nim: exit %d:\n%s", code, out)
	}
}

func TestDuelMatchTournamentLadder(t *testing.T) {
	code, out, errs := runCLI(t, "duel", "match", "take-away", "--agents", "mcts-50,random", "--games", "2", "--moves")
	if code != 0 || !strings.Contains(out, "game 1: random (Player 1) vs mcts-50 (Player 2)") || !strings.Contains(out, "> take") {
		t.Fatalf("match: exit %d:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "duel", "tournament", "nim", "--agents", "random,mcts-20", "--games", "4", "--quiet")
	if code != 0 || !strings.Contains(out, "overall") || !strings.Contains(out, "mcts-20") {
		t.Fatalf("tournament: exit %d:\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "duel", "ladder", "take-away", "--iterations", "5,20", "--games", "2", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("ladder: exit %d: %s", code, errs)
	}
	var tour duel.Tournament
	if err := json.Unmarshal([]byte(out), &tour); err != nil || strings.Join(tour.Agents, ",") != "random,mcts-5,mcts-20" || len(tour.Pairs) != 3 {
		t.Fatalf("ladder: %v %+v", err, tour)
	}
}

func TestDuelBench(t *testing.T) {
	code, out, errs := runCLI(t, "duel", "bench", "tic-tac-toe", "nim", "--positions", "2", "--target", "10s")
	if code != 0 || !strings.Contains(out, "rollouts/s") || !strings.Contains(out, "nim") {
		t.Fatalf("exit %d:\n%s%s", code, out, errs)
	}
}

// runCLIInput is runCLI with the given standard input.
func runCLIInput(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runContext(context.Background(), args, IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// TestDuelValidateRecordsTheBenchmarkOpponentForEval: validate --save records the opponent
// with the game, and eval plays it unless --opponent says otherwise.
func TestDuelValidateRecordsTheBenchmarkOpponentForEval(t *testing.T) {
	path := duelScript(t, "    pass")
	code, out, errs := runCLI(t, "duel", "validate", path, "--save", "--playouts", "30", "--skill-agents", "first,mcts-50", "--skill-games", "6")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(strings.TrimSuffix(path, ".star") + ".validate.json")
	var rep validate.Report
	if err != nil || json.Unmarshal(b, &rep) != nil || rep.BenchmarkOpponent == "" {
		t.Fatalf("no recorded opponent: %v %s", err, b)
	}
	if got := recordedOpponent(path); got != rep.BenchmarkOpponent {
		t.Errorf("eval would play %q, recorded %q", got, rep.BenchmarkOpponent)
	}
}
