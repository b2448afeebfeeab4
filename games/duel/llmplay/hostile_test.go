package llmplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"pcgwb/games/duel"
	"pcgwb/games/duel/agents"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"pcgwb/games/duel/validate"
	"strings"
	"testing"
	"time"
)

// hostileScripts are the attacks of issue 16; each must end as a named fault (or, for the
// game that never ends, as a truncated game), never as a crashed, hung or exhausted host.
var hostileScripts = []struct {
	name    string
	src     string
	loadErr bool   // refused before anything runs
	endless bool   // a legal game that never ends: truncated, not a fault
	want    string // what a match's fault says
}{
	// This one builds its structure in interruptible steps before the deadly one, so which limit
	// ends it depends on the machine's speed: the per-call CPU limit (the step cancelled), or the
	// memory limit (the worker ended). Either way the fault names its limit.
	{name: "stack overflow", want: "memory fault|CPU-time limit", src: gameSource("", map[string]string{
		"initial_state": "x = []\nfor i in range(250000):\n    x = [x]\nreturn {\"n\": 0, \"p\": 0, \"x\": str(x)}"})},
	// One step that never ends and allocates nothing: hashing a tuple of 2^60 leaves, shared so
	// that it is built in 60 cheap steps (a tuple of a million 4 MB strings took 200-260 ms of
	// CPU to build in a fresh worker, more than the per-call budget, so the CPU limit ended it
	// before its deadly step, before and after the learned opponent's changes alike).
	{name: "unbounded single step", want: "did not stop: the sandbox worker was ended", src: gameSource("", map[string]string{
		"initial_state": "t = (1,)\nfor i in range(60):\n    t = (t, t)\nd = {t: 1}\nreturn {\"n\": 0, \"p\": 0}"})},
	{name: "memory doubling", want: "memory|CPU", src: gameSource("", map[string]string{
		"legal_actions": "s2 = \"ab\"\nfor i in range(64):\n    s2 = s2 + s2\nl = [1]\nfor i in range(64):\n    l += l\nreturn [0, 1]"})},
	{name: "huge print", want: "fault in legal_actions", src: gameSource("", map[string]string{
		"legal_actions": "for i in range(1000000):\n    print(\"x\" * 1000000)\nreturn [0, 1]"})},
	{name: "slow calls", want: "more than its CPU budget", src: gameSource("", map[string]string{
		"legal_actions": "t = 0\nfor i in range(150000):\n    t += i\nreturn [0, 1]",
		"outcome":       "return 1 - s[\"p\"] if s[\"n\"] >= 150 else None"})},
	{name: "never-ending game", endless: true, src: gameSource("", map[string]string{
		"outcome": "return None"})},
	{name: "1e6 legal moves", src: gameSource("NUM_ACTIONS = 1000000\nOBS_SIZE = 1\n", map[string]string{
		"legal_actions": "return list(range(1000000))",
		"apply":         `return {"n": s["n"] + 1, "p": 1 - s["p"]}`,
		"outcome":       `return 1 - s["p"] if s["n"] >= 40 else None`})},
	{name: "load()", loadErr: true, src: "load(\"other.star\", \"x\")\n" + gameSource("", nil)},
}

// hostilePool is small and its budgets short, so the suite stays quick.
var (
	hostilePool = &sandbox.Pool{Memory: 256 << 20, MaxIdle: 2}
	// the step budget is raised so that the CPU budgets and the OS limits are what stop them
	hostileBudget = sandbox.SandboxOptions{Budgets: sandbox.Budgets{Call: 150 * time.Millisecond, Move: 300 * time.Millisecond, Game: 600 * time.Millisecond},
		Limits: script.Limits{Steps: 1 << 40}}
)

// notLocal is an agent the sandbox cannot rebuild by name (as a language model): it plays in
// this process and only calls the game, as `eval`'s model does.
type notLocal struct{ agents.Random }

func (notLocal) Name() string { return "outside-player" }

// checkHostile: the game ended by a named fault of the script (or, when endless, truncated).
func checkHostile(t *testing.T, endless bool, res duel.Result) {
	t.Helper()
	switch {
	case endless:
		if !res.Truncated && res.Fault == nil {
			t.Errorf("never-ending game: %+v", res)
		}
	case res.Fault == nil:
		t.Errorf("no fault: %+v", res)
	case res.FaultBy != -1 || res.Fault.Msg == "":
		t.Errorf("fault not charged to the script, or not named: by %d, %v", res.FaultBy, res.Fault)
	}
}

// Doubling strings costs CPU as well as memory: the memory-doubling script is ended by whichever
// limit it reaches first, and the fault names that limit ("memory|CPU").
func TestHostileScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("every hostile script in a sandbox child (-short)")
	}
	if raceDetector {
		t.Skip("limits, CPU budgets and window timings do not hold under the race detector; make test runs this")
	}
	defer hostilePool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang fails, not blocks
	defer cancel()
	for _, h := range hostileScripts {
		t.Run(strings.ReplaceAll(h.name, " ", "_"), func(t *testing.T) {
			open := func() (*sandbox.Remote, error) { return hostilePool.Open(ctx, h.name, []byte(h.src), hostileBudget) }
			t.Run("match", func(t *testing.T) {
				g, err := open()
				if h.loadErr {
					if f := core.FaultOf(err); f == nil || f.Kind != core.FaultLoad {
						t.Fatalf("want a load fault, got %v", err)
					}
					return
				}
				if err != nil {
					if core.FaultOf(err) == nil {
						t.Fatalf("load failed without a named fault: %v", err)
					}
					return // refused while loading: the fault is named
				}
				defer g.Close()
				res, err := duel.Play(ctx, g, [2]core.Agent{&agents.MCTS{Iterations: 10}, agents.Random{}}, 0, 0, [2]*rand.Rand{nil, nil})
				if err != nil {
					t.Fatal(err)
				}
				checkHostile(t, h.endless, res)
				if want := h.want; want != "" && (res.Fault == nil || !saysOneOf(res.Fault.Error(), want)) {
					t.Errorf("fault %v does not say %q", res.Fault, want)
				}
			})
			if h.loadErr {
				return
			}
			t.Run("tournament", func(t *testing.T) {
				tour, err := duel.RunTournament(ctx, func() (core.Game, error) { return open() }, []core.Agent{agents.Random{}, &agents.MCTS{Iterations: 5}},
					duel.TournamentOptions{GamesPerPair: 2, Workers: 1})
				if err != nil {
					if core.FaultOf(err) != nil {
						return // the script did not load in the sandbox: named
					}
					t.Fatal(err)
				}
				pr := tour.Pairs[0]
				if pr.Games != 2 || (!h.endless && pr.EnvFaults != 2) || (h.endless && pr.Truncated+pr.EnvFaults != 2) {
					t.Errorf("pair %+v", pr)
				}
				if pr.EnvFaults > 0 && (len(pr.Faults) == 0 || !strings.HasPrefix(pr.Faults[0], "the game: ")) {
					t.Errorf("faults not named: %q", pr.Faults)
				}
			})
			t.Run("eval", func(t *testing.T) {
				g, err := open()
				if err != nil {
					return
				}
				defer g.Close()
				r, err := Evaluate(ctx, g, notLocal{}, &agents.MCTS{Iterations: 5}, EvalOptions{Games: 2})
				if err != nil {
					t.Fatal(err)
				}
				for _, eg := range r.Games {
					checkHostile(t, h.endless, eg.Result)
				}
			})
		})
	}
}

// TestGenerateSurvivesHostile: in a batch, the games accepted before a hostile one are kept
// (handed to OnAccepted at once), and the hostile one is rejected with its fault named.
func TestGenerateSurvivesHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile scripts through generation (-short)")
	}
	defer hostilePool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	valid := gameSource("", nil)
	for _, h := range hostileScripts {
		if h.endless {
			continue // a game that never ends is rejected by the termination filter, tested there
		}
		t.Run(strings.ReplaceAll(h.name, " ", "_"), func(t *testing.T) {
			var kept []string
			replies := []string{"```python\n" + valid + "```", "pick numbers", "```python\n" + h.src + "```"}
			ask := AskFunc(func(ctx context.Context, q Query) (string, error) {
				if len(replies) == 0 {
					return "```python\n" + h.src + "```", nil
				}
				r := replies[0]
				replies = replies[1:]
				return r, nil
			})
			gen := &Generator{Ask: ask, MaxRepairs: 1, Sandbox: hostilePool, ValidateBudget: time.Second,
				// 500 ms a call (1 s a move): the valid game's load runs in a fresh worker after each
				// hostile one killed its predecessor, and at 150 ms (300 ms a move) a loaded machine
				// rejected that load once in make test ("the move used more than its CPU budget").
				Validate:   validate.Options{SkipSkill: true, Playouts: 10, Replays: 2, TerminationGames: 2, Limits: script.Limits{CallTime: 500 * time.Millisecond}},
				OnAccepted: func(g *Generated) error { kept = append(kept, g.Name); return nil }}
			first, err := gen.Implement(ctx, "good", "a race to 5")
			if err != nil || !first.Accepted {
				t.Fatalf("the valid game: %v, %+v", err, first)
			}
			bad, err := gen.Implement(ctx, "bad", "an attack")
			if err != nil {
				t.Fatal(err)
			}
			if bad.Accepted {
				t.Fatalf("hostile game accepted")
			}
			last := bad.Attempts[len(bad.Attempts)-1].Report
			if last.Rejected == "" || last.Reason == "" {
				t.Errorf("rejection not named: %+v", last)
			}
			if fmt.Sprint(kept) != "[good]" {
				t.Errorf("kept %v", kept)
			}
		})
	}
}

// saysOneOf reports whether msg contains one of the |-separated alternatives of want.
func saysOneOf(msg, want string) bool {
	for _, w := range strings.Split(want, "|") {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
