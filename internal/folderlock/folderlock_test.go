package folderlock

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSecondWriterIsRefusedWithPID(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
		t.Fatalf("second Acquire: %v, want HeldError", err)
	}
	if held.PID != os.Getpid() || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("holder pid %d in %q, want %d", held.PID, err, os.Getpid())
	}
	if Holder(dir) != os.Getpid() {
		t.Fatal("Holder does not name the holder")
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release()
	l2.Release() // twice is fine
}

// TestHelperHolder is not a test: re-executed as a child, it takes the lock and waits to be killed.
func TestHelperHolder(t *testing.T) {
	dir := os.Getenv("FOLDERLOCK_HOLD")
	if dir == "" {
		t.Skip("helper process only")
	}
	if _, err := Acquire(dir); err != nil {
		os.Exit(3)
	}
	time.Sleep(time.Minute)
}

func TestLockOfKilledProcessIsRecovered(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHolder$")
	cmd.Env = append(os.Environ(), "FOLDERLOCK_HOLD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(10 * time.Second)
	for Holder(dir) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("child never took the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if Holder(dir) != cmd.Process.Pid {
		t.Fatalf("holder %d, want child %d", Holder(dir), cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("lock of a killed process not recovered: %v", err)
	}
	l.Release()
}
