//go:build cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"pcgwb/canvas/birdsview"
	"pcgwb/canvas/birdsview/window"
	"pcgwb/games/birds"
	"pcgwb/internal/safeio"
)

// birdsAnimateCommand is `workbench birds animate LEVEL`: the level (XML, drop_block program or
// answer) simulated by the evaluator's physics at real time in a window. It prints the
// stability verdict when the window closes.
//
// Hidden flags for tests and documentation: --screenshot PATH saves the window (read back from
// the GPU) once the animation has ended and closes it, --exit-after DUR closes the window after
// DUR, --speed N plays N times faster than real time.
func birdsAnimateCommand() *Command {
	return &Command{Name: "animate", Args: []string{"LEVEL"}, Short: "LEVEL: the physics of one level in a window, at real time",
		Setup: func(fs *flag.FlagSet) Runner {
			screenshot := fs.String("screenshot", "", "save the window as PNG when the animation has ended, then close (tests, docs)")
			exitAfter := fs.Duration("exit-after", 0, "close the window after this long")
			speed := fs.Float64("speed", 1, "playback speed (1: real time, 50 steps of 0.02 s per second)")
			return func(_ context.Context, args []string, io IO) error {
				return birdsAnimate(args[0], *screenshot, *exitAfter, *speed, io.Stdout)
			}
		}}
}

func birdsAnimate(path, screenshot string, exitAfter time.Duration, speed float64, stdout io.Writer) error {
	if speed <= 0 || speed > 1000 {
		return usagef("--speed must be in (0, 1000]")
	}
	data, err := safeio.ReadFile(path, maxBirdsLevelInput)
	if err != nil {
		return err
	}
	lv, _, err := birds.ParseLevelText(data)
	if err != nil {
		return usagef("%s: %v", excerptArg(path), err)
	}
	v, err := birdsview.New(filepath.Base(path), lv)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	v.Speed = speed
	if err := window.Run(v, window.Options{Screenshot: screenshot, ExitAfter: exitAfter}); err != nil {
		return err
	}
	r := v.Animation().Verdict()
	fmt.Fprintf(stdout, "stability %.4f (%d of %d blocks moved; legacy %.4f)\n", r.Score, r.Moving, r.Total, r.Legacy)
	return nil
}
