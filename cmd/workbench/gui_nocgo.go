//go:build !cgo

package main

import "errors"

// windowBuild is false in the CLI-only build (CGO_ENABLED=0, `make cli` → bin/workbench-cli):
// it links no GUI toolkit, so it starts on compute nodes without libGL, X11 or Wayland.
const windowBuild = false

// errNoWindow is what the window commands say in the CLI-only build.
var errNoWindow = errors.New("this is the CLI-only build (built with CGO_ENABLED=0): it has no window; use the full build (make build → bin/workbench) for the window, play and animate")

// runGUI is the window's entry point; the CLI-only build has none.
func runGUI(args []string) error { return errNoWindow }

// guiFlagDefaults is empty: there are no window flags in this build.
func guiFlagDefaults() string { return "" }

// The window commands keep their names in the CLI-only build (help, completion) and say that
// this build has no window.

func playCommand() *Command {
	return noWindowCommand("play", []string{"PROBLEM", "LEVEL.json"}, "PROBLEM LEVEL.json: play a level in a window (not in the CLI-only build)")
}

func playtestPlayCommand() *Command {
	return noWindowCommand("play", []string{"DIR"}, "DIR: play the session's levels in a window (not in the CLI-only build)")
}

func birdsAnimateCommand() *Command {
	return noWindowCommand("animate", []string{"LEVEL"}, "LEVEL: the physics of one level in a window (not in the CLI-only build)")
}

func noWindowCommand(name string, args []string, short string) *Command {
	return &Command{Name: name, Args: args, Short: short, Unavailable: errNoWindow}
}
