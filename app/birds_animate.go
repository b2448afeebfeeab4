package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pcgwb/games/play"
)

// LaunchBirdsAnimate opens the animation window on a level (XML, program or answer) and waits
// until it closes. Fyne and Ebiten cannot share a process, so the window is this executable run
// as a child (play.RunChild), `workbench birds animate LEVEL`, with the text in a temporary file
// removed afterwards; when the child fails, the error is its stderr. Call it from a goroutine.
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
	return play.RunChild(ctx, exe, []string{"birds", "animate", path}, "the animation window")
}
