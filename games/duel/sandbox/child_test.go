package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"pcgwb/games/duel/core"
	"pcgwb/games/duel/script"
	"runtime"
	"testing"
	"time"
)

// testChildEnv makes the test binary a sandbox child that runs the script in the variable's
// value: the hard-limit tests need a process of their own to crash.
const testChildEnv = "PCGWB_DUEL_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(testSlowStartEnv) != "" {
		slowStart()
	}
	if IsSandboxChild() {
		os.Exit(RunSandboxChild(nil))
	}
	if src := os.Getenv(testChildEnv); src != "" {
		os.Exit(testChild(src))
	}
	if os.Getenv(testOverflowEnv) != "" {
		overflowStack()
	}
	os.Exit(m.Run())
}

func testChild(src string) int {
	if err := LimitSelf(ChildLimits{Memory: 64 << 20}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	// the in-process watchdog is switched off, so only the OS limit can stop the script
	g, err := script.Load("child", []byte(src), script.Limits{Memory: 1 << 50, CallTime: time.Minute, Steps: 1 << 40})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	_, err = g.Initial(0)
	fmt.Println("survived:", err)
	return 0
}

// TestChildProcessOutOfMemory runs a script that escapes the in-process guards (the watchdog is
// switched off) in a child process under a 64 MiB limit: the child dies, the parent survives and
// reports a memory fault.
func TestChildProcessOutOfMemory(t *testing.T) {
	if raceDetector {
		t.Skip("limits, CPU budgets and window timings do not hold under the race detector; make test runs this")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the hard memory limit needs Linux")
	}
	if testing.Short() {
		t.Skip("short")
	}
	src := gameSource("", map[string]string{"initial_state": "l = [0]\nfor i in range(64):\n    l = l + l\nreturn l"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), testChildEnv+"="+src)
	out, err := RunChild(context.Background(), cmd, ChildLimits{Memory: 64 << 20, Wall: time.Minute})
	f := core.FaultOf(err)
	if f == nil || f.Kind != core.FaultMemory {
		t.Fatalf("got %v (stdout %q, stderr tail %q), want a memory fault", err, out.Stdout, lastLines(string(out.Stderr), 3))
	}
}

func TestChildProcessWallTime(t *testing.T) {
	src := gameSource("", map[string]string{"initial_state": "for i in range(1000000):\n    for j in range(1000000):\n        pass"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), testChildEnv+"="+src)
	_, err := RunChild(context.Background(), cmd, ChildLimits{Wall: 300 * time.Millisecond})
	if f := core.FaultOf(err); f == nil || f.Kind != core.FaultTimeout {
		t.Fatalf("got %v, want a timeout fault", err)
	}
}
