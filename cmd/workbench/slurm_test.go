package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pcgwb/problems/experiment"
	"pcgwb/problems/experiment/slurm"
)

// stallAtEnv, set for the requeue part of TestSlurmSweep, makes the first attempt of a Slurm
// task (this test binary as the workbench) wait after the generation it names until it is
// stopped (the requeue's SIGTERM). Without it the test raced the run: a fast machine finished
// the run before the test could requeue it.
const stallAtEnv = "WORKBENCH_TEST_STALL_AT_GENERATION"

// init runs before TestMain: a child asked to stall runs the command itself, with a standard
// error that holds the run at the progress line of the named generation.
func init() {
	at, err := strconv.Atoi(os.Getenv(stallAtEnv))
	if os.Getenv(childEnv) != "1" || err != nil || (os.Getenv("SLURM_RESTART_COUNT") != "" && os.Getenv("SLURM_RESTART_COUNT") != "0") {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// progress lines go to standard error
	w := &stallWriter{w: os.Stderr, at: at, ctx: ctx}
	code := runContext(ctx, withoutTestFlags(os.Args[1:]), IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: w})
	stop()
	os.Exit(code)
}

// stallWriter passes output through and, after the progress line "gen N/M ..." of generation
// at (written after the generation is recorded in events.jsonl), blocks until ctx ends.
type stallWriter struct {
	w   io.Writer
	at  int
	ctx context.Context
}

func (s *stallWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	var gen, total int
	if _, serr := fmt.Sscanf(strings.TrimSpace(string(p)), "gen %d/%d", &gen, &total); serr == nil && gen >= s.at {
		<-s.ctx.Done()
	}
	return n, err
}

// slurmCluster is a single-node Slurm cluster (munged, slurmctld, slurmd) configured in a
// temporary folder for localhost, without cgroups, so that a test can submit real job arrays.
type slurmCluster struct {
	dir, conf, socket string
}

// needSlurm skips when Slurm's Debian packages are missing, except under CI=true (make test
// installs them: a cluster that cannot start there is a failure).
func needSlurm(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol"} {
		if _, err := exec.LookPath(tool); err != nil {
			if _, err := os.Stat("/usr/sbin/" + tool); err == nil {
				continue
			}
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true but %s is missing: make test installs slurm-wlm and munge", tool)
			}
			t.Skipf("%s is not installed (Debian packages slurm-wlm, munge)", tool)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func sbin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return "/usr/sbin/" + name
}

// startSlurm brings the cluster up and registers its shutdown; it fails the test when the
// cluster does not come up.
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	// Short paths: munge's socket path must fit a sockaddr_un.
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf"), socket: filepath.Join(dir, "munge", "munge.socket")}
	t.Cleanup(func() { c.stop(t); os.RemoveAll(dir) })
	stopOrphanClusters(t, dir)
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"munge", "state", "spool"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o711); err != nil {
			t.Fatal(err)
		}
	}
	key := bytes.Repeat([]byte("pcg-workbench-slurm-test-key-"), 40)
	if err := os.WriteFile(filepath.Join(dir, "munge", "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "munge")
	c.run(t, sbin("munged"), "-f", "-S", c.socket, "--key-file="+filepath.Join(m, "munge.key"),
		"--log-file="+filepath.Join(m, "munged.log"), "--pid-file="+filepath.Join(m, "munged.pid"),
		"--seed-file="+filepath.Join(m, "munged.seed"))
	user := "root"
	if os.Geteuid() != 0 {
		user = strconv.Itoa(os.Geteuid())
		if u := os.Getenv("USER"); u != "" {
			user = u
		}
	}
	conf := fmt.Sprintf(`ClusterName=pcgwbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
AuthInfo=socket=%[3]s,cred_expire=10
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobContainerType=job_container/none
SchedulerType=sched/builtin
MaxArraySize=5
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd.log
PlugStackConfig=%[4]s/plugstack.conf
SlurmUser=%[5]s
SlurmdUser=%[5]s
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
MinJobAge=600
KillWait=10
NodeName=localhost NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=500 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, freePort(t), freePort(t), c.socket, dir, user, runtime.NumCPU())
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugstack.conf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", c.conf)
	c.run(t, sbin("slurmctld"), "-i")
	c.run(t, sbin("slurmd"), "-N", "localhost")
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
		state := strings.TrimSpace(string(out))
		if err == nil && (state == "idle" || state == "mixed" || state == "allocated") {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Slurm node did not come up (sinfo: %q, %v)\nslurmctld.log:\n%s\nslurmd.log:\n%s", state, err, c.tail("slurmctld.log"), c.tail("slurmd.log"))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func (c *slurmCluster) run(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func (c *slurmCluster) tail(name string) string {
	data, _ := os.ReadFile(filepath.Join(c.dir, name))
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	return string(data)
}

// ownerFile holds the pid of the test process that started a cluster.
const ownerFile = "owner.pid"

// stopOrphanClusters stops the test clusters whose test process is gone: the daemons detach,
// so a test binary killed by its timeout (its cleanup never runs) leaves them up. A cluster
// whose owner is alive (another go test beside this one) is left alone.
func stopOrphanClusters(t *testing.T, self string) {
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(self), "slurm*"))
	for _, d := range dirs {
		if d == self {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d, ownerFile))
		if err != nil {
			continue // not one of ours, or from before owners were recorded
		}
		owner, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || owner <= 1 {
			continue
		}
		if err := syscall.Kill(owner, 0); err == nil || err == syscall.EPERM {
			continue // the owner is alive
		}
		old := &slurmCluster{dir: d, conf: filepath.Join(d, "slurm.conf"), socket: filepath.Join(d, "munge", "munge.socket")}
		old.stop(t)
		os.RemoveAll(d)
	}
}

// stop shuts the daemons down (and kills what is left by their pid files).
func (c *slurmCluster) stop(t *testing.T) {
	cmd := exec.Command("scontrol", "shutdown")
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	_ = cmd.Run()
	time.Sleep(time.Second)
	_ = exec.Command(sbin("munged"), "-s", "-S", c.socket).Run()
	for _, pf := range []string{"slurmctld.pid", "slurmd.pid", "munge/munged.pid"} {
		data, err := os.ReadFile(filepath.Join(c.dir, pf))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 1 {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

// squeueCount counts the job's tasks still queued or running.
func squeueCount(t *testing.T, job string) int {
	t.Helper()
	out, err := exec.Command("squeue", "-h", "-r", "-j", job, "-o", "%i").CombinedOutput()
	if err != nil {
		// An unknown job id (already purged) is an error: nothing is left.
		if strings.Contains(string(out), "Invalid job id") {
			return 0
		}
		t.Fatalf("squeue: %v: %s", err, out)
	}
	return len(strings.Fields(string(out)))
}

func waitJob(t *testing.T, c *slurmCluster, job string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for squeueCount(t, job) > 0 {
		if time.Now().After(deadline) {
			out, _ := exec.Command("squeue", "-r").CombinedOutput()
			t.Fatalf("job %s still queued after %s:\n%s\nslurmctld.log:\n%s", job, limit, out, c.tail("slurmctld.log"))
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// submit runs `workbench sweep ... --slurm` with this test binary as the workbench and
// returns the job id.
func submit(t *testing.T, args ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args = append([]string{"sweep"}, append(args, "--slurm", "--program", self)...)
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("workbench %s: exit %d: %s%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	f := strings.Fields(out.String())
	if len(f) < 3 || f[0] != "submitted" || f[1] != "job" {
		t.Fatalf("unexpected output: %s", out.String())
	}
	return strings.TrimSuffix(f[2], ":")
}

func finals(t *testing.T, root string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Name() == experiment.FinalFile {
			rel, _ := filepath.Rel(root, path)
			data, err := os.ReadFile(path)
			m[rel] = data
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSlurmSweep submits a small sweep through `sweep --slurm` to a real single-node Slurm
// cluster and checks every final.json against the same sweep run locally; then it requeues a
// task in the middle of its run (Slurm kills it and starts it again) and checks that the
// resumed run ends with the same final.json as an uninterrupted one.
func TestSlurmSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	needSlurm(t)
	start := time.Now()
	phase := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }
	c := startSlurm(t)
	phase("cluster up")
	t.Setenv(childEnv, "1") // the array tasks run this test binary as the workbench
	grid := []string{"--problems", "binary-v0,zelda-v0", "--generators", "random,ga", "--fitness", "quality_control", "--seeds", "2", "--generations", "5"}

	local := t.TempDir()
	var out bytes.Buffer
	if code := run(append([]string{"sweep", "--out", local, "--jobs", "2"}, grid...), &out, &out); code != 0 {
		t.Fatalf("local sweep: %s", out.String())
	}
	phase("local sweep done")
	want := finals(t, local)
	if len(want) != 8 {
		t.Fatalf("the local sweep wrote %d final.json, want 8", len(want))
	}

	// 8 runs on a cluster whose MaxArraySize is 5 (indices 0-4): two arrays of 4 tasks.
	remote := t.TempDir()
	job := submit(t, append([]string{"--out", remote, "--max-parallel", "2", "--time", "10", "--mem", "100M"}, grid...)...)
	if ids := strings.Split(job, ","); len(ids) != 2 {
		t.Fatalf("the 8 runs were submitted as job(s) %s, want two arrays under MaxArraySize=5", job)
	}
	waitJob(t, c, job, 3*time.Minute)
	phase("slurm sweep done")
	got := finals(t, remote)
	for rel, w := range want {
		if g, ok := got[rel]; !ok {
			logs, _ := filepath.Glob(filepath.Join(remote, slurm.Dir, "001", slurm.LogsDir, "*"))
			var b strings.Builder
			for _, l := range logs {
				data, _ := os.ReadFile(l)
				b.Write(data)
			}
			t.Fatalf("%s: no final.json after the Slurm job; task logs:\n%s", rel, b.String())
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s differs between Slurm and the local sweep", rel)
		}
	}
	rep, err := slurm.SweepStatus(context.Background(), remote, slurm.Command())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts[slurm.Finished] != 8 || len(rep.Runs) != 8 {
		t.Errorf("status after the job: %v over %d runs, want 8 finished", rep.Counts, len(rep.Runs))
	}
	// Submitting again finds nothing left to run.
	self, _ := os.Executable()
	out.Reset()
	if code := run(append([]string{"sweep", "--out", remote, "--slurm", "--program", self}, grid...), &out, &out); code != 0 || !strings.Contains(out.String(), "nothing to submit") {
		t.Errorf("second submission: exit %d: %s", code, out.String())
	}

	// --runs-per-task 3: the 8 runs in 3 tasks of one array, run one after the other, with the
	// same final.json as the local sweep.
	bundled := t.TempDir()
	job = submit(t, append([]string{"--out", bundled, "--runs-per-task", "3"}, grid...)...)
	waitJob(t, c, job, 3*time.Minute)
	phase("bundled slurm sweep done")
	if got := finals(t, bundled); len(got) != len(want) {
		t.Errorf("bundled: %d final.json, want %d", len(got), len(want))
	} else {
		for rel, w := range want {
			if !bytes.Equal(got[rel], w) {
				t.Errorf("bundled: %s differs from the local sweep", rel)
			}
		}
	}
	if logs, _ := filepath.Glob(filepath.Join(bundled, slurm.Dir, "001", slurm.LogsDir, "*")); len(logs) != 3 {
		t.Errorf("bundled: %d task logs, want 3", len(logs))
	}

	// Requeue mid-run: one longer run, requeued once it has recorded a few generations (its first
	// attempt stalls after generation 3, so it cannot finish first however fast the machine).
	long := []string{"--problems", "zelda-v0", "--generators", "ga", "--fitness", "quality", "--seeds", "1", "--generations", "60"}
	localLong := t.TempDir()
	out.Reset()
	if code := run(append([]string{"sweep", "--out", localLong}, long...), &out, &out); code != 0 {
		t.Fatalf("local sweep: %s", out.String())
	}
	remoteLong := t.TempDir()
	t.Setenv(stallAtEnv, "3") // the first attempt waits after generation 3 for the requeue
	job = submit(t, append([]string{"--out", remoteLong}, long...)...)
	runDir := filepath.Join(remoteLong, "zelda-v0", "quality", "ga", "1")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(runDir, experiment.FinalFile)); err == nil {
			t.Fatal("the run finished before it could be requeued: the stall did not hold it")
		}
		// events.jsonl records every generation as it ends (checkpoints are less frequent)
		if events, err := experiment.ReadEvents(runDir); err == nil && len(events) > 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not start on the cluster:\n%s", c.tail("slurmctld.log"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	phase("long run started on the cluster")
	c.run(t, "scontrol", "requeue", job+"_1")
	// A requeued job may not start again before its credentials expire (BeginTime): let it.
	upd := exec.Command("scontrol", "update", "JobId="+job+"_1", "StartTime=now")
	if out, err := upd.CombinedOutput(); err != nil {
		t.Logf("scontrol update StartTime=now: %v: %s", err, out)
	}
	waitJob(t, c, job, 4*time.Minute)
	phase("requeued run done")
	logs, _ := filepath.Glob(filepath.Join(remoteLong, slurm.Dir, "001", slurm.LogsDir, "*"))
	var log strings.Builder
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		log.Write(data)
	}
	if !strings.Contains(log.String(), "(restart 1)") {
		t.Errorf("the task was not restarted by the requeue; its log:\n%s", log.String())
	}
	g, w := finals(t, remoteLong), finals(t, localLong)
	rel := filepath.Join("zelda-v0", "quality", "ga", "1", experiment.FinalFile)
	if len(g[rel]) == 0 || !bytes.Equal(g[rel], w[rel]) {
		t.Errorf("the requeued run's final.json differs from the uninterrupted one (or is missing); log:\n%s", log.String())
	}
}
