package play

import (
	"fmt"
	"image"

	"pcgwb/problems"
	"pcgwb/problems/binary"
	"pcgwb/problems/shape"
)

func init() {
	Register("binary", func(_ problems.Problem, c problems.Content) (Game, error) { return newBinary(c) })
}

// binaryGame walks a maze from one end of the metric's longest path to the other.
type binaryGame struct {
	start, cur *binary.State
}

func newBinary(c problems.Content) (Game, error) {
	g, err := shape.GridFromContent(c)
	if err != nil {
		return nil, err
	}
	start, err := binary.NewGame(g)
	if err != nil {
		return nil, err
	}
	b := &binaryGame{start: start}
	b.Reset()
	return b, nil
}

func (b *binaryGame) Reset() { b.cur = b.start.Clone() }

func (b *binaryGame) Input(k Key) {
	if dx, dy, ok := arrow(k); ok {
		b.cur.Step(dx, dy)
	}
}

func (b *binaryGame) Update() {}

func (b *binaryGame) Status() Status {
	if b.cur.Win() {
		return Won
	}
	return Running
}

func (b *binaryGame) Board() image.Image { return binary.RenderState(b.cur) }

func (b *binaryGame) HUD() string {
	return fmt.Sprintf("moves %d  to the flag %d  longest path %d", b.cur.Moves, b.cur.Remaining(), b.cur.Length)
}

func (b *binaryGame) Moves() int { return b.cur.Moves }

func (b *binaryGame) Controls() string { return "arrows walk to the flag" }
func (b *binaryGame) Text() string     { return b.cur.Text() }

// Solution: the shortest walk between the longest path's ends (its length is Info.Path).
func (b *binaryGame) Solution() []Key { return pointKeys(b.start.Solution()) }
