package main

import "errors"

// runGUI is replaced by gui.go (the Fyne shell) — TEMPORARY until it lands.
func runGUI(args []string) error { return errors.New("the GUI is not built yet") }
