package validate

import (
	"bytes"
	"context"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"strings"
	"testing"
	"time"
)

// quickValidation are the filters at a test's budget: fewer playouts and a two-agent skill
// check.
var quickValidation = Options{
	Playouts:    60,
	SkillAgents: []core.Agent{agents.Random{}, &agents.MCTS{Iterations: 100}},
	SkillGames:  12,
	Workers:     2,
}

func TestBuiltinsPassEveryFilter(t *testing.T) {
	for _, name := range script.Builtins() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// In process, a call's budget is wall time (CPU-time budgets are the sandbox
			// worker's, tested there). The suite runs beside other packages on a loaded
			// machine, and a built-in game's verdict must not depend on that load.
			p, err := script.BuiltinProgram(name, script.Limits{CallTime: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			rep := Program(context.Background(), p, quickValidation)
			if !rep.Passed {
				var b bytes.Buffer
				rep.WriteText(&b)
				t.Fatalf("rejected:\n%s", b.String())
			}
			if len(rep.Checks) != len(Filters) || rep.BenchmarkOpponent != "random" {
				t.Errorf("checks %+v, benchmark opponent %q", rep.Checks, rep.BenchmarkOpponent)
			}
			info := p.Name()
			g := loadBuiltin(t, name)
			if g.Info().Title == "" || len(g.Info().Rules) < 100 {
				t.Errorf("%s: no title or rules text", info)
			}
		})
	}
}

func TestFiltersRejectBrokenGames(t *testing.T) {
	// a longer race than the first-legal moves of the execution filter reach
	long := `return 1 - s["p"] if s["n"] >= 12 else None`
	cases := []struct {
		name    string
		src     string
		filter  string
		because string
	}{
		{"syntax error", "def (:\n", FilterLoad, "does not load"},
		{"render fails after a move", gameSource("", map[string]string{"render": "if s[\"n\"] > 0:\n    return \"\"\nreturn \"start\""}), FilterExecution, "empty"},
		{"duplicate labels", gameSource("", map[string]string{"action_label": `return "move"`}), FilterExecution, "same label"},
		{"function in the state", gameSource("", map[string]string{"initial_state": `return {"n": 0, "p": 0, "f": len}`}), FilterExecution, "plain data"},
		{"never ends", gameSource("", map[string]string{"outcome": "return None"}), FilterTermination, "did not end within 100 plies"},
		{"empty legal list", gameSource("", map[string]string{"legal_actions": "return [] if s[\"n\"] == 7 else [0, 1]", "outcome": long}), FilterTermination, "no legal actions"},
		{"fails deep in the game", gameSource("", map[string]string{"observe": "if s[\"n\"] >= 7:\n    fail(\"deep\")\nreturn [s[\"n\"]]", "outcome": long}), FilterPlayouts, "deep"},
		{"first player always wins", gameSource("", map[string]string{"outcome": "return 0 if s[\"n\"] >= 5 else None"}), FilterDegenerate, "Player 2 (the second mover) never won"},
		{"always a draw", gameSource("", map[string]string{"outcome": `return "draw" if s["n"] >= 5 else None`}), FilterDegenerate, "draws"},
		// the winner depends only on the seed, so no agent can be better than another
		{"no skill", gameSource("", map[string]string{
			"initial_state": `return {"n": 0, "p": 0, "w": (seed // 2) % 2}`,
			"apply":         `return {"n": s["n"] + 1 + a, "p": 1 - s["p"], "w": s["w"]}`,
			"outcome":       `return s["w"] if s["n"] >= 5 else None`,
		}), FilterSkill, "no agent beat another"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := Source(context.Background(), "broken", []byte(c.src), quickValidation)
			if rep.Passed || rep.Rejected != c.filter {
				t.Fatalf("rejected by %q (%s), want %q", rep.Rejected, rep.Reason, c.filter)
			}
			if !strings.Contains(rep.Reason, c.because) {
				t.Errorf("reason %q does not say %q", rep.Reason, c.because)
			}
			var b bytes.Buffer
			rep.WriteText(&b)
			if !strings.Contains(b.String(), "rejected by the "+c.filter+" filter") {
				t.Errorf("report:\n%s", b.String())
			}
		})
	}
}

func TestValidateSkipSkill(t *testing.T) {
	p, _ := script.BuiltinProgram("nim", script.Limits{})
	rep := Program(context.Background(), p, Options{SkipSkill: true, Playouts: 20})
	if !rep.Passed || rep.Skill != nil || rep.Checks[len(rep.Checks)-1].Detail != "skipped" {
		t.Fatalf("%+v", rep)
	}
}
