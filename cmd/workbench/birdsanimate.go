package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pcgwb/canvas/birdsview"
	"pcgwb/canvas/birdsview/window"
)

// cmdBirdsAnimate is `workbench birds animate LEVEL`: the level (XML, drop_block program or
// answer) simulated by the evaluator's physics at real time in a window. It prints the
// stability verdict when the window closes.
//
// Hidden flags for tests and documentation: --screenshot PATH saves the window (read back from
// the GPU) once the animation has ended and closes it, --exit-after DUR closes the window after
// DUR, --speed N plays N times faster than real time.
func cmdBirdsAnimate(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("birds animate", flag.ContinueOnError)
	screenshot := fs.String("screenshot", "", "save the window as PNG when the animation has ended, then close (tests, docs)")
	exitAfter := fs.Duration("exit-after", 0, "close the window after this long")
	speed := fs.Float64("speed", 1, "playback speed (1: real time, 50 steps of 0.02 s per second)")
	pos, err := parseArgs(fs, args, "LEVEL")
	if err != nil {
		return err
	}
	if *speed <= 0 || *speed > 1000 {
		return usagef("--speed must be in (0, 1000]")
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	lv, _, err := birdsview.LevelFromText(data)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	v, err := birdsview.New(filepath.Base(pos[0]), lv)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	v.Speed = *speed
	if err := window.Run(v, window.Options{Screenshot: *screenshot, ExitAfter: *exitAfter}); err != nil {
		return err
	}
	r := v.Animation().Verdict()
	fmt.Fprintf(stdout, "stability %.4f (%d of %d blocks moved; legacy %.4f)\n", r.Score, r.Moving, r.Total, r.Legacy)
	return nil
}
