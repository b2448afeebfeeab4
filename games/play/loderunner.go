package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/loderunnertile"
)

func init() {
	registerTyped("loderunner", newLodeRunner)
	registerTyped("loderunnertile", newLodeRunner)
}

// lodeRunnerGame plays the simplified player of the Lode Runner metric (both variants): run,
// climb ladders, hang on ropes, fall, collect the gold, dig away the guards before touching
// them. Falling steps on its own while playing live.
type lodeRunnerGame struct {
	stepClock
	start, cur *loderunnertile.State
}

const lodeRunnerCadence = 6

func newLodeRunner(p *loderunnertile.Problem, c problems.Content) (Game, error) {
	lv, err := p.Level(c)
	if err != nil {
		return nil, err
	}
	start, err := loderunnertile.NewGame(lv)
	if err != nil {
		return nil, err
	}
	g := &lodeRunnerGame{stepClock: stepClock{cadence: lodeRunnerCadence, auto: true}, start: start}
	g.Reset()
	return g, nil
}

func (g *lodeRunnerGame) Reset() { g.cur = g.start.Clone() }

func (g *lodeRunnerGame) Input(k Key) {
	switch k {
	case KeyWait:
		g.cur.Step(0, 0)
		g.pressed()
		return
	case KeyAction:
		g.cur.Dig()
		g.pressed()
		return
	}
	if dx, dy, ok := arrow(k); ok {
		g.cur.Step(dx, dy)
		g.pressed()
	}
}

func (g *lodeRunnerGame) Update() {
	if g.due() && g.cur.Falling() {
		g.cur.Step(0, 0)
	}
}

func (g *lodeRunnerGame) Moves() int { return g.cur.Moves }

func (g *lodeRunnerGame) Status() Status { return outcome(g.cur) }

func (g *lodeRunnerGame) Board() image.Image { return loderunnertile.RenderState(g.cur) }

func (g *lodeRunnerGame) HUD() string {
	return fmt.Sprintf("gold %d/%d  guards trapped %d  moves %d", g.cur.Collected, g.cur.Gold, g.cur.Trapped, g.cur.Moves)
}

func (g *lodeRunnerGame) Controls() string { return "arrows run, climb and hang  space dig  . wait" }
func (g *lodeRunnerGame) Text() string     { return g.cur.Text() }

// Solution: a greedy tour to the nearest gold within the metric's reach, digging the guards in
// the way.
func (g *lodeRunnerGame) Solution() []Key {
	tour := g.start.Tour()
	out := make([]Key, len(tour))
	for i, m := range tour {
		out[i] = arrowKey(m.X, m.Y)
		if m.Dig {
			out[i] = KeyAction
		}
	}
	return out
}
