package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"pcgwb/games/duel/core"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

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
	fmt.Fprintln(&tb, stagePrefix+"load")
	fmt.Fprintln(&tb, stagePrefix+"execution")
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
	if got := tb.lastStage(); got != "execution" {
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
