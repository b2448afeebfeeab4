package validate

import (
	"context"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestOnePlayerNumbering(t *testing.T) {
	if core.FirstWins.String() != "Player 1 wins" || core.SecondWins.String() != "Player 2 wins" {
		t.Errorf("outcomes say %q and %q", core.FirstWins, core.SecondWins)
	}
	info := core.Info{Players: [2]string{"Red", "Blue"}}
	if got := info.OutcomeText(core.SecondWins); got != "Blue wins" {
		t.Errorf("OutcomeText = %q", got)
	}
	if got := (core.Info{}).OutcomeText(core.FirstWins); got != "Player 1 wins" {
		t.Errorf("OutcomeText = %q", got)
	}
	var b strings.Builder
	(&Report{Game: "g", Random: &RandomPlayStats{Games: 3, FirstWins: 1, SecondWin: 2}}).WriteText(&b)
	if strings.Contains(b.String(), "player 0") || !strings.Contains(b.String(), "Player 1 won 1, Player 2 won 2") {
		t.Errorf("report text: %s", b.String())
	}
}

func TestValidateWarnsOfGrowthAndSlowness(t *testing.T) {
	if testing.Short() {
		t.Skip("validates a growing and a slow game (-short)")
	}
	// No wall-time budget to speak of: slowness is measured in CPU time, and on a loaded machine
	// (a full make test-race) a call of the slow game below once passed the default 2 s of wall
	// time, which ended the timing with no warning.
	opts := Options{SkipSkill: true, Playouts: 20, Replays: 2, TerminationGames: 2,
		Limits: script.Limits{Steps: 1 << 40, Memory: 1 << 30, CallTime: time.Hour}}
	// the state gains 64 KiB a move
	grow := gameSource("", map[string]string{
		"initial_state": `return {"n": 0, "p": 0, "h": ""}`,
		"apply":         `return {"n": s["n"] + 1 + a, "p": 1 - s["p"], "h": s["h"] + "x" * 65536}`,
		"outcome":       `return 1 - s["p"] if s["n"] >= 12 else None`,
	})
	rep := Source(context.Background(), "grow", []byte(grow), opts)
	if !rep.Passed {
		t.Fatalf("growing game rejected: %s", rep.Reason)
	}
	if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "grows without bound") }) {
		t.Errorf("no growth warning: %q", rep.Warnings)
	}
	// every call burns steps: an MCTS-100 move costs well over SlowMoveCPU (timed directly:
	// the whole validation of such a game takes long)
	slow := gameSource("", map[string]string{
		"legal_actions": "t = 0\nfor i in range(100000):\n    t += i\nreturn [0, 1]",
		"outcome":       `return 1 - s["p"] if s["n"] >= 9 else None`,
	})
	g, err := script.Load("slow", []byte(slow), opts.Limits)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	w := slowWarning(context.Background(), g, opts.withDefaults(), script.CPUTime)
	if !strings.Contains(w, "the game is slow") {
		t.Errorf("no slowness warning: %q", w)
	}
	var b strings.Builder
	(&Report{Game: "slow", Passed: true, Warnings: []string{w}}).WriteText(&b)
	if !strings.Contains(b.String(), "warning: the game is slow") {
		t.Errorf("the text report hides the warning:\n%s", b.String())
	}
	// a slow game that fails in a later position is still slow (a full make test-race once
	// got no warning on the game above: an error while timing made the warning silent)
	// (a clock that advances 300 ms a reading: the verdict must not depend on this machine)
	failing := gameSource("", map[string]string{
		"legal_actions": "if s[\"n\"] >= 3:\n    fail(\"deep in the tree\")\nreturn [0, 1]",
	})
	fg, err := script.Load("failing", []byte(failing), opts.Limits)
	if err != nil {
		t.Fatal(err)
	}
	defer fg.Close()
	var fake time.Duration
	clock := func() time.Duration { fake += 300 * time.Millisecond; return fake }
	if w := slowWarning(context.Background(), fg, opts.withDefaults(), clock); !strings.Contains(w, "the game is slow") || !strings.Contains(w, "timing stopped at an error") {
		t.Errorf("a game that failed after slow moves gave no slowness warning: %q", w)
	}
	// a small fast game gets neither
	rep = Source(context.Background(), "small", []byte(gameSource("", nil)), opts)
	if !rep.Passed || len(rep.Warnings) != 0 {
		t.Errorf("small game: passed %v, warnings %q", rep.Passed, rep.Warnings)
	}
}
