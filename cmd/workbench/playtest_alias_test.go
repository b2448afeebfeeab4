package main

import (
	"strings"
	"testing"
)

// `playtest play` keeps its earlier flags: --player takes a participant code (a name is refused,
// as names must never land in files) and --fullscreen is accepted (full screen is the default).
func TestPlaytestPlayKeepsItsEarlierFlags(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "playtest", "play", dir, "--player", "Alice", "--fullscreen")
	if code != 2 || !strings.Contains(stderr, "--participant") {
		t.Fatalf("--player Alice: exit %d, %q; want exit 2 refusing a name for a code", code, stderr)
	}
	if strings.Contains(stderr, "flag provided but not defined") {
		t.Fatalf("an earlier flag is no longer accepted: %q", stderr)
	}
}
