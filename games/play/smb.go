package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/smb"
	"pcgwb/problems/smb/engine"
)

func init() {
	registerTyped("smb", newSMB)
	registerTyped("smbtile", newSMB)
}

// smbGame plays Super Mario Bros (both variants) in the problem's engine, which steps one
// frame at a time with the buttons held. Live, a frame passes every smbCadence ticks (30 frames a
// second, close to the framework's pace) with the keys held down: arrows walk and duck, up or
// space jumps, shift runs. A script presses one key per frame. The replay plays the agent's
// recorded buttons (the info's actions) frame by frame.
type smbGame struct {
	stepClock
	level *engine.Level
	// timer is a person's time in seconds (HumanTimeFactor times the agent's), agentTimer the
	// agent's, which its replay keeps.
	timer, agentTimer int
	g                 *engine.Game
	held              engine.Actions
	actions           []int
	// replayAt is the next recorded frame of a replay, -1 while playing.
	replayAt int
}

const smbCadence = 2

func newSMB(p *smb.Problem, c problems.Content) (Game, error) {
	l, err := p.Level(c)
	if err != nil {
		return nil, err
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	g := &smbGame{stepClock: stepClock{cadence: smbCadence, auto: true}, level: l,
		timer: HumanTimeFactor * p.Timer(), agentTimer: p.Timer(),
		actions: info.(*smb.Info).Actions}
	g.Reset()
	return g, nil
}

func (g *smbGame) Reset() {
	g.g, g.held, g.replayAt = engine.NewGame(g.level, g.timer), 0, -1
}

// StartReplay plays the agent's run again with the agent's time.
func (g *smbGame) StartReplay() { g.g, g.replayAt = engine.NewGame(g.level, g.agentTimer), 0 }

// buttons are the engine's buttons of a key.
func buttons(k Key) engine.Actions {
	switch k {
	case KeyLeft:
		return engine.Left
	case KeyRight:
		return engine.Right
	case KeyDown:
		return engine.Down
	case KeyUp, KeyAction:
		return engine.Jump
	case KeyRun:
		return engine.Speed
	}
	return 0
}

func (g *smbGame) Hold(held []Key) {
	g.held = 0
	for _, k := range held {
		g.held |= buttons(k)
	}
}

// Input plays one frame per key when a script or a replay drives the game; live, Mario follows
// the held keys instead.
func (g *smbGame) Input(k Key) {
	switch {
	case g.replayAt >= 0:
		if g.replayAt < len(g.actions) {
			g.g.Step(engine.Actions(g.actions[g.replayAt]))
			g.replayAt++
		}
	case !g.auto && (k == KeyWait || buttons(k) != 0):
		g.g.Step(buttons(k))
	}
}

func (g *smbGame) Update() {
	if g.due() && g.replayAt < 0 {
		g.g.Step(g.held)
	}
}

func (g *smbGame) Status() Status {
	switch g.g.World().Status() {
	case engine.Win:
		return Won
	case engine.Lose, engine.TimeOut:
		return Lost
	}
	return Running
}

func (g *smbGame) Banner() string {
	switch g.g.World().Status() {
	case engine.Win:
		return "COURSE CLEAR"
	case engine.TimeOut:
		return "TIME UP"
	}
	return "GAME OVER"
}

func (g *smbGame) Board() image.Image { return smb.RenderWorld(g.g.World()) }

func (g *smbGame) HUD() string {
	w := g.g.World()
	return fmt.Sprintf("coins %d  time %d  distance %.0f%%  frames %d", w.Coins(), w.TimeLeft()/1000, 100*min(1, w.Completion()), w.Tick())
}

func (g *smbGame) Controls() string { return "arrows walk  up or space jump  shift run" }

func (g *smbGame) Text() string {
	w := g.g.World()
	m := w.Mario()
	return fmt.Sprintf("tick %d mario %.1f,%.1f ground %v alive %v coins %d status %s\n",
		w.Tick(), m.X, m.Y, m.OnGround, m.Alive, w.Coins(), g.Status())
}

// Solution: one key per recorded frame of the agent's run (a replay plays the recorded
// buttons).
func (g *smbGame) Solution() []Key {
	out := make([]Key, len(g.actions))
	for i := range out {
		out[i] = KeyWait
	}
	return out
}
