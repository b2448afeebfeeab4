package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pcgwb/internal/version"
)

func TestVersionCommandAndFlag(t *testing.T) {
	code, out, errs := runCLI(t, "version")
	if code != 0 || strings.TrimSpace(out) != version.String() || !strings.Contains(out, "MIT licence") {
		t.Fatalf("version: exit %d, %q %q", code, out, errs)
	}
	code, out2, _ := runCLI(t, "--version")
	if code != 0 || out2 != out {
		t.Fatalf("--version: exit %d, %q, want %q", code, out2, out)
	}
}

func TestUnknownCommandSuggestsTheClosest(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sampel"}, `did you mean "sample"?`},
		{[]string{"duel", "matc"}, `did you mean "match"?`},
		{[]string{"help", "swep"}, `did you mean "sweep"?`},
	} {
		code, _, errs := runCLI(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q (want 2 and %q)", tt.args, code, errs, tt.want)
		}
	}
	if _, _, errs := runCLI(t, "zzzzzz"); strings.Contains(errs, "did you mean") {
		t.Errorf("a far name got a suggestion: %q", errs)
	}
}

func TestHelpCommandIsTheCommandsOwnHelp(t *testing.T) {
	for _, path := range [][]string{{"run"}, {"duel", "match"}, {"duel"}, {"birds", "stability"}} {
		code, out, errs := runCLI(t, append([]string{"help"}, path...)...)
		_, own, _ := runCLI(t, append(path, "-h")...)
		if code != 0 || out != own || !strings.HasPrefix(out, "usage: workbench "+strings.Join(path, " ")) {
			t.Errorf("help %v: exit %d, %q (stderr %q), want %q", path, code, out, errs, own)
		}
	}
}

func TestTopLevelHelpListsWindowFlags(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	for _, want := range []string{"window flags:", "-screenshot", "-open", "workbench version", "workbench completion"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
}

// The bash script completes commands, sub-commands and flags: run in bash as the shell would.
func TestCompletionBash(t *testing.T) {
	code, script, errs := runCLI(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	path := filepath.Join(t.TempDir(), "c.bash")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) string {
		t.Helper()
		var sb strings.Builder
		sb.WriteString("source " + path + "\nCOMP_WORDS=(")
		for _, w := range words {
			sb.WriteString("'" + w + "' ")
		}
		sb.WriteString(")\nCOMP_CWORD=" + string(rune('0'+len(words)-1)) + "\n_workbench\necho \"${COMPREPLY[*]}\"\n")
		out, err := exec.Command("bash", "-c", sb.String()).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{[]string{"workbench", "sam"}, "sample"},
		{[]string{"workbench", "duel", "mat"}, "match"},
		{[]string{"workbench", "sample", "--se"}, "--seed"},
		{[]string{"workbench", "sweep", "--stat"}, "--status"},
		{[]string{"workbench", "sample", "zelda-v0", "-n", "3", "--se"}, "--seed"},
		{[]string{"workbench", "--vers"}, "--version"},
	} {
		if got := complete(tt.words...); got != tt.want {
			t.Errorf("%v: completions %q, want %q", tt.words, got, tt.want)
		}
	}
	for _, sh := range []string{"zsh", "fish"} {
		code, out, errs := runCLI(t, "completion", sh)
		if code != 0 || !strings.Contains(out, "sample") || !strings.Contains(out, "seed") {
			t.Errorf("completion %s: exit %d %q", sh, code, errs)
		}
	}
	if code, _, _ := runCLI(t, "completion", "tcsh"); code != 2 {
		t.Errorf("completion tcsh: exit %d, want 2", code)
	}
}

func TestOpenPathArgs(t *testing.T) {
	tmp := t.TempDir()
	runDir := filepath.Join(tmp, "runs", "a")
	os.MkdirAll(runDir, 0o755)
	os.WriteFile(filepath.Join(runDir, "config.json"), []byte("{}"), 0o644)
	comp := filepath.Join(tmp, "comp")
	os.MkdirAll(filepath.Join(comp, "TEAM", "raw"), 0o755)
	level := filepath.Join(tmp, "level.json")
	os.WriteFile(level, []byte(`{"problem": "binary-v0", "items": [{"content": [[0]]}]}`), 0o644)
	other := filepath.Join(tmp, "other.json")
	os.WriteFile(other, []byte(`{"x": 1}`), 0o644)
	for _, tt := range []struct {
		path string
		want string
		bad  bool
	}{
		{runDir, "--open " + runDir, false},
		{filepath.Join(tmp, "runs"), "--open " + filepath.Join(tmp, "runs"), false},
		{comp, "--tab birds --birds-folder " + comp, false},
		{level, "play binary-v0 " + level, false},
		{other, "", true},
		{filepath.Join(tmp, "empty-dir-missing"), "", false},
	} {
		args, ok, err := openPathArgs(tt.path)
		if got := strings.Join(args, " "); got != tt.want || (err != nil) != tt.bad {
			t.Errorf("%s: %q ok=%v err=%v, want %q (error %v)", tt.path, got, ok, err, tt.want, tt.bad)
		}
	}
	if code, _, errs := runCLI(t, other); code != 2 || !strings.Contains(errs, "not a level file") {
		t.Errorf("workbench %s: exit %d %q", other, code, errs)
	}
}

// Ctrl-C stops a run and the process exits 130, as shells report a command killed by SIGINT.
func TestInterruptExits130(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(os.Args[0], "run", "--problem", "binary-v0", "--generator", "ga", "--generations", "1000000", "--pop", "4", "--out", dir)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "gen" && strings.HasPrefix(f[1], "1/") {
			break // the run is under way
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		seen = append(seen, sc.Text())
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v), want 130; stderr:\n%s", code, err, strings.Join(seen, "\n"))
	}
	if last := seen[len(seen)-1]; !strings.Contains(last, "interrupted; continue with: workbench run --resume") {
		t.Errorf("last line %q", last)
	}
}
