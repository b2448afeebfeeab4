package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pcgwb/llm/llmtest"
)

// hostileBodies are attacks run at the start of every game (initial_state); the games library
// has the full suite (games/duel TestHostileScripts), this checks the commands around it.
var hostileBodies = map[string]string{
	"stack overflow":        "    x = []\n    for i in range(500000):\n        x = [x]\n    y = str(x)",
	"unbounded single step": "    t = tuple([\"a\" * 4000000] * 1000000)\n    d = {t: 1}",
	"memory doubling":       "    l = [1]\n    for i in range(64):\n        l += l",
	"huge print":            "    for i in range(1000000):\n        print(\"x\" * 1000000)",
}

var tightBudgets = []string{"--call-cpu", "150ms", "--move-cpu", "300ms", "--game-cpu", "600ms", "--memory", "256"}

// TestDuelCommandsSurviveHostileScripts: match, tournament and eval end normally with the
// script's fault named; generate keeps the game it accepted before the hostile one.
func TestDuelCommandsSurviveHostileScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile scripts through every duel command (-short)")
	}
	srv := llmtest.New(duelMover)
	defer srv.Close()
	for name, body := range hostileBodies {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			path := duelScript(t, body)
			code, out, errs := runCLI(t, append([]string{"duel", "match", path, "--agents", "mcts-10,random"}, tightBudgets...)...)
			if code != 0 || strings.Count(out, "game fault: ") != 2 {
				t.Errorf("match: exit %d\n%s%s", code, out, errs)
			}
			code, out, errs = runCLI(t, append([]string{"duel", "tournament", path, "--agents", "random,mcts-5", "--games", "2", "--quiet"}, tightBudgets...)...)
			if code != 0 || !strings.Contains(out, "2 env faults") || !strings.Contains(out, "fault in random vs mcts-5: the game: ") {
				t.Errorf("tournament: exit %d\n%s%s", code, out, errs)
			}
			args := append([]string{"duel", "eval", path, "--opponent", "random", "--games", "2", "--strength-games", "0"}, duelEndpoint(srv, "")...)
			code, out, errs = runCLI(t, append(args, tightBudgets...)...)
			if code != 0 || !strings.Contains(out, "env faults 2") {
				t.Errorf("eval: exit %d\n%s%s", code, out, errs)
			}
		})
	}
}

func TestDuelGenerateKeepsAcceptedGamesPastAHostileOne(t *testing.T) {
	good, err := os.ReadFile(duelScript(t, "    pass"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile(duelScript(t, hostileBodies["unbounded single step"]))
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	srv := llmtest.New(func(c llmtest.Call, _ int) llmtest.Reply {
		u := c.LastUser()
		switch {
		case strings.Contains(u, "Invent a new"):
			games++
			return llmtest.Reply{Content: "# Game\nA race."}
		case strings.Contains(u, "action indices"):
			return llmtest.Reply{Content: "Action i adds i + 1."}
		case games == 1:
			return llmtest.Reply{Content: "```python\n" + string(good) + "```\n"}
		}
		return llmtest.Reply{Content: "```python\n" + string(bad) + "```\n"}
	})
	defer srv.Close()
	out := t.TempDir()
	code, stdout, errs := runCLI(t, append([]string{"duel", "generate", "--n", "2", "--repairs", "1", "--skip-skill", "--out", out,
		"--call-cpu", "150ms", "--validate-cpu", "2s"}, duelEndpoint(srv, "")...)...)
	if code != 0 || !strings.Contains(stdout, "2 generated, 1 accepted, 1 kept") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	b, err := os.ReadFile(filepath.Join(out, "generated.json"))
	if err != nil || !strings.Contains(string(b), `"accepted": false`) || !strings.Contains(string(b), "timeout fault") {
		t.Errorf("the hostile game's rejection is not named (%v):\n%s", err, b)
	}
	for _, f := range []string{"gen-001.star", "gen-001.validate.json", "generated.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestDuelInterruptStopsAMatch: Ctrl-C stops a long match (the sandbox worker is killed with
// its search); the command reports the interruption.
func TestDuelInterruptStopsAMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang fails the test
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "duel", "match", "connect-four", "--agents", "mcts-100000,mcts-100000", "--games", "50")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the match is under way (it has started its sandbox worker, so its Ctrl-C
	// handler is in place): a fixed sleep raced the start-up of a -race binary.
	for !hasChildProcess(cmd.Process.Pid) {
		if ctx.Err() != nil {
			t.Fatalf("the match never started its sandbox worker: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the match did not stop: %s", out.String())
	}
	if err == nil || !strings.Contains(out.String(), "canceled") {
		t.Errorf("exit %v, output %q", err, out.String())
	}
}

// hasChildProcess reports whether process pid has started a child (Linux: /proc/*/stat).
func hasChildProcess(pid int) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid int
		if _, err := fmt.Sscanf(string(b[i+1:]), " %s %d", &state, &ppid); err == nil && ppid == pid {
			return true
		}
	}
	return false
}
