package slurm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "pcgwb/problems/all"
	"pcgwb/problems/experiment"
	"pcgwb/problems/search"
)

func TestOptionsCheck(t *testing.T) {
	ok := Options{Program: "/usr/bin/workbench"}
	for _, tc := range []struct {
		name string
		mod  func(*Options)
		bad  bool
	}{
		{"plain", func(*Options) {}, false},
		{"all set", func(o *Options) {
			o.Partition, o.Time, o.Mem, o.Account, o.MaxParallel = "gpu-1", "1-02:00:00", "2G", "proj_x", 8
		}, false},
		{"minutes", func(o *Options) { o.Time = "90" }, false},
		{"relative program", func(o *Options) { o.Program = "workbench" }, true},
		{"program with newline", func(o *Options) { o.Program = "/bin/wb\n#SBATCH --x" }, true},
		{"bad time", func(o *Options) { o.Time = "soon" }, true},
		{"bad mem", func(o *Options) { o.Mem = "2 GB" }, true},
		{"partition injection", func(o *Options) { o.Partition = "a\n#SBATCH --uid=0" }, true},
		{"account with space", func(o *Options) { o.Account = "a b" }, true},
		{"negative parallel", func(o *Options) { o.MaxParallel = -1 }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.mod(&o)
			if err := o.Check(); (err != nil) != tc.bad {
				t.Errorf("Check() = %v, want error %v", err, tc.bad)
			}
		})
	}
}

func testSweep(out string) experiment.Sweep {
	return experiment.Sweep{Problems: []string{"binary-v0"}, Generators: []string{"random", "ga"}, Fitnesses: []string{"quality"},
		Seeds: 2, Generations: 1, Options: search.Options{PopSize: 6}, Out: out}
}

func TestPrepareScriptAndJobs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "my sweep")
	p, err := Prepare(testSweep(out), Options{Program: "/opt/wb/workbench", Partition: "short", Time: "00:30:00", Mem: "1G", Account: "pcg", MaxParallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Jobs) != 4 || len(p.Lines) != 4 {
		t.Fatalf("%d jobs, %d lines, want 4", len(p.Jobs), len(p.Lines))
	}
	if want := filepath.Join(out, Dir, "001"); p.Dir != want {
		t.Errorf("submission folder %s, want %s", p.Dir, want)
	}
	if a := p.Arrays(); len(a) != 1 || a[0] != (ArrayChunk{Offset: 0, Tasks: 4}) {
		t.Errorf("arrays %v, want one of 4 tasks", a)
	}
	for i, l := range p.Lines {
		// a job is data: the run folder's config.json, not flags spelled on the line
		if !strings.Contains(l, " run --resume ") || strings.Contains(l, "--problem") {
			t.Errorf("line %d: %s", i+1, l)
		}
	}
	for _, want := range []string{"#SBATCH --partition=short", "#SBATCH --time=00:30:00",
		"#SBATCH --mem=1G", "#SBATCH --account=pcg", "#SBATCH --requeue", "exec ${lines[0]}", filepath.Join(p.Dir, JobsFile)} {
		if !strings.Contains(p.Script, want) {
			t.Errorf("script lacks %q:\n%s", want, p.Script)
		}
	}
	// The jobs file reads back to the run folders, quoting and all.
	dirs, err := ParseJobs([]byte(strings.Join(p.Lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range p.Jobs {
		if dirs[i] != j.Dir {
			t.Errorf("line %d reads back as %q, want %q", i+1, dirs[i], j.Dir)
		}
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	subs, err := ReadSubmissions(out)
	if err != nil || len(subs) != 1 || !reflect.DeepEqual(subs[0].Runs, dirs) || len(subs[0].JobIDs) != 0 {
		t.Fatalf("ReadSubmissions = %+v, %v", subs, err)
	}
	// A second submission goes to the next folder; a finished run is left out.
	j := p.Jobs[0]
	r, err := experiment.Create(j.Dir, j.Config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p2, err := Prepare(testSweep(out), Options{Program: "/opt/wb/workbench"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p2.Jobs) != 3 || p2.Dir != filepath.Join(out, Dir, "002") || p2.Tasks() != 3 {
		t.Errorf("second plan: %d jobs in %s\n%s", len(p2.Jobs), p2.Dir, p2.Script)
	}
}

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
		bad  bool
	}{
		{"a b  c", []string{"a", "b", "c"}, false},
		{`wb run --out '/tmp/my sweep/x'`, []string{"wb", "run", "--out", "/tmp/my sweep/x"}, false},
		{`a 'it'\''s' b`, []string{"a", "it's", "b"}, false},
		{`a\ b`, []string{"a b"}, false},
		{`''`, []string{""}, false},
		{`a 'open`, nil, true},
		{`a\`, nil, true},
		{`a; rm -rf /`, nil, true},
		{`a $(x)`, nil, true},
		{`"a"`, nil, true},
	} {
		got, err := SplitWords(tc.line)
		if (err != nil) != tc.bad || (!tc.bad && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q (error %v)", tc.line, got, err, tc.want, tc.bad)
		}
	}
}

func TestParseJobsErrors(t *testing.T) {
	for _, in := range []string{"wb run --problem x\n", "wb run --out 'x\n", "wb run --out a; b\n"} {
		if _, err := ParseJobs([]byte(in)); err == nil {
			t.Errorf("ParseJobs(%q) accepted", in)
		}
	}
}

func TestParseStates(t *testing.T) {
	got := parseStates([]byte("12_1|RUNNING\n12_2|CANCELLED by 0\n12_[3-9%2]|PENDING\n13|COMPLETED\nnoise\n"))
	want := map[string]string{"12_1": "RUNNING", "12_2": "CANCELLED"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseStates = %v, want %v", got, want)
	}
}

// TestSweepStatus covers the four states from folders and a fake Slurm: a finished run, one
// Slurm runs, one that failed part-way and one never started.
func TestSweepStatus(t *testing.T) {
	out := t.TempDir()
	p, err := Prepare(testSweep(out), Options{Program: "/opt/wb/workbench"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.Dir, JobIDFile), []byte("77\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Task 1 finished, tasks 2 and 3 started (one generation of two), task 4 untouched.
	for i, j := range p.Jobs[:3] {
		r, err := experiment.Create(j.Dir, j.Config)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		stopEarly := i > 0
		_, err = r.Execute(ctx, func(ev search.Event) {
			if stopEarly && ev.Generation == 0 {
				cancel()
			}
		})
		cancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		q     Querier
		want  map[State]int
		slurm bool
	}{
		{"no slurm", nil, map[State]int{Finished: 1, Failed: 2, Pending: 1}, false},
		{"slurm", func(_ context.Context, name string, _ ...string) ([]byte, error) {
			if name == "squeue" {
				return []byte("77_2|RUNNING\n77_4|PENDING\n"), nil
			}
			return []byte("77_1|COMPLETED\n77_3|TIMEOUT\n"), nil
		}, map[State]int{Finished: 1, Running: 1, Failed: 1, Pending: 1}, true},
		{"sacct disabled", func(_ context.Context, name string, _ ...string) ([]byte, error) {
			if name == "squeue" {
				return []byte("77_2|RUNNING\n"), nil
			}
			return nil, errors.New("Slurm accounting storage is disabled")
		}, map[State]int{Finished: 1, Running: 1, Failed: 1, Pending: 1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := SweepStatus(context.Background(), out, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep.Counts, tc.want) || rep.Slurm != tc.slurm || len(rep.Runs) != 4 {
				t.Errorf("counts %v (slurm %v, %d runs), want %v (slurm %v)", rep.Counts, rep.Slurm, len(rep.Runs), tc.want, tc.slurm)
			}
		})
	}
}

func FuzzParseJobs(f *testing.F) {
	f.Add([]byte("/w/workbench run --problem binary-v0 --out '/tmp/a b/x' --quiet\n"))
	f.Add([]byte("a 'it'\\''s' --out x\n\n"))
	f.Add([]byte("--out\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dirs, err := ParseJobs(data)
		if err != nil {
			return
		}
		// Every folder read back survives a round trip through the quoting the sweep writes.
		for _, d := range dirs {
			w, err := SplitWords("x --out " + quoteForTest(d))
			if err != nil || len(w) != 3 || w[2] != d {
				t.Fatalf("folder %q does not round-trip: %q %v", d, w, err)
			}
		}
	})
}

func quoteForTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// A plan larger than the cluster's MaxArraySize is split into arrays of at most
// MaxArraySize-1 tasks (indices 1..n, the offset passed to the script), and --runs-per-task
// bundles runs into tasks; the status maps each run back to its array task.
func TestArraysSplitAndBundle(t *testing.T) {
	out := t.TempDir()
	sw := testSweep(out)
	sw.Seeds = 5 // 10 runs
	for _, tc := range []struct {
		max, per int
		want     []ArrayChunk
	}{
		{3, 1, []ArrayChunk{{0, 2}, {2, 2}, {4, 2}, {6, 2}, {8, 2}}},
		{1001, 1, []ArrayChunk{{0, 10}}},
		{5, 3, []ArrayChunk{{0, 4}}},
		{3, 4, []ArrayChunk{{0, 2}, {2, 1}}},
	} {
		p, err := Prepare(sw, Options{Program: "/opt/wb/workbench", MaxArraySize: tc.max, RunsPerTask: tc.per})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Arrays(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("max %d, %d per task: arrays %v, want %v", tc.max, tc.per, got, tc.want)
		}
	}
	s := Submission{JobIDs: []string{"10", "11"}, RunsPerTask: 2, TasksPerArray: 3}
	for k, want := range map[int]string{0: "10_1", 1: "10_1", 2: "10_2", 5: "10_3", 6: "11_1", 11: "11_3", 12: ""} {
		if got := s.Task(k); got != want {
			t.Errorf("line %d: task %q, want %q", k, got, want)
		}
	}
	if _, err := Prepare(sw, Options{Program: "/opt/wb/workbench", MaxArraySize: 1}); err == nil {
		t.Error("MaxArraySize 1 was accepted")
	}
}

func TestParseMaxArraySize(t *testing.T) {
	conf := "Configuration data as of 2026-11-27T22:00:00\nAccountingStorageType   = (null)\nMaxArraySize            = 1001\nMaxJobCount             = 10000\n"
	if n, err := parseMaxArraySize([]byte(conf)); err != nil || n != 1001 {
		t.Errorf("= %d, %v", n, err)
	}
	for _, bad := range []string{"MaxJobCount = 3\n", "MaxArraySize = many\n"} {
		if _, err := parseMaxArraySize([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
