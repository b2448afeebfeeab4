// Package slurm runs a sweep (experiment.Sweep) as a Slurm job array: it writes the list of
// `workbench run` commands and an `sbatch --array` script into the sweep folder, submits it,
// and reports the sweep's progress from the run folders and, when Slurm answers, from squeue
// and sacct.
//
// Each array task runs one `workbench run` on its run folder. A run resumes from its
// checkpoint and a finished run is left alone, so a requeued or resubmitted task is safe: it
// ends with the same final.json as an uninterrupted run.
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
	JobsFile   = "jobs.txt"     // one `workbench run` command line per array task
	ScriptFile = "sweep.sbatch" // the sbatch script
	JobIDFile  = "jobid"        // Slurm's job id, once submitted
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
}

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
	if o.MaxParallel < 0 || o.CPUs < 0 {
		return errors.New("--max-parallel and CPUs must not be negative")
	}
	return nil
}

// Plan is one submission: the unfinished runs of a sweep as array tasks 1..len(Jobs).
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
		p.Lines = append(p.Lines, experiment.CommandLine(o.Program, j)+" --quiet")
	}
	p.Dir, err = nextSubmission(out)
	if err != nil {
		return nil, err
	}
	p.Script = script(p.Dir, len(p.Jobs), o)
	return p, nil
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

// script is the sbatch script of n tasks. Task i runs line i of the jobs file; the run is
// started with exec so that Slurm's signals (scancel, requeue, the time limit) reach it and it
// stops at a generation boundary with its checkpoint written.
func script(dir string, n int, o Options) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", o.JobName)
	array := fmt.Sprintf("1-%d", max(n, 1))
	if o.MaxParallel > 0 {
		array += "%" + strconv.Itoa(o.MaxParallel)
	}
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(dir, LogsDir, "%A_%a.out"))
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", o.CPUs)
	b.WriteString("#SBATCH --ntasks=1\n#SBATCH --requeue\n#SBATCH --open-mode=append\n#SBATCH --signal=B:TERM@60\n")
	for _, kv := range [][2]string{{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", kv[0], kv[1])
		}
	}
	fmt.Fprintf(&b, `# Written by workbench sweep --slurm: task i runs line i of %[1]s (idempotent: a
# requeued task resumes its run from the checkpoint, a finished run is skipped).
set -u
export GOMAXPROCS=%[2]d
line=$(sed -n "${SLURM_ARRAY_TASK_ID}p" '%[3]s')
if [ -z "$line" ]; then
	echo "no job for array task ${SLURM_ARRAY_TASK_ID}" >&2
	exit 1
fi
echo "task ${SLURM_ARRAY_TASK_ID} (restart ${SLURM_RESTART_COUNT:-0}) on $(hostname): $line"
eval "exec $line"
`, JobsFile, o.CPUs, filepath.Join(dir, JobsFile))
	return b.String()
}

// Write creates the submission folder with the jobs file and the script.
func (p *Plan) Write() error {
	if err := os.MkdirAll(filepath.Join(p.Dir, LogsDir), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(p.Dir, JobsFile), []byte(strings.Join(p.Lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(p.Dir, ScriptFile), []byte(p.Script), 0o755)
}

// Submit runs sbatch on the written plan and records the job id in the submission folder.
func (p *Plan) Submit(ctx context.Context) (string, error) {
	if len(p.Jobs) == 0 {
		return "", errors.New("nothing to submit: every run of the sweep is finished")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sbatch", "--parsable", filepath.Join(p.Dir, ScriptFile))
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
	if err := atomicfile.Write(filepath.Join(p.Dir, JobIDFile), []byte(id+"\n"), 0o644); err != nil {
		return id, err
	}
	return id, nil
}
