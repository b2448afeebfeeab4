package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LaunchBirdsAnimate opens the animation window on a level (XML, program or answer) and waits
// until it closes. Fyne and Ebiten cannot share a process, so the window is this executable run
// as a child, `workbench birds animate LEVEL`, with the text in a temporary file removed
// afterwards; when the child fails, the error is its stderr. Call it from a goroutine.
func LaunchBirdsAnimate(ctx context.Context, level string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the workbench executable to open the animation: %w", err)
	}
	dir, err := os.MkdirTemp("", "pcgwb-birds-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	name := "level.txt"
	if strings.Contains(level, "<Level") {
		name = "level.xml"
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(level), 0o600); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, exe, "birds", "animate", path)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(msg)
		}
		return fmt.Errorf("the animation window failed: %w", err)
	}
	return nil
}
