package script

import (
	"pcgwb/games/duel/core"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// raceGame is a small valid game: a race to 5 adding 1 or 2.
const raceGame = `NUM_ACTIONS = 2
OBS_SIZE = 1
def initial_state(seed):
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

func TestPanicBelowTheScriptIsRecovered(t *testing.T) {
	g, err := Load("panic", []byte(raceGame), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	err = g.guard("apply", func() error { panic("boom") })
	if f := core.FaultOf(err); f == nil || f.Kind != core.FaultPanic || !strings.Contains(f.Msg, "boom") {
		t.Fatalf("got %v, want a recovered panic", err)
	}
	if _, err := g.Initial(0); err != nil {
		t.Fatalf("the instance is unusable after a panic: %v", err)
	}
}

func TestOnlyAmplifyingOperatorsAreGuarded(t *testing.T) {
	src := `A = [0] * 2
B = 7 % 3
C = 3 * 4
def f(x, s):
    return [x * 2, 2 * x, x % 5, "%d" % 5, x * 3, s % x, -2 * x]
`
	f, err := fileOptions.Parse("ops", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := rewriteFile(f, 400); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	syntax.Walk(f, func(node syntax.Node) bool {
		if id, ok := node.(*syntax.Ident); ok && strings.HasPrefix(id.Name, "$") {
			n[id.Name]++
		}
		return true
	})
	if n[guardMul] != 1 || n[guardMod] != 1 {
		t.Errorf("guards used %v, want one $mul (x * 3) and one $mod (s %% x)", n)
	}
}
