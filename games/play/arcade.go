package play

import (
	"fmt"
	"image"
	"image/draw"
	"strings"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/arcade"
)

func init() {
	registerTyped("arcade", newArcade)
}

// arcadeGame plays a generated rule set with the problem's Engine on its fixed level, one
// engine step per key (a wait key lets a step pass); live, an idle step passes every
// arcadeCadence ticks, so the pieces keep moving. The rule card (the problem's Render) stands
// beside the board. The replay shows the flat Monte-Carlo agent's game from the info state by
// state: its look-ahead drew from the engine's generator, so replaying its moves alone would
// move the pieces differently.
type arcadeGame struct {
	stepClock
	e     *arcade.Engine
	s     arcade.State
	card  image.Image
	trace arcade.Trace
	// replayAt is the trace step shown during a replay, -1 while playing.
	replayAt int
}

const arcadeCadence = 12

var arcadePieces = [arcade.Colours]string{arcade.Red: "arcade_red", arcade.Green: "arcade_green", arcade.Yellow: "arcade_yellow"}

func newArcade(p *arcade.Arcade, c problems.Content) (Game, error) {
	e, err := p.Engine(c)
	if err != nil {
		return nil, err
	}
	if !e.Layout.Empty(e.Rules.X+1, e.Rules.Y+1) {
		return nil, fmt.Errorf("arcade: the player starts on a wall (%d,%d): the rules cannot be played", e.Rules.X, e.Rules.Y)
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	card, err := p.Render(c)
	if err != nil {
		return nil, err
	}
	g := &arcadeGame{stepClock: stepClock{cadence: arcadeCadence, auto: true}, e: e, card: card,
		trace: info.(*arcade.Info).FlatMCTS}
	g.Reset()
	return g, nil
}

// Reset reseeds the engine: the pieces move the same way in every game of the same moves.
func (g *arcadeGame) Reset() { g.s, g.replayAt = g.e.Initialize(), -1 }

func (g *arcadeGame) StartReplay() {
	if len(g.trace) > 0 {
		g.s, g.replayAt = g.trace[0].State, 0
	}
}

func (g *arcadeGame) Input(k Key) {
	if g.replayAt >= 0 {
		if g.replayAt+1 < len(g.trace) {
			g.replayAt++
			g.s = g.trace[g.replayAt].State
		}
		return
	}
	a := arcade.Action{}
	if k != KeyWait {
		dx, dy, ok := arrow(k)
		if !ok {
			return
		}
		a = arcade.Action{X: dx, Y: dy}
	}
	g.e.Update(&g.s, a)
	g.pressed()
}

func (g *arcadeGame) Update() {
	if g.due() && g.replayAt < 0 {
		g.e.Update(&g.s, arcade.Action{})
	}
}

func (g *arcadeGame) Status() Status {
	switch {
	case g.e.IsWin(&g.s):
		return Won
	case g.e.IsLose(&g.s):
		return Lost
	}
	return Running
}

func (g *arcadeGame) Board() image.Image {
	l := g.e.Layout
	ts := assets.TileSize
	bw, bh := l.W*ts, l.H*ts
	cb := g.card.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, bw+ts/2+cb.Dx(), max(bh, cb.Dy())))
	assets.Fill(img, 'k')
	for y := 0; y < l.H; y++ {
		for x := 0; x < l.W; x++ {
			if l.Empty(x, y) {
				assets.DrawSprite(img, "floor", x*ts, y*ts)
			} else {
				assets.DrawSprite(img, "wall", x*ts, y*ts)
			}
		}
	}
	for c := 0; c < arcade.Colours; c++ {
		for i := 0; i < int(g.s.Count[c]); i++ {
			if o := g.s.Pieces[c][i]; o.Alive {
				assets.DrawSprite(img, arcadePieces[c], int(o.X)*ts, int(o.Y)*ts)
			}
		}
	}
	player := "arcade_player"
	if !g.s.Player.Alive {
		player = "play_player_dead"
	}
	assets.DrawSprite(img, player, int(g.s.Player.X)*ts, int(g.s.Player.Y)*ts)
	draw.Draw(img, cb.Sub(cb.Min).Add(image.Pt(bw+ts/2, 0)), g.card, cb.Min, draw.Src)
	return img
}

func (g *arcadeGame) HUD() string {
	return fmt.Sprintf("score %d  time %d/%d", g.s.Player.Score, g.s.Player.Time, g.e.MaxTime)
}

func (g *arcadeGame) Controls() string { return "arrows move  . wait" }

// Text: # wall, . floor, r g y pieces (upper case when two share a cell), @ player (x dead).
func (g *arcadeGame) Text() string {
	l := g.e.Layout
	cells := make([]byte, l.W*l.H)
	for i := range cells {
		cells[i] = '#'
		if l.Empty(i%l.W, i/l.W) {
			cells[i] = '.'
		}
	}
	for c := 0; c < arcade.Colours; c++ {
		for i := 0; i < int(g.s.Count[c]); i++ {
			if o := g.s.Pieces[c][i]; o.Alive {
				at := &cells[int(o.Y)*l.W+int(o.X)]
				if *at == "rgy"[c] {
					*at = "RGY"[c]
				} else {
					*at = "rgy"[c]
				}
			}
		}
	}
	p := &cells[int(g.s.Player.Y)*l.W+int(g.s.Player.X)]
	*p = '@'
	if !g.s.Player.Alive {
		*p = 'x'
	}
	var b strings.Builder
	for y := 1; y < l.H-1; y++ {
		b.Write(cells[y*l.W+1 : (y+1)*l.W-1])
		b.WriteByte('\n')
	}
	return b.String()
}

// Solution: the flat Monte-Carlo agent's moves from the info (a replay shows the states it met).
func (g *arcadeGame) Solution() []Key {
	var out []Key
	for _, st := range g.trace {
		if st.HasAction {
			out = append(out, arrowKey(st.Action.X, st.Action.Y))
		}
	}
	return out
}
