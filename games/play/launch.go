package play

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"pcgwb/internal/atomicfile"
	"pcgwb/problems"
)

// LaunchOptions are the settings of one play window opened by Launch.
type LaunchOptions struct {
	// Replay watches the level's recorded solution instead of playing it.
	Replay bool
	// Recorded, when set, watches that recorded play (its input trace) instead.
	Recorded *Outcome
	// Extra arguments for the child (tests: --script KEYS, --exit-after DUR).
	Extra []string
}

// maxChildError bounds the child's stderr kept for an error message.
const maxChildError = 4 << 10

// Launch opens the play window on one level and waits until it closes. Ebiten wants a process
// of its own (and Fyne cannot share it), so the window is the workbench executable exe run as a
// child: `exe play PROBLEM LEVEL --handoff --outcome OUT`. The level goes to the child in the
// one hand-off encoding (EncodeLevel) and the child's Outcome comes back as JSON in OUT, both
// in a temporary folder removed afterwards. When the child fails (a level that cannot be
// played, no display, a crash) the error is its stderr.
//
// It blocks while the window is open; cancelling ctx closes the window (the outcome is then
// nil, with no error).
func Launch(ctx context.Context, exe, problem string, item problems.Item, opt LaunchOptions) (*Outcome, error) {
	dir, err := os.MkdirTemp("", "pcgwb-play-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	data, err := EncodeLevel(problem, item)
	if err != nil {
		return nil, err
	}
	level, out := filepath.Join(dir, "level.json"), filepath.Join(dir, "outcome.json")
	if err := atomicfile.Write(level, data, 0o600); err != nil {
		return nil, err
	}
	args := []string{"play", problem, level, "--handoff", "--outcome", out}
	switch {
	case opt.Recorded != nil:
		trace := filepath.Join(dir, "trace.json")
		if err := WriteOutcome(trace, *opt.Recorded); err != nil {
			return nil, err
		}
		args = append(args, "--trace", trace)
	case opt.Replay:
		args = append(args, "--replay")
	}
	if err := RunChild(ctx, exe, append(args, opt.Extra...), "the play window"); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, nil // closed on purpose
	}
	o, err := ReadOutcome(out)
	if err != nil {
		return nil, fmt.Errorf("the play window reported no outcome: %w", err)
	}
	return &o, nil
}

// RunChild runs the workbench executable exe with args as a window's child process (Ebiten wants
// a process of its own) and waits until it exits. A failure is the child's stderr (its last
// 4 KiB), or "WHAT failed" when it said nothing; cancelling ctx ends the child with no error.
func RunChild(ctx context.Context, exe string, args []string, what string) error {
	cmd := exec.CommandContext(ctx, exe, args...)
	var stderr TailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil // closed on purpose
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg)
		}
		return fmt.Errorf("%s failed: %w", what, err)
	}
	return nil
}

// TailBuffer keeps the last 4 KiB written to it (a child process's stderr for an error message).
type TailBuffer struct{ b bytes.Buffer }

func (t *TailBuffer) Write(p []byte) (int, error) {
	t.b.Write(p)
	if extra := t.b.Len() - maxChildError; extra > 0 {
		t.b.Next(extra)
	}
	return len(p), nil
}

func (t *TailBuffer) String() string { return t.b.String() }

// HasSolution reports whether a level has a recorded solution to watch, and if not why (the
// detail view disables Watch with that reason): what is wrong with a level that cannot be
// played (Check), else that the solver found no way through.
func HasSolution(problem string, p problems.Problem, content problems.Content) (bool, string) {
	g, err := New(problem, p, content)
	if err != nil {
		return false, err.Error()
	}
	if err := Check(g); err != nil {
		return false, err.Error()
	}
	if len(g.Solution()) == 0 {
		return false, "no recorded solution: the solver found no way through this level"
	}
	return true, ""
}
