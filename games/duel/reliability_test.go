package duel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPrintableEscapesControls(t *testing.T) {
	cases := []struct{ in, want, line string }{
		{"plain board\n. X O\tok", "plain board\n. X O\tok", `plain board\n. X O\tok`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`, `\x1b]0;pwned\x07title`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"ok\rverdict: accepted", `ok\rverdict: accepted`, `ok\rverdict: accepted`},
		{"a\u202eevil", `a\u202eevil`, `a\u202eevil`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"c1 \u009b31m", `c1 \x9b31m`, `c1 \x9b31m`},
		{"Schöne Grüße ♟", "Schöne Grüße ♟", "Schöne Grüße ♟"},
	}
	for _, c := range cases {
		if got := core.Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := core.PrintableLine(c.in); got != c.line {
			t.Errorf("PrintableLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
	// a script's fake verdict cannot start a line of its own in a one-line message
	if got := core.PrintableLine("x\nverdict: accepted"); strings.Contains(got, "\n") {
		t.Errorf("PrintableLine kept a line feed: %q", got)
	}
}

func TestSandboxEnvDropsSecrets(t *testing.T) {
	env := []string{"PATH=/usr/bin", "HOME=/home/u", "OPENAI_API_KEY=sk-1", "OPENAI_BASE_URL=http://x",
		"ANTHROPIC_API_KEY=a", "GITHUB_TOKEN=g", "MY_SECRET_THING=s", "HF_TOKEN=h", "AWS_SECRET_ACCESS_KEY=k",
		"DB_PASSWORD=p", "LANG=C.UTF-8", "PCGWB_LLM_KEY=x", "GOFLAGS=-mod=mod"}
	got := SandboxEnv(env)
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "GOFLAGS=-mod=mod"}
	if !slices.Equal(got, want) {
		t.Errorf("SandboxEnv = %q, want %q", got, want)
	}
}

// TestWorkerHasNoSecrets: a real sandbox worker's environment holds no API key. The worker is
// asked through a one-shot child (RunChild) and the pool's spawn, both of which build their
// environment with SandboxEnv.
func TestWorkerHasNoSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("PCGWB_TEST_TOKEN", "tok")
	pl := &Pool{MaxIdle: 1}
	defer pl.Close()
	p, err := pl.spawn()
	if err != nil {
		t.Fatal(err)
	}
	defer p.kill()
	for _, kv := range p.cmd.Env {
		if strings.Contains(kv, "sk-test-secret") || strings.HasPrefix(kv, "PCGWB_TEST_TOKEN=") {
			t.Errorf("the worker's environment holds %q", kv)
		}
	}
	if !slices.ContainsFunc(p.cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, WorkerEnv+"=") }) {
		t.Error("the worker's environment lost its marker")
	}
	// /proc shows what the running process really got
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.cmd.Process.Pid)); err == nil && strings.Contains(string(b), "sk-test-secret") {
		t.Error("the running worker's environment holds the API key")
	}
}

// TestCrashKeepsItsCause: a stack overflow whose dump is far longer than the kept tail is
// still named as one, with the worker's first and last lines; so is running out of memory.
func TestCrashKeepsItsCause(t *testing.T) {
	var tb tailBuffer
	fmt.Fprintln(&tb, filterPrefix+"load")
	fmt.Fprintln(&tb, filterPrefix+"execution")
	fmt.Fprintln(&tb, "runtime: goroutine stack exceeds 67108864-byte limit")
	fmt.Fprintln(&tb, "fatal error: stack overflow")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&tb, "go.starlark.net/starlark.(*Function).CallInternal(0xc000%d)\n\t/go/starlark/eval.go:%d +0x1f\n", i, i)
	}
	fmt.Fprintln(&tb, "...additional frames elided...")
	f := crashFault(2, tb.Bytes(), ChildLimits{Memory: 256 << 20})
	if f.Kind != core.FaultMemory || !strings.Contains(f.Msg, "overflowed its stack") ||
		!strings.Contains(f.Msg, "runtime: goroutine stack exceeds") || !strings.Contains(f.Msg, "additional frames elided") {
		t.Errorf("stack overflow named as %v", f)
	}
	if got := tb.lastFilter(); got != "execution" {
		t.Errorf("last filter %q, want execution (a crash must not be charged to the load filter)", got)
	}
	f = crashFault(2, []byte("fatal error: runtime: out of memory\n\ngoroutine 1 [running]:\nmain.main()\n"), ChildLimits{Memory: 256 << 20})
	if f.Kind != core.FaultMemory || !strings.Contains(f.Msg, "ran out of its 256 MiB") || !strings.Contains(f.Msg, "fatal error: runtime: out of memory") {
		t.Errorf("out of memory named as %v", f)
	}
	f = crashFault(2, []byte("panic: boom \x1b[2J\n"), ChildLimits{})
	if strings.Contains(f.Msg, "\x1b") {
		t.Errorf("a crash message keeps a control character: %q", f.Msg)
	}
}

// testOverflowEnv makes the test binary overflow its stack for real (TestMain), as a worker
// does under a script's deep recursion: a genuine Go dump, megabytes long.
const testOverflowEnv = "PCGWB_DUEL_TEST_OVERFLOW"

func overflowStack() {
	debug.SetMaxStack(8 << 20)
	var f func(n int) int
	f = func(n int) int {
		var pad [64]byte
		pad[n%64] = byte(n)
		return f(n+1) + int(pad[0])
	}
	fmt.Println(f(0))
}

// TestRealStackOverflowIsNamed: a process that really overflows its stack is named as a
// stack overflow, with its first and last lines, and not as a fragment of its dump.
func TestRealStackOverflowIsNamed(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), testOverflowEnv+"=1")
	_, err = RunChild(context.Background(), cmd, ChildLimits{Memory: 512 << 20, Wall: time.Minute})
	f := core.FaultOf(err)
	if f == nil || f.Kind != core.FaultMemory || !strings.Contains(f.Msg, "overflowed its stack") ||
		!strings.Contains(f.Msg, "first line: runtime: goroutine stack exceeds") {
		t.Fatalf("got %v, want a memory fault naming the stack overflow", err)
	}
	var tb tailBuffer // the pool's worker keeps stderr in a tailBuffer
	cmd = exec.Command(exe)
	cmd.Env = append(os.Environ(), testOverflowEnv+"=1")
	cmd.Stderr = &tb
	werr := cmd.Run()
	ee, ok := werr.(*exec.ExitError)
	if !ok {
		t.Fatalf("the overflowing child ended with %v", werr)
	}
	if f := classifyCrash(ee, tb.Bytes(), ChildLimits{}); f.Kind != core.FaultMemory || !strings.Contains(f.Msg, "stack") {
		t.Errorf("through the tail buffer: %v", f)
	}
}

func TestTitleAndRulesAreBounded(t *testing.T) {
	long := strings.Repeat("x", script.MaxRules+1)
	for _, c := range []struct{ prelude, want string }{
		{fmt.Sprintf("TITLE = %q\n", strings.Repeat("t", script.MaxTitle+1)), "TITLE is 257 bytes, the limit is 256"},
		{fmt.Sprintf("RULES = %q\n", long), fmt.Sprintf("RULES is %d bytes, the limit is %d", script.MaxRules+1, script.MaxRules)},
		{"RULES = \"x\" * (4 << 20)\n", "RULES is 4194304 bytes"},
	} {
		_, err := script.Load("big", []byte(gameSource(c.prelude, nil)), script.Limits{})
		if f := core.FaultOf(err); f == nil || f.Kind != core.FaultLoad || !strings.Contains(f.Msg, c.want) {
			t.Errorf("got %v, want a load fault saying %q", err, c.want)
		}
	}
	g, err := script.Load("ok", []byte(gameSource(fmt.Sprintf("TITLE = %q\nRULES = %q\n", "Race", strings.Repeat("r", script.MaxRules)), nil)), script.Limits{})
	if err != nil {
		t.Fatalf("rules of exactly the limit: %v", err)
	}
	if len(g.Info().Rules) != script.MaxRules {
		t.Errorf("rules of %d bytes kept", len(g.Info().Rules))
	}
}

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
	opts := ValidateOptions{SkipSkill: true, Playouts: 20, Replays: 2, TerminationGames: 2,
		Limits: script.Limits{Steps: 1 << 40, Memory: 1 << 30, CallTime: time.Hour}}
	// the state gains 64 KiB a move
	grow := gameSource("", map[string]string{
		"initial_state": `return {"n": 0, "p": 0, "h": ""}`,
		"apply":         `return {"n": s["n"] + 1 + a, "p": 1 - s["p"], "h": s["h"] + "x" * 65536}`,
		"outcome":       `return 1 - s["p"] if s["n"] >= 12 else None`,
	})
	rep := ValidateSource(context.Background(), "grow", []byte(grow), opts)
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
	rep = ValidateSource(context.Background(), "small", []byte(gameSource("", nil)), opts)
	if !rep.Passed || len(rep.Warnings) != 0 {
		t.Errorf("small game: passed %v, warnings %q", rep.Passed, rep.Warnings)
	}
}
