package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"pcgwb/canvas/play"
	"pcgwb/problems"
)

// CanPlay reports whether a problem's contents can be played (and watched) in the play window:
// the gallery shows Play and Watch buttons only for those.
func CanPlay(p problems.Problem) bool { return play.Playable(p) }

// maxChildError bounds the child's stderr kept for the error message.
const maxChildError = 4 << 10

// LaunchPlay opens the play window on one item and waits until it closes: with replay, the
// window plays the recorded solution (Watch), else the player plays (Play). Fyne and Ebiten
// cannot share a process, so the window is this same executable run as a child,
// `workbench play PROBLEM LEVEL.json [--replay]`, with the item written to a temporary file
// that is removed afterwards. When the child fails (a level that cannot be played, no display,
// a crash) the error is the child's stderr, so the GUI can show it.
//
// It blocks for as long as the window is open: call it from a goroutine. Cancelling ctx closes
// the window.
func LaunchPlay(ctx context.Context, problem string, item problems.Item, replay bool) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the workbench executable to open the play window: %w", err)
	}
	dir, err := os.MkdirTemp("", "pcgwb-play-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	level := map[string]any{"content": item.Content}
	if item.ID != "" {
		level["id"] = item.ID
	}
	if item.Control != nil {
		level["control"] = item.Control
	}
	data, err := json.Marshal(level)
	if err != nil {
		return fmt.Errorf("cannot write the level for the play window: %w", err)
	}
	path := filepath.Join(dir, "level.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return err
	}
	args := []string{"play", problem, path}
	if replay {
		args = append(args, "--replay")
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil // closed on purpose
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg)
		}
		return fmt.Errorf("the play window failed: %w", err)
	}
	return nil
}

// tailBuffer keeps the last maxChildError bytes written to it.
type tailBuffer struct{ b bytes.Buffer }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b.Write(p)
	if extra := t.b.Len() - maxChildError; extra > 0 {
		t.b.Next(extra)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return t.b.String() }
