package play

import (
	"fmt"
	"image"
	"image/color"

	"pcgwb/assets"
	"pcgwb/problems"
	"pcgwb/problems/talakat"
)

func init() {
	registerTyped("talakat", newTalakat)
}

// talakatGame dodges the generated bullet pattern in the problem's own World: the fight is won
// when the boss's clock (its health) runs out, lost when a bullet touches the ship. Live, the
// ship moves with the arrow keys held down and the world steps every talakatCadence ticks (30
// frames a second, half the reference's pace, so a person can dodge). The replay is the
// benchmark's own run: the ship stands still and cannot be hit.
type talakatGame struct {
	stepClock
	p       *talakat.Talakat
	content problems.Content
	w       *talakat.World
	dx, dy  int
	broke   int
}

const talakatCadence = 2

func newTalakat(p *talakat.Talakat, c problems.Content) (Game, error) {
	g := &talakatGame{stepClock: stepClock{cadence: talakatCadence, auto: true}, p: p, content: c}
	if err := g.reset(); err != nil {
		return nil, err
	}
	return g, nil
}

func (g *talakatGame) reset() error {
	w, err := g.p.NewWorld(g.content)
	if err != nil {
		return err
	}
	w.Player.Invulnerable = false
	g.w, g.dx, g.dy, g.broke = w, 0, 0, 0
	return nil
}

func (g *talakatGame) Reset() { _ = g.reset() }

func (g *talakatGame) StartReplay() { g.w.Player.Invulnerable = true }

func (g *talakatGame) Hold(held []Key) {
	g.dx, g.dy = 0, 0
	for _, k := range held {
		if dx, dy, ok := arrow(k); ok {
			g.dx, g.dy = g.dx+dx, g.dy+dy
		}
	}
}

func (g *talakatGame) step(dx, dy int) {
	if g.Status() != Running {
		return
	}
	if !g.w.Step(dx, dy) && g.broke == 0 {
		g.broke = g.w.Frame
	}
}

// Input steps one frame per key when a script or a replay drives the game; live, the ship
// follows the held keys instead.
func (g *talakatGame) Input(k Key) {
	if g.auto {
		return
	}
	if k == KeyWait {
		g.step(0, 0)
	} else if dx, dy, ok := arrow(k); ok {
		g.step(dx, dy)
	}
}

func (g *talakatGame) Update() {
	if g.due() {
		g.step(g.dx, g.dy)
	}
}

func (g *talakatGame) Status() Status {
	switch {
	case g.w.Lost():
		return Lost
	case g.w.Won():
		return Won
	}
	return Running
}

func (g *talakatGame) Banner() string {
	if g.Status() == Won {
		return "SURVIVED"
	}
	return "HIT"
}

func (g *talakatGame) Board() image.Image {
	w := g.w
	img := image.NewRGBA(image.Rect(0, 0, int(w.Width), int(w.Height)))
	assets.Fill(img, 'k')
	half := assets.TileSize / 2
	assets.DrawSprite(img, "talakat_boss", int(w.Boss.X)-half, int(w.Boss.Y)-half)
	for _, b := range w.Bullets {
		disc(img, b.X, b.Y, b.Radius, assets.Palette['c'])
		disc(img, b.X, b.Y, b.Radius/2, assets.Palette['w'])
	}
	ship := "talakat_ship"
	if w.Lost() {
		ship = "play_player_dead"
	}
	assets.DrawSprite(img, ship, int(w.Player.X)-half, int(w.Player.Y)-half)
	// The boss's clock as a bar along the top.
	bar := int(w.Width) * w.Boss.Health / max(1, w.Boss.MaxHealth)
	for x := 0; x < bar; x++ {
		for y := 0; y < 3; y++ {
			img.SetRGBA(x, y, assets.Palette['r'])
		}
	}
	return img
}

// disc fills the pixels whose centres lie within r of (cx, cy).
func disc(img *image.RGBA, cx, cy, r float64, c color.RGBA) {
	b := img.Bounds()
	for y := max(b.Min.Y, int(cy-r)); y <= min(b.Max.Y-1, int(cy+r)+1); y++ {
		for x := max(b.Min.X, int(cx-r)); x <= min(b.Max.X-1, int(cx+r)+1); x++ {
			if dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy; dx*dx+dy*dy <= r*r {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

func (g *talakatGame) HUD() string {
	s := fmt.Sprintf("frame %d  boss %d/%d  bullets %d", g.w.Frame, g.w.Boss.Health, g.w.Boss.MaxHealth, len(g.w.Bullets))
	if g.broke > 0 {
		s += fmt.Sprintf("  too many bullets at frame %d", g.broke)
	}
	return s
}

func (g *talakatGame) Controls() string { return "hold the arrows to dodge" }

func (g *talakatGame) Text() string {
	w := g.w
	return fmt.Sprintf("frame %d ship %.0f,%.0f lives %d boss %d bullets %d spawners %d\n",
		w.Frame, w.Player.X, w.Player.Y, w.Player.Lives, w.Boss.Health, len(w.Bullets), len(w.Spawners))
}

// Solution: the benchmark's run, a still ship for the whole fight.
func (g *talakatGame) Solution() []Key {
	out := make([]Key, g.w.Boss.MaxHealth)
	for i := range out {
		out[i] = KeyWait
	}
	return out
}
