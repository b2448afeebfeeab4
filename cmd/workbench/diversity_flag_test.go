package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pcgwb/problems/experiment"
)

// eval --diversity 2025-01 gives the January 2025 set diversity (more unique items on random
// Zelda levels than today's), with or without --matrix; an unknown name is a usage error.
func TestEvalDiversityFlag(t *testing.T) {
	code, sample, errs := runCLI(t, "sample", "zelda-v0", "-n", "60", "--seed", "3")
	if code != 0 {
		t.Fatalf("sample: exit %d: %s", code, errs)
	}
	file := filepath.Join(t.TempDir(), "items.json")
	if err := os.WriteFile(file, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	pct := func(args ...string) float64 {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"eval", "zelda-v0", file}, args...)...)
		if code != 0 {
			t.Fatalf("eval %v: exit %d: %s", args, code, errs)
		}
		var v struct {
			DiversityPct float64 `json:"diversity_pct"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		return v.DiversityPct
	}
	cur, old := pct(), pct("--diversity", "2025-01")
	if explicit := pct("--diversity", "current"); explicit != cur {
		t.Errorf("--diversity current gives %v, the default %v", explicit, cur)
	}
	if m := pct("--diversity", "2025-01", "--matrix"); m != old {
		t.Errorf("2025-01 with --matrix %v, without %v", m, old)
	}
	if old <= cur {
		t.Errorf("unique share of 60 random zelda levels: %v (2025-01), %v (current)", old, cur)
	}
	if code, _, errs := runCLI(t, "eval", "zelda-v0", file, "--diversity", "2024"); code != 2 || !strings.Contains(errs, "2025-01") {
		t.Errorf("--diversity 2024: exit %d: %s", code, errs)
	}
}

// sweep --independent-seeds gives every fitness and generator its own seeds and --diversity
// reaches the emitted jobs' folders; the paired design keeps seed k; run records it.
func TestSweepIndependentSeedsAndDiversityFlags(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"sweep", "--problems", "binary-v0", "--generators", "random,ga", "--fitness", "quality,quality_control",
		"--seeds", "2", "--generations", "1", "--pop", "6", "--emit-jobs"}
	code, out, errs := runCLI(t, append(base, "--out", filepath.Join(tmp, "i"), "--independent-seeds", "--diversity", "2025-01")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// A job line names its run folder (run --resume DIR); the folder's config.json holds the
	// run's configuration, seed and diversity algorithm included.
	jobConfig := func(line string) experiment.Config {
		t.Helper()
		f := strings.Fields(line)
		if len(f) != 4 || f[1] != "run" || f[2] != "--resume" {
			t.Fatalf("job line %q", line)
		}
		r, err := experiment.Open(f[3])
		if err != nil {
			t.Fatalf("job line %q: %v", line, err)
		}
		return r.Config
	}
	seen := map[uint64]bool{}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		c := jobConfig(l)
		if seen[c.Seed] || c.Diversity != "2025-01" {
			t.Fatalf("job %q: seed %d diversity %q (seeds so far %v)", l, c.Seed, c.Diversity, seen)
		}
		seen[c.Seed] = true
	}
	if len(lines) != 8 {
		t.Fatalf("%d job lines, want 8", len(lines))
	}
	code, out, errs = runCLI(t, append(base, "--out", filepath.Join(tmp, "p"))...)
	if code != 0 {
		t.Fatalf("paired: exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if c := jobConfig(l); !strings.HasSuffix(l, "/"+strconv.FormatUint(c.Seed, 10)) || c.Diversity != "" {
			t.Fatalf("paired job %q: seed %d diversity %q", l, c.Seed, c.Diversity)
		}
	}
	// The first independent line, run as a scheduler would, records the algorithm.
	first := strings.Fields(lines[0])
	if code, _, errs := runCLI(t, append(first[1:], "--quiet")...); code != 0 {
		t.Fatalf("job line: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(filepath.Join(first[len(first)-1], "config.json"))
	if err != nil || !strings.Contains(string(data), `"diversity": "2025-01"`) {
		t.Fatalf("config.json: %v\n%s", err, data)
	}
	if code, _, errs := runCLI(t, "report", tmp, "--diversity", "2025-01"); code != 2 || !strings.Contains(errs, "--paper") {
		t.Errorf("report --diversity without --paper: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "run", "--resume", first[len(first)-1], "--diversity", "2025-01"); code != 2 {
		t.Errorf("run --resume --diversity 2025-01: exit %d: %s", code, errs)
	}
}
