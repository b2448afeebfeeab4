//go:build cgo

package main

import "strings"

// windowBuild is true in the full build: the window and the play/animate windows are in it.
// The CLI-only build (CGO_ENABLED=0, `make cli`) has gui_nocgo.go instead.
const windowBuild = true

// guiFlagDefaults lists the window's flags for `workbench --help`.
func guiFlagDefaults() string {
	fs, _ := guiFlagSet()
	var sb strings.Builder
	fs.SetOutput(&sb)
	fs.PrintDefaults()
	return sb.String()
}
