package play

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/ddave"
	"pcgwb/problems/solver"
)

func init() {
	registerTyped("ddave", newDDave)
}

// ddaveGame plays the problem's engine (State.Step) on the repaired level, one engine step per
// key; live, gravity steps on its own every ddaveCadence ticks.
type ddaveGame struct {
	stepClock
	start, cur ddave.State
	moves      int
	diamonds   int
	solution   []solver.Location
	// players, exits and keys are the level's counts (the info's).
	players, exits, keys int
}

const ddaveCadence = 8

func newDDave(p *ddave.DDave, c problems.Content) (Game, error) {
	start, err := p.Game(c)
	if err != nil {
		return nil, err
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	in := info.(*ddave.Info)
	d := &ddaveGame{stepClock: stepClock{cadence: ddaveCadence, auto: true}, start: start,
		diamonds: in.Diamonds, solution: in.Solution, players: in.Players, exits: in.Exits, keys: in.Keys}
	d.Reset()
	return d, nil
}

func (d *ddaveGame) Reset() { d.cur, d.moves = d.start, 0 }

func (d *ddaveGame) Input(k Key) {
	var dir solver.Dir
	switch k {
	case KeyLeft:
		dir.X = -1
	case KeyRight:
		dir.X = 1
	case KeyUp, KeyAction:
		dir.Y = -1
	case KeyWait, KeyDown:
	default:
		return
	}
	if d.Status() != Running {
		return
	}
	d.cur.Step(dir)
	d.moves++
	d.pressed()
}

func (d *ddaveGame) Update() {
	if d.due() && d.Status() == Running {
		d.cur.Step(solver.Dir{})
	}
}

func (d *ddaveGame) Status() Status { return outcome(d.cur) }

func (d *ddaveGame) Board() image.Image { return ddave.RenderState(d.cur) }

func (d *ddaveGame) HUD() string {
	key := "no"
	if d.cur.Keys() > 0 {
		key = "yes"
	}
	return fmt.Sprintf("diamonds %d/%d  key %s  jumps %d  moves %d", d.cur.Collected(), d.diamonds, key, d.cur.Jumps(), d.moves)
}

func (d *ddaveGame) Unplayable() string {
	return exactlyOne(tally{"player", d.players}, tally{"exit", d.exits}, tally{"key", d.keys})
}

func (d *ddaveGame) Moves() int { return d.moves }

func (d *ddaveGame) Controls() string { return "left/right run  up or space jump  . wait" }

// Text: # wall, . air, ^ spike, * diamond, k key, D door, @ player (x once dead).
func (d *ddaveGame) Text() string {
	l := d.cur.Level()
	p, door := d.cur.Player(), l.Door()
	var b strings.Builder
	for y := 1; y < l.H-1; y++ {
		for x := 1; x < l.W-1; x++ {
			c := byte('.')
			switch {
			case p.X == x && p.Y == y && d.cur.Lose():
				c = 'x'
			case p.X == x && p.Y == y:
				c = '@'
			case l.Solid(x, y):
				c = '#'
			case door.X == x && door.Y == y:
				c = 'D'
			case l.Spike(x, y):
				c = '^'
			case d.cur.DiamondAt(x, y):
				c = '*'
			case d.cur.KeyAt(x, y):
				c = 'k'
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Solution: the agents' winning moves from the info (stay is KeyWait, a jump KeyUp).
func (d *ddaveGame) Solution() []Key { return locationKeys(d.solution) }
