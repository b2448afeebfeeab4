package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/shape"
	"pcgwb/problems/zelda"
)

func init() {
	Register("zelda", func(_ problems.Problem, c problems.Content) (Game, error) { return newZelda(c) })
}

// zeldaGame plays zelda's play rules: walk, take the key, open the door; enemies are static and
// deadly, the sword (space) slays those next to the player.
type zeldaGame struct {
	room     shape.Grid
	start    *zelda.State
	cur      *zelda.State
	enemies  int
	solution []zelda.Action
	// tiles counts the room's tiles by kind.
	tiles map[int]int
}

func newZelda(c problems.Content) (Game, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return nil, err
	}
	start, err := zelda.NewGame(g)
	if err != nil {
		return nil, err
	}
	z := &zeldaGame{room: g, start: start, enemies: start.Enemies(), solution: zelda.Solution(g), tiles: map[int]int{}}
	for _, t := range g.Cells {
		z.tiles[t]++
	}
	z.Reset()
	return z, nil
}

func (z *zeldaGame) Reset() { z.cur = z.start.Clone() }

func (z *zeldaGame) Input(k Key) {
	switch k {
	case KeyLeft:
		z.cur.Step(zelda.Left)
	case KeyRight:
		z.cur.Step(zelda.Right)
	case KeyUp:
		z.cur.Step(zelda.Up)
	case KeyDown:
		z.cur.Step(zelda.Down)
	case KeyAction:
		z.cur.Step(zelda.Sword)
	}
}

func (z *zeldaGame) Update() {}

func (z *zeldaGame) Status() Status { return outcome(z.cur) }

func (z *zeldaGame) Board() image.Image { return zelda.RenderState(z.cur) }

func (z *zeldaGame) HUD() string {
	key := "no"
	if z.cur.HasKey {
		key = "yes"
	}
	return fmt.Sprintf("key %s  enemies slain %d/%d  moves %d", key, z.cur.Slain, z.enemies, z.cur.Moves)
}

func (z *zeldaGame) Unplayable() string {
	return exactlyOne(tally{"player", z.tiles[zelda.Player]}, tally{"key", z.tiles[zelda.Key]}, tally{"door", z.tiles[zelda.Door]})
}

func (z *zeldaGame) Moves() int { return z.cur.Moves }

func (z *zeldaGame) Controls() string { return "arrows walk  space sword" }
func (z *zeldaGame) Text() string     { return z.cur.Text() }

// Solution: the metric's player→key→door route, with a sword swing before each enemy on it.
func (z *zeldaGame) Solution() []Key {
	out := make([]Key, len(z.solution))
	for i, a := range z.solution {
		out[i] = [...]Key{zelda.Left: KeyLeft, zelda.Right: KeyRight, zelda.Up: KeyUp, zelda.Down: KeyDown, zelda.Sword: KeyAction}[a]
	}
	return out
}
