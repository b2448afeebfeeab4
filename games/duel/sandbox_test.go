package duel

import (
	"os"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/internal/duetest"
	"pcgwb/games/duel/sandbox"
	"pcgwb/games/duel/script"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain makes the test binary a sandbox worker when it is started as one (the pool
// re-executes it).
func TestMain(m *testing.M) {
	if sandbox.IsSandboxChild() {
		os.Exit(sandbox.RunSandboxChild(nil))
	}
	os.Exit(m.Run())
}

// gameSource writes the tests' small game (duetest's race to 5) with some contract functions
// replaced ("" drops one) after a prelude of top-level code.
func gameSource(prelude string, bodies map[string]string) string {
	return duetest.GameSource(prelude, bodies)
}

// exercise loads a script and plays its first moves, returning the first error.
func exercise(src string, lim script.Limits) (*script.ScriptGame, error) {
	g, err := script.Load("hostile", []byte(src), lim)
	if err != nil {
		return nil, err
	}
	s, err := g.Initial(0)
	if err != nil {
		return g, err
	}
	for ply := 0; ply < 10; ply++ {
		o, err := g.Outcome(s)
		if err != nil || o.Done() {
			return g, err
		}
		if _, err := g.ToMove(s); err != nil {
			return g, err
		}
		legal, err := g.Legal(s)
		if err != nil {
			return g, err
		}
		if len(legal) == 0 {
			return g, core.Contractf("legal_actions", "no legal actions while the game is ongoing")
		}
		if _, err := g.Observe(s, 0); err != nil {
			return g, err
		}
		if _, err := g.Render(s); err != nil {
			return g, err
		}
		if _, err := g.ActionLabel(s, legal[len(legal)-1]); err != nil {
			return g, err
		}
		if s, err = g.Apply(s, legal[len(legal)-1]); err != nil {
			return g, err
		}
	}
	return g, nil
}

func TestHostileScriptsFault(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile scripts until their limits (-short)")
	}
	big := `s = "x" * 1000000` + "\n"
	cases := []struct {
		name    string
		prelude string
		bodies  map[string]string
		lim     script.Limits
		kinds   []core.FaultKind
		msg     string
	}{
		{"while loop", "", map[string]string{"initial_state": "while True:\n    pass"}, script.Limits{}, []core.FaultKind{core.FaultLoad}, "while"},
		{"endless for loop", "", map[string]string{"initial_state": "for i in range(1000000):\n    for j in range(1000000):\n        pass"}, script.Limits{}, []core.FaultKind{core.FaultSteps}, "steps"},
		{"loop in apply", "", map[string]string{"apply": "for i in range(1000000):\n    for j in range(1000000):\n        pass"}, script.Limits{}, []core.FaultKind{core.FaultSteps}, "apply"},
		{"recursion", "def f(n):\n    return f(n + 1)\n", map[string]string{"initial_state": "return f(0)"}, script.Limits{}, []core.FaultKind{core.FaultScript}, "called recursively"},
		{"mutual recursion", "def f(n):\n    return g(n)\ndef g(n):\n    return f(n)\n", map[string]string{"render": "return f(0)"}, script.Limits{}, []core.FaultKind{core.FaultScript}, "called recursively"},
		{"recursion through a lambda", "", map[string]string{"initial_state": "f = lambda g: g(g)\nreturn f(f)"}, script.Limits{}, []core.FaultKind{core.FaultScript}, "called recursively"},
		{"string repetition", "", map[string]string{"initial_state": `return "x" * (1 << 30)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "repetition"},
		{"list repetition", "", map[string]string{"initial_state": `return [0] * (1 << 28)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "repetition"},
		{"repetition on the left", "", map[string]string{"initial_state": `n = 1 << 28` + "\nreturn n * [0]"}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "repetition"},
		{"augmented repetition", "", map[string]string{"initial_state": "x = [0]\nx *= 1 << 28\nreturn x"}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "repetition"},
		{"huge range", "", map[string]string{"initial_state": `return list(range(1 << 40))`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "range"},
		{"join of copies", "", map[string]string{"initial_state": big + `return ",".join([s] * 100000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "join"},
		{"join through getattr", "", map[string]string{"initial_state": big + `return getattr(",", "join")([s] * 100000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "join"},
		{"join bound first", "", map[string]string{"initial_state": big + "j = \",\".join\nreturn j([s] * 100000)"}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "join"},
		{"str of copies", "", map[string]string{"initial_state": big + `return str([s] * 100000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "str"},
		{"format of copies", "", map[string]string{"initial_state": big + `return ("{}" * 1000).format(*([s] * 1000))`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "format"},
		{"percent of copies", "", map[string]string{"initial_state": big + `return ("%s" * 1000) % tuple([s] * 1000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "formatting"},
		{"replace everywhere", "", map[string]string{"initial_state": `return ("x" * 100000).replace("", "y" * 100000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "replace"},
		{"fail with copies", "", map[string]string{"initial_state": big + `fail([s] * 100000)`}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "fail"},
		{"squaring ints", "", map[string]string{"initial_state": "x = 3\nfor i in range(40):\n    x = x * x\nreturn x"}, script.Limits{}, []core.FaultKind{core.FaultMemory}, "bits"},
		{"doubling a string", "", map[string]string{"initial_state": "s = \"x\"\nfor i in range(64):\n    s = s + s\nreturn s"}, script.Limits{Memory: 48 << 20}, []core.FaultKind{core.FaultMemory, core.FaultTimeout}, ""},
		{"doubling a list", "", map[string]string{"initial_state": "l = [0]\nfor i in range(64):\n    l = l + l\nreturn l"}, script.Limits{Memory: 48 << 20}, []core.FaultKind{core.FaultMemory, core.FaultTimeout}, ""},
		{"wall time", "", map[string]string{"initial_state": "l = list(range(100000))\nfor i in range(100000):\n    sorted(l, reverse = True)\nreturn 0"}, script.Limits{CallTime: 50 * time.Millisecond, Steps: 1 << 40}, []core.FaultKind{core.FaultTimeout}, "wall-time"},
		{"load", `load("os.star", "system")` + "\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "load"},
		{"mutating the state", "", map[string]string{"apply": "s[\"n\"] = s[\"n\"] + 1\nreturn s"}, script.Limits{}, []core.FaultKind{core.FaultScript}, "frozen"},
		{"mutating a global", "CACHE = {}\n", map[string]string{"apply": "CACHE[a] = 1\nreturn {\"n\": s[\"n\"] + 1, \"p\": 1 - s[\"p\"]}"}, script.Limits{}, []core.FaultKind{core.FaultScript}, "frozen"},
		{"reassigning a global", "X = 1\nX = 2\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "X"},
		{"fail", "", map[string]string{"apply": `fail("no such move")`}, script.Limits{}, []core.FaultKind{core.FaultScript}, "no such move"},
		{"error in module code", "X = 1 // 0\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "division by zero"},
		{"endless module code", "X = [i for i in range(1000000) for j in range(1000000)]\n", nil, script.Limits{}, []core.FaultKind{core.FaultSteps}, "steps"},
		{"missing function", "", map[string]string{"render": ""}, script.Limits{}, []core.FaultKind{core.FaultLoad}, "render"},
		{"wrong arity", "", map[string]string{"apply": ""}, script.Limits{}, []core.FaultKind{core.FaultLoad}, "apply"},
		{"action space too big", "NUM_ACTIONS = 4096\nOBS_SIZE = 1\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "NUM_ACTIONS"},
		{"unsorted legal list", "", map[string]string{"legal_actions": "return [1, 0]"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "sorted"},
		{"action out of range", "", map[string]string{"legal_actions": "return [0, 5]"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "outside"},
		{"legal list of strings", "", map[string]string{"legal_actions": `return ["a"]`}, script.Limits{}, []core.FaultKind{core.FaultContract}, "int"},
		{"bad outcome", "", map[string]string{"outcome": "return 2"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "outcome"},
		{"short observation", "", map[string]string{"observe": "return []"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "OBS_SIZE"},
		{"empty render", "", map[string]string{"render": `return "  "`}, script.Limits{}, []core.FaultKind{core.FaultContract}, "empty"},
		{"apply returns None", "", map[string]string{"apply": "s[\"n\"]"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "None"},
		{"bad player", "", map[string]string{"to_move": "return 2"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "0 or 1"},
		{"label not a string", "", map[string]string{"action_label": "return a"}, script.Limits{}, []core.FaultKind{core.FaultContract}, "string"},
		{"deep brackets", "X = " + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "nested"},
		{"deep operators", "X = " + strings.Repeat("-", 2000) + "1\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "nesting"},
		{"huge source", "# " + strings.Repeat("x", 300<<10) + "\n", nil, script.Limits{}, []core.FaultKind{core.FaultLoad}, "exceeds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			g, err := exercise(gameSource(c.prelude, c.bodies), c.lim)
			if g != nil {
				defer g.Close()
			}
			f := core.FaultOf(err)
			if f == nil {
				t.Fatalf("no fault, got error %v", err)
			}
			ok := false
			for _, k := range c.kinds {
				ok = ok || f.Kind == k
			}
			if !ok {
				t.Errorf("fault kind %s, want one of %v: %v", f.Kind, c.kinds, f)
			}
			if !strings.Contains(f.Error(), c.msg) {
				t.Errorf("fault %q does not mention %q", f.Error(), c.msg)
			}
			// the watchdog polls, so a machine busy enough to starve it lets a doubling
			// script run longer (90 s was seen at load 300 on 2 cores); only a hang fails
			if d := time.Since(start); d > 2*time.Minute {
				t.Errorf("took %s to stop", d)
			}
		})
	}
}

func TestHostileMemoryIsGivenBack(t *testing.T) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	src := gameSource("", map[string]string{"initial_state": "l = [0]\nfor i in range(64):\n    l = l + l\nreturn l"})
	g, err := exercise(src, script.Limits{Memory: 48 << 20})
	if core.FaultOf(err) == nil {
		t.Fatalf("no fault: %v", err)
	}
	g.Close()
	g = nil
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 32<<20 {
		t.Errorf("the heap kept %d MiB after the fault", grown>>20)
	}
}

func TestInstanceWorksAfterAFault(t *testing.T) {
	src := gameSource("", map[string]string{"apply": "if a == 1:\n    for i in range(1000000):\n        for j in range(1000000):\n            pass\nreturn {\"n\": s[\"n\"] + 1, \"p\": 1 - s[\"p\"]}"})
	g, err := script.Load("recover", []byte(src), script.Limits{Steps: 100000})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s, err := g.Initial(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply(s, 1); core.FaultOf(err) == nil || core.FaultOf(err).Kind != core.FaultSteps {
		t.Fatalf("apply(1): %v, want a steps fault", err)
	}
	next, err := g.Apply(s, 0)
	if err != nil {
		t.Fatalf("apply(0) after the fault: %v", err)
	}
	if txt, err := g.Render(next); err != nil || txt != "n=1" {
		t.Fatalf("render %q, %v", txt, err)
	}
}

func TestPrintGoesToTheLog(t *testing.T) {
	g, err := script.Load("print", []byte(gameSource("", map[string]string{"initial_state": `print("hello", 42)` + "\n" + duetest.ContractBodies["initial_state"]})), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.Initial(0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Log(), "hello 42") {
		t.Errorf("log %q", g.Log())
	}
}

func TestStatesAreFrozenAndShared(t *testing.T) {
	p, err := script.Compile("shared", []byte(gameSource("", nil)), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.New()
	b, _ := p.New()
	defer a.Close()
	defer b.Close()
	s, err := a.Initial(0)
	if err != nil {
		t.Fatal(err)
	}
	next, err := b.Apply(s, 1) // a state from one instance is valid in another
	if err != nil {
		t.Fatal(err)
	}
	if txt, _ := a.Render(next); txt != "n=2" {
		t.Fatalf("render %q", txt)
	}
	if txt, _ := a.Render(s); txt != "n=0" {
		t.Fatalf("apply changed its input: %q", txt)
	}
}

func TestSumIsAvailable(t *testing.T) {
	g, err := script.Load("sum", []byte(gameSource("", map[string]string{"render": `return "n=%d" % sum([1, 2, s["n"]], 10)`})), script.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s, _ := g.Initial(0)
	if txt, err := g.Render(s); err != nil || txt != "n=13" {
		t.Fatalf("%q %v", txt, err)
	}
}
