//go:build linux

package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI-only build (`make cli`: CGO_ENABLED=0) builds, links no shared library (no libGL,
// X11, Wayland or glibc needed on a compute node), runs a headless command and says that the
// window commands are not in it.
func TestCLIOnlyBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole workbench again (-short)")
	}
	bin := filepath.Join(t.TempDir(), "workbench-cli")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the CLI-only binary is dynamically linked (%v)", p.Type)
		}
	}
	f.Close()
	cli := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := cli("version"); code != 0 || !strings.Contains(out, "CLI only") || !strings.Contains(out, "MIT licence") {
		t.Errorf("version: exit %d %q", code, out)
	}
	if code, out := cli("sample", "binary-v0", "-n", "2"); code != 0 || !strings.Contains(out, `"items"`) {
		t.Errorf("sample: exit %d %q", code, out)
	}
	dir := t.TempDir()
	if code, out := cli("run", "--problem", "binary-v0", "--generator", "ga", "--generations", "2", "--pop", "4", "--out", filepath.Join(dir, "r")); code != 0 || !strings.Contains(out, "done: best fitness") {
		t.Errorf("run: exit %d %q", code, out)
	}
	for _, args := range [][]string{{}, {"play", "binary-v0", "x.json", "--replay"}, {"birds", "animate", "x.xml"}, {"playtest", "play", dir}} {
		if code, out := cli(args...); code != 1 || !strings.Contains(out, "CLI-only build") {
			t.Errorf("%v: exit %d %q", args, code, out)
		}
	}
	if code, out := cli("--help"); code != 0 || strings.Contains(out, "window flags:") {
		t.Errorf("--help: exit %d %q", code, out)
	}
}
