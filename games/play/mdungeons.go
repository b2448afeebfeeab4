package play

import (
	"fmt"
	"image"
	"strings"

	"pcgwb/problems"
	"pcgwb/problems/mdungeons"
	"pcgwb/problems/solver"
)

func init() {
	registerTyped("mdungeons", newMDungeons)
}

// mdungeonsGame plays the problem's engine (State.Step): turn-based moves, combat and potions
// resolved by the engine.
type mdungeonsGame struct {
	start, cur mdungeons.State
	moves      int
	solution   []solver.Location
	// players, exits and regions are the level's counts (the info's).
	players, exits, regions int
}

func newMDungeons(p *mdungeons.MDungeons, c problems.Content) (Game, error) {
	start, err := p.Game(c)
	if err != nil {
		return nil, err
	}
	info, err := p.Info(c)
	if err != nil {
		return nil, err
	}
	in := info.(*mdungeons.Info)
	m := &mdungeonsGame{start: start, solution: in.Solution, players: in.Players, exits: in.Exits, regions: in.Regions}
	m.Reset()
	return m, nil
}

func (m *mdungeonsGame) Reset() { m.cur, m.moves = m.start, 0 }

func (m *mdungeonsGame) Input(k Key) {
	dx, dy, ok := arrow(k)
	if !ok || m.Status() != Running {
		return
	}
	before := m.cur.Player()
	m.cur.Step(solver.Dir{X: dx, Y: dy})
	if m.cur.Player() != before {
		m.moves++
	}
}

func (m *mdungeonsGame) Update() {}

func (m *mdungeonsGame) Status() Status { return outcome(m.cur) }

func (m *mdungeonsGame) Board() image.Image { return mdungeons.RenderState(m.cur) }

func (m *mdungeonsGame) HUD() string {
	st := m.cur.Status()
	return fmt.Sprintf("health %d/5  potions %d  treasures %d  kills %d  moves %d",
		st.Health, st.ColPotions, st.ColTreasures, st.ColEnemies, m.moves)
}

func (m *mdungeonsGame) Unplayable() string {
	if r := exactlyOne(tally{"player", m.players}, tally{"exit", m.exits}); r != "" {
		return r
	}
	if m.regions > 1 {
		return fmt.Sprintf("its floor is split into %d parts that do not connect; a level needs one", m.regions)
	}
	return ""
}

func (m *mdungeonsGame) Moves() int { return m.moves }

func (m *mdungeonsGame) Controls() string { return "arrows move and fight" }

// Text: # wall, . floor, E exit, p potion, $ treasure, g goblin, o ogre, @ hero (x fallen).
func (m *mdungeonsGame) Text() string {
	l := m.cur.Level()
	p := m.cur.Player()
	var b strings.Builder
	for y := 1; y < l.H-1; y++ {
		for x := 1; x < l.W-1; x++ {
			c := "#.@Ep$go"[m.cur.Tile(x, y)]
			if p.X == x && p.Y == y {
				c = '@'
				if m.cur.Lose() {
					c = 'x'
				}
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (m *mdungeonsGame) Solution() []Key { return locationKeys(m.solution) }
