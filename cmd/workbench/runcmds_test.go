package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/internal/folderlock"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func smallRun(dir string, extra ...string) []string {
	return append([]string{"run", "--problem", "binary-v0", "--generator", "ga", "--fitness", "quality_control",
		"--generations", "3", "--pop", "10", "--seed", "2", "--out", dir}, extra...)
}

func TestRunWritesAReproducibleRunFolder(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	code, out, errs := runCLI(t, smallRun(a)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// progress on stderr, the result on stdout
	for _, want := range []string{"running binary-v0 ga quality_control seed 2", "gen 0/3", "gen 3/3"} {
		if !strings.Contains(errs, want) || strings.Contains(out, want) {
			t.Errorf("stderr lacks %q (or stdout has it):\n%s", want, errs)
		}
	}
	if !strings.Contains(out, "done: best fitness") {
		t.Errorf("stdout lacks the result:\n%s", out)
	}
	if strings.Contains(errs, "\r") {
		t.Error("progress bar drawn on a non-terminal")
	}
	// A checkpoint after every generation instead of every 10 s: the cadence is durability
	// only, never a result.
	if code, _, errs := runCLI(t, smallRun(b, "--checkpoint-every", "1", "--checkpoint-interval", "0")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !bytes.Equal(readFile(t, filepath.Join(a, "final.json")), readFile(t, filepath.Join(b, "final.json"))) {
		t.Fatal("the same seed gave different final.json (other checkpoint cadence)")
	}
	events := strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join(a, "events.jsonl")))), "\n")
	if len(events) != 4 {
		t.Fatalf("%d event lines, want 4", len(events))
	}
	var cfg experiment.Config
	if r, err := experiment.Open(a); err != nil {
		t.Fatal(err)
	} else {
		cfg = r.Config
	}
	if cfg.PopSize != 10 || cfg.Tournament != 7 || cfg.Elitism != 0.1 || cfg.MutationRate != 0.05 || cfg.CrossoverRate != 0.5 {
		t.Fatalf("config.json does not record the settings: %+v", cfg)
	}
	// Running the same command again finds the run finished.
	code, out, _ = runCLI(t, smallRun(a)...)
	if code != 0 || !strings.Contains(out, "already finished") {
		t.Fatalf("rerun: exit %d, %q", code, out)
	}
	// Another configuration into the same folder is refused.
	code, _, errs = runCLI(t, "run", "--problem", "binary-v0", "--generator", "es", "--out", a)
	if code != 2 || !strings.Contains(errs, "another run") {
		t.Fatalf("another run into the same folder: exit %d, %q", code, errs)
	}
}

// A run killed after generation 2 and continued with --resume ends like an uninterrupted one.
func TestResumeContinuesAKilledRun(t *testing.T) {
	tmp := t.TempDir()
	whole, killed := filepath.Join(tmp, "whole"), filepath.Join(tmp, "killed")
	if code, _, errs := runCLI(t, smallRun(whole)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r, err := experiment.Create(killed, experiment.Config{Generator: "ga", Generations: 3, Options: search.Options{
		Problem: "binary-v0", Fitness: "quality_control", Seed: 2, PopSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := r.Execute(ctx, func(ev search.Event) {
		if ev.Generation == 1 {
			cancel()
		}
	}); err == nil {
		t.Fatal("the killed run finished")
	}
	code, _, errs := runCLI(t, "run", "--resume", killed)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "resuming binary-v0 ga quality_control seed 2 at generation 1 of 3") || strings.Contains(errs, "gen 1/3") {
		t.Fatalf("resume output:\n%s", errs)
	}
	if !bytes.Equal(readFile(t, filepath.Join(whole, "final.json")), readFile(t, filepath.Join(killed, "final.json"))) {
		t.Fatal("the resumed run's final.json differs from the uninterrupted run's")
	}
}

func TestRunUsageErrors(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--generator", "ga"}, "--problem is required"},
		{[]string{"run", "--problem", "binary-v0", "--generator", "annealing", "--out", tmp + "/x"}, "unknown generator"},
		{[]string{"run", "--problem", "binary-v0", "--fitness", "speed", "--out", tmp + "/y"}, "unknown fitness"},
		{[]string{"run", "--problem", "binray-v0", "--out", tmp + "/z"}, "binary-v0"},
		{[]string{"run", "--resume", tmp}, "not a run folder"},
		{[]string{"run", "--problem", "binary-v0", "--generator", "mapelites"}, "regions"},
		{[]string{"run", "--problem", "isaac-v0", "--generator", "constructive", "--out", tmp + "/c"}, "not available"},
		{[]string{"run", "--problem", "binary-v0", "--checkpoint-every", "-1", "--out", tmp + "/n"}, "must not be negative"},
		{[]string{"run", "--problem", "binary-v0", "--checkpoint-interval", "0", "--out", tmp + "/n"}, "--checkpoint-every N"},
		{[]string{"sweep", "--problems", "binary-v0"}, "--out"},
		{[]string{"sweep", "--problems", "binary-v0", "--out", tmp + "/s", "--shared-cache-mib", "-2"}, "--shared-cache-mib"},
		{[]string{"sweep", "--problems", "binary-v0", "--out", tmp + "/s", "--slurm", "--shared-cache-mib", "64"}, "does not go with --slurm"},
		{[]string{"report"}, "DIR"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want 2 and %q)", c.args, code, errs, c.want)
		}
	}
}

func TestMapElitesAndConstructiveRuns(t *testing.T) {
	tmp := t.TempDir()
	code, _, errs := runCLI(t, "run", "--problem", "binary-v0", "--generator", "mapelites", "--axes", "regions:0:10:5,path:0:60:6",
		"--generations", "2", "--pop", "12", "--out", filepath.Join(tmp, "me"), "--quiet")
	if code != 0 {
		t.Fatalf("mapelites: exit %d: %s", code, errs)
	}
	f, err := experiment.ReadFinal(filepath.Join(tmp, "me"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Archive == nil || f.Archive.Filled != len(f.Population) || f.Archive.Filled == 0 {
		t.Fatalf("mapelites final archive %+v", f.Archive)
	}
	for _, p := range []string{"binary-v0", "zelda-v0", "sokoban-v0"} {
		code, _, errs := runCLI(t, "run", "--problem", p, "--generator", "constructive", "--generations", "0", "--pop", "10",
			"--out", filepath.Join(tmp, p), "--quiet")
		if code != 0 {
			t.Fatalf("%s constructive: exit %d: %s", p, code, errs)
		}
	}
}

func TestSweepEmitJobsAndReport(t *testing.T) {
	tmp := t.TempDir()
	sweep := []string{"sweep", "--problems", "binary-v0,zelda-v0", "--generators", "random,ga", "--fitness", "quality",
		"--seeds", "2", "--generations", "2", "--pop", "8", "--out", tmp, "--jobs", "2"}
	code, out, errs := runCLI(t, append(sweep, "--emit-jobs")...)
	if code != 0 {
		t.Fatalf("emit-jobs: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d job lines, want 8:\n%s", len(lines), out)
	}
	// A job line is a complete command: run the first one as a scheduler would.
	first := strings.Fields(lines[0])
	if first[0] != "workbench" || first[1] != "run" {
		t.Fatalf("job line %q", lines[0])
	}
	if code, _, errs := runCLI(t, append(first[1:], "--quiet")...); code != 0 {
		t.Fatalf("job line: exit %d: %s", code, errs)
	}
	_, out, _ = runCLI(t, append(sweep, "--emit-jobs")...)
	if n := len(strings.Split(strings.TrimSpace(out), "\n")); n != 7 {
		t.Fatalf("after one job ran, %d job lines, want 7", n)
	}
	code, out, errs = runCLI(t, sweep...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s\n%s", code, errs, out)
	}
	if !strings.Contains(errs, "already done") || !strings.Contains(errs, "[8/8]") || !strings.Contains(out, "sweep finished") {
		t.Fatalf("sweep output:\n%s\nprogress:\n%s", out, errs)
	}
	code, out, errs = runCLI(t, "report", tmp)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "ga: feasible individuals in the final population in") {
		t.Fatalf("report output:\n%s", out)
	}
	f, err := os.Open(filepath.Join(tmp, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 5 {
		t.Fatalf("summary.csv: %d rows, %v", len(rows), err)
	}
	pngs, _ := filepath.Glob(filepath.Join(tmp, "plots", "*.png"))
	if len(pngs) != 4 { // two fitness curves, their overview and one counts figure
		t.Fatalf("figures %v", pngs)
	}
	for _, p := range pngs {
		if _, err := png.Decode(bytes.NewReader(readFile(t, p))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
}

func TestProgressBarOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &progressPrinter{w: &buf, tty: true, total: 4}
	p.event(search.Event{Generation: 2, BestFitness: 0.5})
	if got := buf.String(); !strings.HasPrefix(got, "\r[############............] gen 2/4 best 0.5000") || strings.HasSuffix(got, "\n") {
		t.Fatalf("bar %q", got)
	}
	p.event(search.Event{Generation: 4, BestFitness: 1})
	if !strings.HasSuffix(buf.String(), "\n") {
		t.Fatal("the bar does not end its line at the last generation")
	}
	if isTerminal(&buf) {
		t.Fatal("a buffer is not a terminal")
	}
	if null, err := os.Open(os.DevNull); err == nil {
		defer null.Close()
		if isTerminal(null) {
			t.Fatal("/dev/null (a character device) is not a terminal")
		}
	}
}

// A second writer of a run or sweep folder exits 1 naming the holder's pid; a damaged
// checkpoint is an error naming the file and field, not a stack trace; report names the run it
// fails on.
func TestRunFolderSafety(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "run")
	if code, _, errs := runCLI(t, smallRun(dir, "--quiet")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	os.Remove(filepath.Join(dir, experiment.FinalFile))
	sweep := filepath.Join(tmp, "sweep")
	os.MkdirAll(sweep, 0o755)
	for _, tc := range []struct {
		name, dir string
		args      []string
	}{
		{"run", filepath.Join(tmp, "new"), smallRun(filepath.Join(tmp, "new"), "--quiet")},
		{"resume", dir, []string{"run", "--resume", dir, "--quiet"}},
		{"sweep", sweep, []string{"sweep", "--problems", "binary-v0", "--generators", "ga", "--fitness", "quality",
			"--seeds", "1", "--generations", "1", "--pop", "4", "--out", sweep}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.MkdirAll(tc.dir, 0o755)
			lock, err := folderlock.Acquire(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Release()
			code, _, errs := runCLI(t, tc.args...)
			if code != 1 || !strings.Contains(errs, fmt.Sprintf("pid %d", os.Getpid())) {
				t.Fatalf("second writer: exit %d: %s", code, errs)
			}
		})
	}

	cp := filepath.Join(dir, experiment.CheckpointFile)
	good := readFile(t, cp)
	var m map[string]any
	json.Unmarshal(good, &m)
	m["state"] = nil
	bad, _ := json.Marshal(m)
	os.WriteFile(cp, bad, 0o644)
	code, _, errs := runCLI(t, "run", "--resume", dir, "--quiet")
	if code != 1 || !strings.Contains(errs, cp+": state: missing") || strings.Contains(errs, "goroutine") {
		t.Fatalf("damaged checkpoint: exit %d: %s", code, errs)
	}
	os.WriteFile(cp, good, 0o644)
	if code, _, errs := runCLI(t, "run", "--resume", dir, "--quiet"); code != 0 {
		t.Fatalf("repaired: exit %d: %s", code, errs)
	}

	// two writers interleaved events.jsonl: report names the run
	ev := filepath.Join(dir, experiment.EventsFile)
	lines := bytes.SplitAfter(readFile(t, ev), []byte("\n"))
	os.WriteFile(ev, bytes.Join([][]byte{lines[0], lines[1], lines[1], lines[2]}, nil), 0o644)
	code, _, errs = runCLI(t, "report", tmp)
	if code == 0 || !strings.Contains(errs, "run "+dir) || !strings.Contains(errs, "line 3") {
		t.Fatalf("report on a damaged run: exit %d: %s", code, errs)
	}
}

// A sweep's checkpoint cadence reaches the runs it emits for a scheduler, and the default
// cadence adds nothing to the lines.
func TestSweepPassesItsCheckpointCadence(t *testing.T) {
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, ""},
		{[]string{"--checkpoint-every", "1", "--checkpoint-interval", "0"}, "--checkpoint-interval 0s --checkpoint-every 1"},
		{[]string{"--checkpoint-interval", "1m"}, "--checkpoint-interval 1m0s --checkpoint-every 0"},
	} {
		// A sweep folder each: a job that ran is finished and no longer emitted.
		sweep := []string{"sweep", "--problems", "binary-v0", "--generators", "ga", "--fitness", "quality",
			"--seeds", "1", "--generations", "2", "--pop", "8", "--out", t.TempDir(), "--emit-jobs"}
		code, out, errs := runCLI(t, append(sweep, c.extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.extra, code, errs)
		}
		if has := strings.Contains(out, "--checkpoint"); has != (c.want != "") || !strings.Contains(out, c.want) {
			t.Errorf("%v: job line %q, want %q", c.extra, out, c.want)
		}
		if c.want == "" {
			continue
		}
		line := strings.Fields(strings.TrimSpace(out))
		if len(line) < 2 {
			t.Fatalf("job line %q", out)
		}
		if code, _, errs := runCLI(t, append(line[1:], "--quiet")...); code != 0 {
			t.Fatalf("job line: exit %d: %s", code, errs)
		}
	}
}

// The sweep's shared cache is memory only: a sweep without it writes the same final.json files.
func TestSweepWithoutSharingWritesTheSameRuns(t *testing.T) {
	grid := []string{"sweep", "--problems", "binary-v0", "--generators", "random,ga", "--fitness", "quality,quality_control",
		"--seeds", "1", "--generations", "3", "--pop", "10", "--jobs", "2"}
	shared, alone := t.TempDir(), t.TempDir()
	if code, _, errs := runCLI(t, append(grid, "--out", shared)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, append(grid, "--out", alone, "--shared-cache-mib", "-1")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, got := finals(t, shared), finals(t, alone)
	if len(want) != 4 || len(got) != 4 {
		t.Fatalf("%d and %d final.json, want 4 each", len(want), len(got))
	}
	for rel, w := range want {
		if !bytes.Equal(w, got[rel]) {
			t.Errorf("%s differs with and without the shared cache", rel)
		}
	}
}
