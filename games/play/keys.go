package play

import (
	"pcgwb/problems/shape"
	"pcgwb/problems/solver"
)

// arrow is the unit step of an arrow key.
func arrow(k Key) (dx, dy int, ok bool) {
	switch k {
	case KeyLeft:
		return -1, 0, true
	case KeyRight:
		return 1, 0, true
	case KeyUp:
		return 0, -1, true
	case KeyDown:
		return 0, 1, true
	}
	return 0, 0, false
}

// arrowKey is the arrow key of a unit step (KeyWait for no step).
func arrowKey(dx, dy int) Key {
	switch {
	case dx < 0:
		return KeyLeft
	case dx > 0:
		return KeyRight
	case dy < 0:
		return KeyUp
	case dy > 0:
		return KeyDown
	}
	return KeyWait
}

func pointKeys(steps []shape.Point) []Key {
	out := make([]Key, len(steps))
	for i, d := range steps {
		out[i] = arrowKey(d.X, d.Y)
	}
	return out
}

func dirKeys(dirs []solver.Dir) []Key {
	out := make([]Key, len(dirs))
	for i, d := range dirs {
		out[i] = arrowKey(d.X, d.Y)
	}
	return out
}

// locationKeys are the moves of a location list (the last entry is the final position, with no
// move).
func locationKeys(locs []solver.Location) []Key {
	if len(locs) == 0 {
		return nil
	}
	out := make([]Key, 0, len(locs)-1)
	for _, l := range locs[:len(locs)-1] {
		out = append(out, arrowKey(l.Action.X, l.Action.Y))
	}
	return out
}

// stepClock is the automatic stepping of a Stepper game.
type stepClock struct {
	cadence int
	auto    bool
	timer   int
}

func (c *stepClock) Cadence() int    { return c.cadence }
func (c *stepClock) SetAuto(on bool) { c.auto, c.timer = on, 0 }
func (c *stepClock) pressed()        { c.timer = 0 }

// due reports, once per call (one tick), whether an automatic step is due.
func (c *stepClock) due() bool {
	if !c.auto {
		return false
	}
	c.timer++
	if c.timer >= c.cadence {
		c.timer = 0
		return true
	}
	return false
}
