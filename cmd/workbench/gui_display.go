package main

import (
	"errors"
	"os"
	"runtime"
)

// checkDisplay refuses to open the window where there is no display to open it on: GLFW would
// fail with a Go panic. (macOS and Windows always have one.)
func checkDisplay() error {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios":
		return nil
	}
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return nil
	}
	return errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): " +
		"start one (xvfb-run workbench, or ssh -X), or use the commands, which need none (workbench help)")
}
