package play

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/isaac"
)

func init() {
	registerTyped("isaac", newIsaac)
}

// isaacGame explores a floor plan room by room through matching doors.
type isaacGame struct {
	start, cur *isaac.State
}

func newIsaac(p *isaac.Isaac, c problems.Content) (Game, error) {
	start, err := p.Game(c)
	if err != nil {
		return nil, err
	}
	g := &isaacGame{start: start}
	g.Reset()
	return g, nil
}

func (g *isaacGame) Reset() { g.cur = g.start.Clone() }

func (g *isaacGame) Input(k Key) {
	if dx, dy, ok := arrow(k); ok && !g.cur.Win() {
		g.cur.Step(dx, dy)
	}
}

func (g *isaacGame) Update() {}

func (g *isaacGame) Status() Status {
	if g.cur.Win() {
		return Won
	}
	return Running
}

func (g *isaacGame) Banner() string { return "ALL FOUND" }

func (g *isaacGame) Board() image.Image { return isaac.RenderState(g.cur) }

func (g *isaacGame) HUD() string {
	var found []string
	for _, sp := range g.cur.Specials() {
		mark := "?"
		switch {
		case !sp.Exists:
			mark = "missing"
		case sp.Found:
			mark = "found"
		}
		found = append(found, sp.Name+" "+mark)
	}
	return fmt.Sprintf("rooms %d/%d  %s  moves %d", g.cur.Visited(), g.cur.Rooms(), strings.Join(found, "  "), g.cur.Moves)
}

func (g *isaacGame) Controls() string { return "arrows go through doors" }
func (g *isaacGame) Text() string     { return g.cur.Text() }

// Solution: from the start to the nearest special room not yet found, then the next.
func (g *isaacGame) Solution() []Key { return pointKeys(g.start.Solution()) }
