package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"pcgwb/internal/safeio"
	"pcgwb/problems/experiment"
)

// State is where a run of a sweep stands.
type State string

// The states `workbench sweep --status` counts.
const (
	Finished State = "finished"
	Running  State = "running"
	// Failed: started and stopped before the end (Slurm says the task failed, timed out or
	// was cancelled, or nothing runs it any more): resubmitting resumes it.
	Failed  State = "failed"
	Pending State = "pending" // not started yet (queued, or listed but not submitted)
)

// States in display order.
var States = []State{Finished, Running, Failed, Pending}

// RunStatus is one run of a sweep.
type RunStatus struct {
	Dir   string
	State State
	// Generation is the last generation recorded, live (events.jsonl; -1 before the first),
	// of Generations.
	Generation, Generations int
	// Task is the Slurm array task that runs it (JOBID_INDEX) and SlurmState what squeue or
	// sacct say of it, when known.
	Task, SlurmState string
}

// Report is a sweep's status.
type Report struct {
	Runs   []RunStatus
	Counts map[State]int
	// Slurm says whether squeue answered; Notes explain what could not be asked.
	Slurm bool
	Notes []string
}

// Submission is one `--slurm` submission folder of a sweep.
type Submission struct {
	N      int
	Dir    string
	JobIDs []string // one per array, in order; none when not submitted (--dry-run)
	Runs   []string // the run folder of each line of the jobs file
	// RunsPerTask and TasksPerArray place line k (0-based) in task k/RunsPerTask, which is
	// index t%TasksPerArray+1 of array t/TasksPerArray (1 and unbounded for a submission made
	// before bundling and splitting existed).
	RunsPerTask, TasksPerArray int
}

// Task is the Slurm array task (JOBID_INDEX) that runs line k of the jobs file, or "".
func (s Submission) Task(k int) string {
	t := k / max(s.RunsPerTask, 1)
	array, index := 0, t
	if s.TasksPerArray > 0 {
		array, index = t/s.TasksPerArray, t%s.TasksPerArray
	}
	if array >= len(s.JobIDs) {
		return ""
	}
	return s.JobIDs[array] + "_" + strconv.Itoa(index+1)
}

// maxJobsFile bounds the jobs file read back (a line per run; 1,080 runs are ~250 kB).
const maxJobsFile = 64 << 20

// submissions lists a sweep's submission folders in order.
func submissions(sweep string) ([]Submission, error) {
	entries, err := os.ReadDir(filepath.Join(sweep, Dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Submission
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || !e.IsDir() || n < 1 {
			continue
		}
		out = append(out, Submission{N: n, Dir: filepath.Join(sweep, Dir, e.Name())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	return out, nil
}

// ReadSubmissions reads every submission of a sweep: its job id and its tasks' run folders.
func ReadSubmissions(sweep string) ([]Submission, error) {
	subs, err := submissions(sweep)
	if err != nil {
		return nil, err
	}
	for i := range subs {
		data, err := safeio.ReadFile(filepath.Join(subs[i].Dir, JobsFile), maxJobsFile)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		subs[i].Runs, err = ParseJobs(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(subs[i].Dir, JobsFile), err)
		}
		if data, err := safeio.ReadFile(filepath.Join(subs[i].Dir, JobIDFile), 1<<20); err == nil {
			for _, id := range strings.Fields(string(data)) {
				if _, err := strconv.Atoi(id); err == nil {
					subs[i].JobIDs = append(subs[i].JobIDs, id)
				}
			}
		}
		subs[i].RunsPerTask = 1
		if data, err := safeio.ReadFile(filepath.Join(subs[i].Dir, LayoutFile), 64); err == nil {
			var per, tasks int
			if n, _ := fmt.Sscanf(string(data), "%d %d", &per, &tasks); n == 2 && per > 0 && tasks > 0 {
				subs[i].RunsPerTask, subs[i].TasksPerArray = per, tasks
			}
		}
	}
	return subs, nil
}

// ParseJobs reads a jobs file: one `workbench run --resume DIR ...` (or, as earlier
// submissions wrote, `workbench run ... --out DIR ...`) command per line, quoted as a POSIX
// shell would read it. It returns each line's run folder.
func ParseJobs(data []byte) ([]string, error) {
	var dirs []string
	for n, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		words, err := SplitWords(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		dir := ""
		for i := 0; i+1 < len(words); i++ {
			if words[i] == "--out" || words[i] == "--resume" {
				dir = words[i+1]
			}
		}
		if dir == "" {
			return nil, fmt.Errorf("line %d has no --out: %s", n+1, safeio.ExcerptString(line))
		}
		dirs = append(dirs, dir)
	}
	return dirs, nil
}

// SplitWords splits a command line the way the shell does for the quoting ResumeLine
// writes: bare words, 'single-quoted' parts and backslash escapes outside quotes.
func SplitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated quote")
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '\\':
			if i+1 >= len(line) {
				return nil, errors.New("trailing backslash")
			}
			cur.WriteByte(line[i+1])
			i++
			inWord = true
		case c == '"' || c == '$' || c == '`' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>':
			return nil, fmt.Errorf("unexpected %q (not written by workbench)", c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// Querier runs Slurm's client commands; tests and machines without Slurm replace it.
type Querier func(ctx context.Context, name string, args ...string) ([]byte, error)

// Command runs the real Slurm commands (nil when sbatch's companions are not installed).
func Command() Querier {
	if _, err := exec.LookPath("squeue"); err != nil {
		return nil
	}
	return func(ctx context.Context, name string, args ...string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("%s: %w: %s", name, err, safeio.ExcerptString(strings.TrimSpace(stderr.String())))
		}
		return out, nil
	}
}

// SweepStatus reports every run of the sweep folder: the run folders found under it and the
// runs its submissions list. q may be nil (no Slurm): then running means the run folder is
// locked by a live process on this machine.
func SweepStatus(ctx context.Context, sweep string, q Querier) (*Report, error) {
	rep := &Report{Counts: map[State]int{}}
	subs, err := ReadSubmissions(sweep)
	if err != nil {
		return nil, err
	}
	byDir := map[string]*RunStatus{}
	var order []string
	add := func(dir string) *RunStatus {
		dir = filepath.Clean(dir)
		if r, ok := byDir[dir]; ok {
			return r
		}
		byDir[dir] = &RunStatus{Dir: dir, State: Pending, Generation: -1}
		order = append(order, dir)
		return byDir[dir]
	}
	abs, err := filepath.Abs(sweep)
	if err != nil {
		return nil, err
	}
	err = filepath.WalkDir(abs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == Dir && filepath.Dir(path) == abs {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == experiment.ConfigFile {
			add(filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Array tasks: the latest submission that lists a run is the one that runs it.
	var ids []string
	for _, s := range subs {
		ids = append(ids, s.JobIDs...)
		for i, dir := range s.Runs {
			add(dir).Task = s.Task(i)
		}
	}
	slurmStates := map[string]string{}
	if q != nil && len(ids) > 0 {
		if out, err := q(ctx, "squeue", "-h", "-r", "-j", strings.Join(ids, ","), "-o", "%i|%T"); err != nil {
			rep.Notes = append(rep.Notes, "squeue: "+err.Error())
		} else {
			rep.Slurm = true
			for task, st := range parseStates(out) {
				slurmStates[task] = st
			}
		}
		if out, err := q(ctx, "sacct", "-n", "-P", "-X", "-j", strings.Join(ids, ","), "-o", "JobID,State"); err != nil {
			rep.Notes = append(rep.Notes, "sacct: "+err.Error())
		} else {
			for task, st := range parseStates(out) {
				if _, queued := slurmStates[task]; !queued {
					slurmStates[task] = st
				}
			}
		}
	} else if q == nil && len(ids) > 0 {
		rep.Notes = append(rep.Notes, "Slurm's commands are not installed here: states come from the run folders only")
	}
	for _, dir := range order {
		r := byDir[dir]
		r.SlurmState = slurmStates[r.Task]
		classify(r)
		rep.Runs = append(rep.Runs, *r)
		rep.Counts[r.State]++
	}
	return rep, nil
}

// parseStates reads "JOBID_INDEX|STATE" lines (squeue -r, sacct -P). sacct's states may carry
// a suffix ("CANCELLED by 0"); array ranges that squeue did not expand are skipped.
func parseStates(out []byte) map[string]string {
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		id, st, ok := strings.Cut(strings.TrimSpace(sc.Text()), "|")
		if !ok || !strings.Contains(id, "_") || strings.Contains(id, "[") {
			continue
		}
		st, _, _ = strings.Cut(strings.TrimSpace(st), " ")
		m[id] = st
	}
	return m
}

// classify sets a run's state from its folder, its Slurm state and its lock.
func classify(r *RunStatus) {
	if run, err := experiment.Open(r.Dir); err == nil {
		r.Generations = run.Config.Generations
		if st, err := run.Status(); err == nil {
			r.Generation = st.Generation
			if st.Finished {
				r.State = Finished
				return
			}
		}
		// Live progress: events.jsonl records every generation as it ends, checkpoints
		// only every so often.
		if evs, err := experiment.ReadEvents(r.Dir); err == nil && len(evs) > 0 && evs[len(evs)-1].Generation > r.Generation {
			r.Generation = evs[len(evs)-1].Generation
		}
	}
	switch r.SlurmState {
	case "RUNNING", "COMPLETING", "CONFIGURING", "STAGE_OUT", "SIGNALING":
		r.State = Running
		return
	case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SUSPENDED":
		r.State = Pending // queued (again: a started run resumes)
		return
	case "FAILED", "TIMEOUT", "CANCELLED", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "COMPLETED":
		// COMPLETED without a finished run folder: the task ended early (e.g. an error).
		r.State = Failed
		return
	}
	if lockedHere(r.Dir) {
		r.State = Running
		return
	}
	if r.Generation >= 0 {
		r.State = Failed
	}
}
