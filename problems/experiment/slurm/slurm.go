// Package slurm runs a sweep (experiment.Sweep) as a Slurm job array: it writes the list of
// `workbench run` commands and an `sbatch --array` script into the sweep folder, submits it,
// and reports the sweep's progress from the run folders and, when Slurm answers, from squeue
// and sacct.
//
// A job is data, not a re-spelled command line: the submission creates every run folder with
// its config.json (the run's whole configuration, as a local sweep writes it), and an array
// task runs `workbench run --resume DIR` on its folder(s), so nothing a sweep sets can be lost
// on the way to the cluster. A run resumes from its checkpoint and a finished run is left
// alone, so a requeued or resubmitted task is safe: it ends with the same final.json as an
// uninterrupted run.
//
// Slurm caps an array's indices (MaxArraySize, 1001 by default: indices 0-1000); a larger
// submission is split into several arrays, and --runs-per-task bundles cheap runs, one after
// the other, into one task.
package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems/experiment"
)

// Dir is the folder, inside the sweep folder, that holds the submissions.
const Dir = "slurm"

// File names inside one submission folder (DIR/slurm/NNN).
const (
	JobsFile   = "jobs.txt"     // one `workbench run --resume DIR` line per run
	ScriptFile = "sweep.sbatch" // the sbatch script
	JobIDFile  = "jobid"        // Slurm's job ids, once submitted (one per array, in order)
	LayoutFile = "layout"       // "RUNS_PER_TASK TASKS_PER_ARRAY": which task runs which line
	LogsDir    = "logs"         // the tasks' output (%A_%a.out)
)

// Options are the sbatch settings of a submission.
type Options struct {
	// Program is the workbench binary the tasks run (an absolute path: the tasks do not see
	// the submitter's working directory changes, and compute nodes share the file system).
	Program string
	// Partition, Time (e.g. "02:00:00"), Mem (e.g. "2G") and Account are passed to sbatch
	// when set.
	Partition, Time, Mem, Account string
	// MaxParallel caps the tasks running at once (the array's %N); 0 leaves it to Slurm.
	MaxParallel int
	// CPUs per task (default 1: a run evaluates its population with GOMAXPROCS threads,
	// which the script sets to this number).
	CPUs int
	// JobName is the Slurm job name (default "pcgwb-sweep").
	JobName string
	// RunsPerTask bundles this many runs, run one after the other, into each array task
	// (default 1).
	RunsPerTask int
	// MaxArraySize is the cluster's MaxArraySize (array indices 0..MaxArraySize-1); 0 means
	// DefaultMaxArraySize. Submit reads the real value from `scontrol show config`.
	MaxArraySize int
	// Checkpoint is the runs' checkpoint cadence (zero: the default), passed to each task's
	// `workbench run --resume` as the flags it has for it.
	Checkpoint experiment.Cadence
}

// DefaultMaxArraySize is Slurm's default MaxArraySize.
const DefaultMaxArraySize = 1001

var (
	timeRe = regexp.MustCompile(`^(\d+-)?\d+(:\d{1,2}){0,2}$`)
	memRe  = regexp.MustCompile(`^\d+[KMGT]?$`)
	nameRe = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
)

// Check validates the options, so that nothing odd reaches the script's #SBATCH lines.
func (o Options) Check() error {
	if o.Program == "" || !filepath.IsAbs(o.Program) {
		return fmt.Errorf("the workbench program must be an absolute path, got %q", o.Program)
	}
	if strings.ContainsAny(o.Program, "\n\r") {
		return errors.New("the workbench program path holds a line break")
	}
	if o.Time != "" && !timeRe.MatchString(o.Time) {
		return fmt.Errorf("--time %q is not a Slurm time (minutes, MM:SS, HH:MM:SS or D-HH:MM:SS)", o.Time)
	}
	if o.Mem != "" && !memRe.MatchString(o.Mem) {
		return fmt.Errorf("--mem %q is not a Slurm memory size (e.g. 2G, 500M)", o.Mem)
	}
	for _, f := range []struct{ name, v string }{{"--partition", o.Partition}, {"--account", o.Account}, {"job name", o.JobName}} {
		if f.v != "" && !nameRe.MatchString(f.v) {
			return fmt.Errorf("%s %q: only letters, digits and _.+- are allowed", f.name, f.v)
		}
	}
	if o.MaxParallel < 0 || o.CPUs < 0 || o.RunsPerTask < 0 || o.MaxArraySize < 0 {
		return errors.New("--max-parallel, --runs-per-task and CPUs must not be negative")
	}
	if strings.ContainsAny(o.Program, "'") {
		return errors.New("the workbench program path holds a quote")
	}
	return nil
}

// Plan is one submission: the unfinished runs of a sweep, RunsPerTask per array task, in
// arrays of at most MaxArraySize-1 tasks (indices 1..n of each).
type Plan struct {
	// Dir is the submission folder (SWEEP/slurm/NNN).
	Dir     string
	Jobs    []experiment.Job
	Lines   []string
	Script  string
	Options Options
}

// Prepare lists the sweep's unfinished runs and makes the submission's files' contents
// (nothing is written). The sweep folder is made absolute first, so that the tasks find the
// runs from any working directory. A sweep with nothing left to run gives a plan without jobs.
func Prepare(s experiment.Sweep, o Options) (*Plan, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.CPUs == 0 {
		o.CPUs = 1
	}
	if o.JobName == "" {
		o.JobName = "pcgwb-sweep"
	}
	if o.RunsPerTask == 0 {
		o.RunsPerTask = 1
	}
	if o.MaxArraySize == 0 {
		o.MaxArraySize = DefaultMaxArraySize
	}
	if o.MaxArraySize < 2 {
		return nil, fmt.Errorf("MaxArraySize %d leaves no array index from 1", o.MaxArraySize)
	}
	out, err := filepath.Abs(s.Out)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(out, "\n\r'") {
		return nil, fmt.Errorf("the sweep folder %q holds a quote or a line break", out)
	}
	s.Out = out
	jobs, err := s.Jobs()
	if err != nil {
		return nil, err
	}
	p := &Plan{Options: o}
	for _, j := range jobs {
		if finished(j) {
			continue
		}
		p.Jobs = append(p.Jobs, j)
		p.Lines = append(p.Lines, jobLine(o, j.Dir))
	}
	p.Dir, err = nextSubmission(out)
	if err != nil {
		return nil, err
	}
	p.Script = script(p.Dir, o)
	return p, nil
}

// jobLine is a task's command for one run: the run folder holds the configuration.
// Not --quiet: the progress lines (standard error) go to the task's log, live.
func jobLine(o Options, dir string) string {
	return experiment.ResumeLine(o.Program, dir, o.Checkpoint)
}

// SbatchArgs are the sbatch arguments that submit one array of the plan.
func (p *Plan) SbatchArgs(a ArrayChunk) []string {
	array := fmt.Sprintf("1-%d", a.Tasks)
	if p.Options.MaxParallel > 0 {
		array += "%" + strconv.Itoa(p.Options.MaxParallel)
	}
	return []string{"--parsable", "--array=" + array, filepath.Join(p.Dir, ScriptFile), strconv.Itoa(a.Offset)}
}

// Tasks is the number of array tasks: the runs bundled RunsPerTask at a time.
func (p *Plan) Tasks() int { return (len(p.Jobs) + p.Options.RunsPerTask - 1) / p.Options.RunsPerTask }

// Arrays are the array ranges to submit: the tasks in chunks of at most MaxArraySize-1, each
// submitted as indices 1..n with the number of tasks before it (the script's argument).
func (p *Plan) Arrays() []ArrayChunk {
	per := p.Options.MaxArraySize - 1
	var out []ArrayChunk
	for first := 0; first < p.Tasks(); first += per {
		out = append(out, ArrayChunk{Offset: first, Tasks: min(per, p.Tasks()-first)})
	}
	return out
}

// ArrayChunk is one sbatch array of a plan: Tasks tasks after the first Offset.
type ArrayChunk struct{ Offset, Tasks int }

// MaxArraySize asks the cluster for its MaxArraySize (`scontrol show config`).
func MaxArraySize(ctx context.Context, q Querier) (int, error) {
	if q == nil {
		return 0, errors.New("scontrol is not installed")
	}
	out, err := q(ctx, "scontrol", "show", "config")
	if err != nil {
		return 0, err
	}
	return parseMaxArraySize(out)
}

// parseMaxArraySize reads "MaxArraySize            = 1001" from scontrol's configuration.
func parseMaxArraySize(out []byte) (int, error) {
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "MaxArraySize" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return 0, fmt.Errorf("scontrol: MaxArraySize %q is not a count", strings.TrimSpace(v))
			}
			return n, nil
		}
	}
	return 0, errors.New("scontrol show config has no MaxArraySize")
}

// finished reports whether a job's folder holds its finished run.
func finished(j experiment.Job) bool {
	r, err := experiment.Open(j.Dir)
	if err != nil {
		return false
	}
	st, err := r.Status()
	return err == nil && st.Finished
}

// nextSubmission names the next free submission folder SWEEP/slurm/001, 002, ...
func nextSubmission(sweep string) (string, error) {
	subs, err := submissions(sweep)
	if err != nil {
		return "", err
	}
	n := 1
	if len(subs) > 0 {
		n = subs[len(subs)-1].N + 1
	}
	return filepath.Join(sweep, Dir, fmt.Sprintf("%03d", n)), nil
}

// script is the sbatch script. Task i of an array submitted with argument OFFSET runs the
// RunsPerTask lines from (OFFSET+i-1)*RunsPerTask+1 of the jobs file, one after the other; a
// run is started with exec when it is the task's only one, so that Slurm's signals (scancel,
// requeue, the time limit) reach it and it stops at a generation boundary with its
// checkpoint written (bundled runs get the signal passed on by the script).
func script(dir string, o Options) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", o.JobName)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(dir, LogsDir, "%A_%a.out"))
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", o.CPUs)
	b.WriteString("#SBATCH --ntasks=1\n#SBATCH --requeue\n#SBATCH --open-mode=append\n#SBATCH --signal=B:TERM@60\n")
	for _, kv := range [][2]string{{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", kv[0], kv[1])
		}
	}
	fmt.Fprintf(&b, `# Written by workbench sweep --slurm and submitted with --array=1-N and one argument, the
# number of tasks before this array. Task i runs %[4]d line(s) of %[1]s (idempotent: a
# requeued task resumes its run from the checkpoint, a finished run is skipped).
set -u
export GOMAXPROCS=%[2]d
per=%[4]d
task=$(( ${1:-0} + SLURM_ARRAY_TASK_ID ))
first=$(( (task - 1) * per + 1 ))
last=$(( task * per ))
mapfile -t lines < <(sed -n "${first},${last}p" '%[3]s')
if [ ${#lines[@]} -eq 0 ]; then
	echo "no job for array task ${SLURM_ARRAY_TASK_ID} (task $task)" >&2
	exit 1
fi
echo "task ${SLURM_ARRAY_TASK_ID} (restart ${SLURM_RESTART_COUNT:-0}) on $(hostname): line(s) $first-$((first + ${#lines[@]} - 1)) of the jobs file"
if [ ${#lines[@]} -eq 1 ]; then
	eval "exec ${lines[0]}"
fi
child=
trap '[ -n "$child" ] && kill -TERM "$child"; wait "$child"; exit 143' TERM
for line in "${lines[@]}"; do
	echo "run: $line"
	eval "$line &"
	child=$!
	wait "$child" || exit $?
	child=
done
`, JobsFile, o.CPUs, filepath.Join(dir, JobsFile), o.RunsPerTask)
	return b.String()
}

// Write creates the submission folder with the jobs file and the script.
func (p *Plan) Write() error {
	// The run folders, with their configuration: what the tasks run.
	for _, j := range p.Jobs {
		if _, err := experiment.Create(j.Dir, j.Config); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(p.Dir, LogsDir), 0o755); err != nil {
		return err
	}
	layout := fmt.Sprintf("%d %d\n", p.Options.RunsPerTask, p.Options.MaxArraySize-1)
	if err := atomicfile.Write(filepath.Join(p.Dir, LayoutFile), []byte(layout), 0o644); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(p.Dir, JobsFile), []byte(strings.Join(p.Lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(p.Dir, ScriptFile), []byte(p.Script), 0o755)
}

// Submit runs sbatch on the written plan, one array per chunk, and records the job ids in
// the submission folder (one per line, in order). It returns them.
func (p *Plan) Submit(ctx context.Context) ([]string, error) {
	if len(p.Jobs) == 0 {
		return nil, errors.New("nothing to submit: every run of the sweep is finished")
	}
	var ids []string
	for _, a := range p.Arrays() {
		id, err := sbatch(ctx, p.SbatchArgs(a)...)
		if err != nil {
			if len(ids) > 0 {
				err = fmt.Errorf("%w (arrays submitted before: %s)", err, strings.Join(ids, ","))
			}
			return ids, err
		}
		ids = append(ids, id)
		if err := atomicfile.Write(filepath.Join(p.Dir, JobIDFile), []byte(strings.Join(ids, "\n")+"\n"), 0o644); err != nil {
			return ids, err
		}
	}
	return ids, nil
}

func sbatch(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sbatch", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sbatch: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	// --parsable prints "jobid" or "jobid;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch printed %q, not a job id", strings.TrimSpace(string(out)))
	}
	return id, nil
}
