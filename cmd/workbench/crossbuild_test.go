package main

import (
	"os"
	"os/exec"
	"testing"
)

// The CLI-only build compiles for Windows and macOS too (issue #33: the core used
// syscall.Stat_t in experiment and slurm, Linux-only, and nothing noticed): a build with
// CGO_ENABLED=0 for each system, the whole core included.
func TestCLIOnlyBuildsForWindowsAndMacOS(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the whole workbench for two more systems (-short)")
	}
	for _, target := range [][2]string{{"windows", "amd64"}, {"darwin", "arm64"}} {
		t.Run(target[0], func(t *testing.T) {
			build := exec.Command("go", "build", "-o", os.DevNull, ".")
			build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+target[0], "GOARCH="+target[1])
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("CGO_ENABLED=0 GOOS=%s GOARCH=%s go build: %v\n%s", target[0], target[1], err, out)
			}
		})
	}
}
