package search

import (
	"context"
	"time"
)

// Drive runs g from its first population through the given number of generations, calling
// onEvent (which may be nil) after the first population and after every generation, with
// Elapsed filled in. It is the in-memory counterpart of an experiment run folder, for callers
// that watch a run without recording it (the GUI's live plot).
func Drive(ctx context.Context, g Generator, generations int, onEvent func(Event)) error {
	start := time.Now()
	emit := func() {
		if onEvent != nil {
			ev := g.Event()
			ev.Elapsed = time.Since(start).Seconds()
			onEvent(ev)
		}
	}
	if err := g.Reset(ctx); err != nil {
		return err
	}
	emit()
	for g.Generation() < generations {
		if err := g.Step(ctx); err != nil {
			return err
		}
		emit()
	}
	return nil
}
